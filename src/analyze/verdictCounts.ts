/**
 * verdictCounts — the verdict mix and the near-tie rule every analysis counts the same way.
 *
 * A near-tie is a decision that was not decisive while at least two candidates were alive; its rate is taken
 * over tier-2 decisions. One definition here keeps `analyze`, `hotspots`, `floorless` and the gates from
 * drifting apart. Pure.
 */
import type { Tier2VerdictKind } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';

/** How many decisions ended in each verdict. */
export interface VerdictCounts {
  move: number;
  stay: number;
  menu: number;
  unmatched: number;
}

/** The verdict kinds in the order reports list them. */
export const VERDICT_KINDS: readonly Tier2VerdictKind[] = ['move', 'stay', 'menu', 'unmatched'];

/** Fresh zeroed counts. */
export function createVerdictCounts(): VerdictCounts {
  return { move: 0, stay: 0, menu: 0, unmatched: 0 };
}

/** Add `from`'s counts to `into`. */
export function addVerdictCounts(into: VerdictCounts, from: Readonly<VerdictCounts>): void {
  for (const v of VERDICT_KINDS) into[v] += from[v];
}

/** Not decisive with at least two candidates alive (the recorded alive count, else a recorded runner-up). */
export function isRecordedNearTie(record: DecisionRecord): boolean {
  if (record.decisive) return false;
  const alive = record.aliveCount ?? (record.runnerUp === undefined ? 0 : 2);
  return alive >= 2;
}

/** `part / whole`, 0 when there is nothing to divide. */
export function rateOf(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/** The rates a report and a gate read off a verdict mix. */
export interface DecisionRates {
  readonly decisions: number;
  readonly verdicts: VerdictCounts;
  readonly nearTies: number;
  /** nearTies / decisions; 0 with no decisions. */
  readonly nearTieRate: number;
  /** menu / decisions. */
  readonly menuRate: number;
  /** unmatched / decisions. */
  readonly unmatchedRate: number;
}

/** Running counts for one slice of decisions. */
export class RateCounter {
  decisions = 0;
  nearTies = 0;
  readonly verdicts: VerdictCounts = createVerdictCounts();

  /** Count one decision as recorded. */
  add(record: DecisionRecord): void {
    this.count(record.verdict, isRecordedNearTie(record));
  }

  /** Count one verdict (a recorded or a replayed one) and whether it was a near-tie. */
  count(kind: Tier2VerdictKind, nearTie: boolean): void {
    this.decisions++;
    this.verdicts[kind]++;
    if (nearTie) this.nearTies++;
  }

  /** Add `other`'s counts. */
  merge(other: RateCounter): void {
    this.decisions += other.decisions;
    this.nearTies += other.nearTies;
    addVerdictCounts(this.verdicts, other.verdicts);
  }

  /** The counts and their rates, as a plain object. */
  toRates(): DecisionRates {
    return {
      decisions: this.decisions,
      verdicts: { ...this.verdicts },
      nearTies: this.nearTies,
      nearTieRate: rateOf(this.nearTies, this.decisions),
      menuRate: rateOf(this.verdicts.menu, this.decisions),
      unmatchedRate: rateOf(this.verdicts.unmatched, this.decisions),
    };
  }
}

/** Judged with no floor anywhere, so `unmatched` was unreachable (a floorless scorer). */
export function isFloorless(record: DecisionRecord): boolean {
  return !record.floorDeclared && record.effectiveFloor === undefined;
}
