/**
 * tuneFloorSweep — for one floorless router/scorer, replay a sample of its decisions under floors taken from
 * their own top scores, and find the highest floor that keeps the unmatched rate at a target.
 *
 * The floor sweep runs at the end, once each service's behaviour is settled, so it cannot replay decisions as
 * they stream by: it keeps a uniform sample of each floorless router/scorer's decisions instead (reservoir
 * sampling, one seeded generator, so the same input always gives the same report). Pure.
 */
import type { PolicySemantics } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';
import { groupKey } from './groupKey.js';
import { replayDecision } from './replayDecision.js';
import { createVerdictCounts, rateOf } from './verdictCounts.js';

/** The most floorless router/scorers sampled; decisions of further ones are not sampled. */
const MAX_FLOORLESS_SCORERS = 50;

/** A uniform sample of one floorless router/scorer's decisions. */
export interface FloorSample {
  readonly router: string | null;
  readonly scorer: string | null;
  /** Decisions seen. */
  seen: number;
  /** The sample: every decision while `seen` is at most the sample size. */
  readonly kept: DecisionRecord[];
}

/** A uniform sample of decisions per floorless router/scorer, of at most `size` decisions each. */
export class FloorSamples {
  private readonly samples = new Map<string, FloorSample>();
  private rngState = 0x2545f491;

  constructor(private readonly size: number) {}

  /** Sample one decision of a floorless scorer. */
  add(d: DecisionRecord): void {
    const key = groupKey(d.router, d.scorer);
    let s = this.samples.get(key);
    if (s === undefined) {
      if (this.samples.size >= MAX_FLOORLESS_SCORERS) return;
      s = { router: d.router ?? null, scorer: d.scorer ?? null, seen: 0, kept: [] };
      this.samples.set(key, s);
    }
    s.seen++;
    if (s.kept.length < this.size) s.kept.push(d);
    else {
      const j = Math.floor(this.random() * s.seen);
      if (j < this.size) s.kept[j] = d;
    }
  }

  /** The samples, the router/scorer with most decisions first. */
  bySize(): FloorSample[] {
    return [...this.samples.values()].sort((a, b) => b.seen - a.seen);
  }

  /** mulberry32: one generator for every sample, so the draws depend on the input order alone. */
  private random(): number {
    // Stryker disable next-line ArithmeticOperator: equivalent — any well-mixed generator samples uniformly; which decisions a sample keeps is not specified.
    this.rngState = (this.rngState + 0x6d2b79f5) >>> 0;
    let t = this.rngState;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    // Stryker disable next-line ArithmeticOperator: equivalent — as above, another mix of the same state is another uniform generator.
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

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
  s: FloorSample,
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
