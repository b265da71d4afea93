/**
 * tuneFloorSweep — for one floorless router/scorer, replay a sample of its decisions under floors taken from
 * their own top scores, and find the highest floor that keeps the unmatched rate at a target. Pure.
 */
import type { PolicySemantics } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';
import { replayDecision } from './replayDecision.js';
import { createVerdictCounts, rateOf } from './verdictCounts.js';

/** The floor sweep for one floorless router/scorer. */
export interface FloorSweep {
  readonly router: string | null;
  readonly scorer: string | null;
  readonly decisions: number;
  /** Decisions replayed (a uniform sample when `decisions` is larger). */
  readonly sampled: number;
  readonly rows: readonly {
    readonly share: number;
    readonly floor: number;
    readonly unmatchedRate: number;
    readonly nearTieRate: number;
    readonly menuRate: number;
  }[];
  /**
   * With a target unmatched rate: the highest floor (a recorded top score) whose replayed unmatched rate stays at
   * or below it, with the rates it gives; absent when even the weakest top score would exceed the target.
   */
  readonly recommended?: FloorSweepRow;
}

/** One floor of a floor sweep and the rates it gives on replay. */
export type FloorSweepRow = Omit<FloorSweep['rows'][number], 'share'>;

/** The floor sweep of one floorless router/scorer's sampled decisions, judged by `judge`. */
export function sweepFloors(
  s: { router: string | null; scorer: string | null; seen: number; kept: readonly DecisionRecord[] },
  shares: readonly number[],
  targetUnmatchedRate: number | undefined,
  judge: Judge,
): FloorSweep {
  const tops = s.kept
    .map((d) => d.ranked.find((c) => Number.isFinite(c.score))?.score)
    .filter((v): v is number => v !== undefined)
    .sort((a, b) => a - b);
  const rows: FloorSweep['rows'][number][] = [];
  const seenFloors = new Set<number>();
  for (const share of shares) {
    if (tops.length === 0) break;
    const floor = tops[Math.min(tops.length - 1, Math.max(0, Math.ceil(share * tops.length) - 1))]!;
    if (seenFloors.has(floor)) continue;
    seenFloors.add(floor);
    rows.push({ share, ...replayFloor(s.kept, floor, judge) });
  }
  const recommended =
    targetUnmatchedRate === undefined ? undefined : recommendFloor(s.kept, tops, targetUnmatchedRate, judge);
  return {
    router: s.router,
    scorer: s.scorer,
    decisions: s.seen,
    sampled: s.kept.length,
    rows,
    ...(recommended === undefined ? {} : { recommended }),
  };
}

/** The behaviour a decision is judged by. */
export type Judge = (d: DecisionRecord) => PolicySemantics;

/** Replay every kept decision under `floor` and return the rates it gives. */
function replayFloor(kept: readonly DecisionRecord[], floor: number, judge: Judge): FloorSweepRow {
  const v = createVerdictCounts();
  let nearTies = 0;
  let n = 0;
  for (const d of kept) {
    const o = replayDecision(d, { floor }, judge(d));
    if (o.kind !== 'replayed') continue;
    n++;
    v[o.verdict]++;
    if (o.nearTie) nearTies++;
  }
  return {
    floor,
    unmatchedRate: rateOf(v.unmatched, n),
    nearTieRate: rateOf(nearTies, n),
    menuRate: rateOf(v.menu, n),
  };
}

/**
 * The highest recorded top score that, as a floor, keeps the replayed unmatched rate at or below `target`.
 * A floor F makes a decision unmatched when its top score is at or below F, so the k-th weakest top score is
 * the candidate (k = ⌊target·n⌋); ties at that score can push the rate over, so lower candidates are tried,
 * each confirmed by replay.
 */
function recommendFloor(
  kept: readonly DecisionRecord[],
  ascendingTops: readonly number[],
  target: number,
  judge: Judge,
): FloorSweepRow | undefined {
  let k = Math.floor(target * ascendingTops.length + 1e-9);
  while (k > 0) {
    const floor = ascendingTops[k - 1]!;
    const row = replayFloor(kept, floor, judge);
    if (row.unmatchedRate <= target) return row;
    // Step below every top score tied with this one.
    while (k > 0 && ascendingTops[k - 1] === floor) k--;
  }
  return undefined;
}
