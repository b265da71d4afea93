/**
 * floorSources — where each decision's floor came from, as far as its record can tell, and a tally of them.
 *
 * A wrapper's record says which of the policy and the scorer set the floor (the policy's wins); a record
 * rebuilt from agentfootprint's `turn_routed` event knows only the floor that judged, so it is `effective`
 * and stays that: it is never guessed to be the policy's or the scorer's. Reports name the floor by this, so
 * nothing is called a policy override that nobody overrode. Pure.
 */
import type { FloorSource } from '../policy/types.js';
import type { RecordedDecision } from '../record/types.js';

/** The floor sources in the order reports list them; `none` = no floor at all. */
export const FLOOR_SOURCE_ORDER = ['policy', 'scorer', 'effective', 'none'] as const;

/** Decisions per floor source. */
export type FloorSourceCounts = Record<(typeof FLOOR_SOURCE_ORDER)[number], number>;

/** Where `d`'s floor came from; undefined when it was judged with no floor. */
export function recordedFloorSource(
  d: Pick<RecordedDecision, 'policy' | 'scorerTraits' | 'effectiveFloor' | 'floorSource'>,
): FloorSource | undefined {
  if (d.floorSource === 'effective') return d.effectiveFloor === undefined ? undefined : 'effective';
  if (d.policy.floor !== undefined) return 'policy';
  if (d.scorerTraits.floor !== undefined) return 'scorer';
  // A producer that wrote only the effective floor, without saying whose, is honestly that.
  return d.effectiveFloor === undefined ? undefined : 'effective';
}

/** Counts decisions by floor source. */
export class FloorSourceTally {
  private readonly counts: FloorSourceCounts = { policy: 0, scorer: 0, effective: 0, none: 0 };

  add(d: RecordedDecision): void {
    this.counts[recordedFloorSource(d) ?? 'none']++;
  }

  /** Count what `other` counted too. */
  merge(other: FloorSourceTally): void {
    for (const k of FLOOR_SOURCE_ORDER) this.counts[k] += other.counts[k];
  }

  finish(): FloorSourceCounts {
    return { ...this.counts };
  }
}
