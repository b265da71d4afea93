/**
 * findFloorlessScorers — scorers that judged with no floor, and the floor that would let them say "no match".
 *
 * With no floor declared anywhere, `unmatched` is unreachable: a floorless scorer (an embedding scorer by
 * default) routes every message somewhere, however weak its best match. For each router and scorer that judged
 * without a floor this reports how many decisions that affected, the distribution of their top scores, and the
 * floor that would have turned the weakest K% into `unmatched` — a decision is unmatched under floor F exactly
 * when its top score is at or below F, so the floor is the K-th percentile (nearest rank) of the top scores.
 * Bounded state: per group counters and a reservoir of top scores (exact up to its capacity). Pure. No I/O.
 */
import { ExampleTraceIds } from './exampleTraceIds.js';
import { sanitizeScore } from '../policy/routingPolicy.js';
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import {
  createReservoir,
  describeDistribution,
  nearestRank,
  sampleKey,
  type Distribution,
  type Reservoir,
} from './createReservoir.js';
import { compareNames } from './summarizeDecisions.js';
import {
  addVerdictCounts,
  createVerdictCounts,
  isFloorless,
  isRecordedNearTie,
  rateOf,
  type VerdictCounts,
} from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';
import { groupKey } from './groupKey.js';

/** Options of the floorless analysis. */
export interface FloorlessConfig {
  /** The share (percent, 0..100) of weakest decisions the suggested floor makes `unmatched`. @default 10 */
  readonly weakestPercent: number;
  /** Top scores kept per group (percentiles exact up to this many). @default 4096 */
  readonly sample: number;
  /** Example trace ids kept per group. @default 3 */
  readonly maxExamples: number;
  /** Groups kept; decisions of further groups are counted in `droppedDecisions`. @default 1000 */
  readonly maxGroups: number;
}

/** The defaults `findFloorlessScorers` uses. */
export const DEFAULT_FLOORLESS_CONFIG: FloorlessConfig = Object.freeze({
  weakestPercent: 10,
  sample: 4096,
  maxExamples: 3,
  maxGroups: 1000,
});

/** The floor that would have made the weakest K% of a group's decisions `unmatched`. */
export interface SuggestedFloor {
  /** K, as asked. */
  readonly percent: number;
  /** The floor (a score AT the floor is out). */
  readonly floor: number;
  /** Decisions with a finite top score at or below `floor` (estimated from the sample when not `exact`). */
  readonly wouldBeUnmatched: number;
  /** wouldBeUnmatched / decisions with a finite top score (ties at the floor can push it above K%). */
  readonly share: number;
  readonly exact: boolean;
  /** Finite top scores the floor was read from (all, or the sample when not `exact`). */
  readonly sample: number;
  /** Fewer than MIN_FLOOR_SAMPLE decisions: the floor is a guess from a handful, and reports say so. */
  readonly tiny: boolean;
}

/** Decisions a suggested floor should rest on; below it the suggestion is kept but marked tiny. */
export const MIN_FLOOR_SAMPLE = 30;

/** One router + scorer that judged with no floor. null = the spans did not carry the name. */
export interface FloorlessScorer {
  readonly router: string | null;
  readonly scorer: string | null;
  /** Decisions judged with no floor. */
  readonly decisions: number;
  readonly verdicts: VerdictCounts;
  readonly nearTies: number;
  readonly nearTieRate: number;
  /** Distribution of the finite top scores; null when none was finite. */
  readonly topScores: Distribution | null;
  /** Decisions whose every score was non-finite (already `unmatched`). */
  readonly nonFiniteTop: number;
  readonly suggestedFloor: SuggestedFloor | null;
  readonly exampleTraceIds: readonly string[];
  /** Of `exampleTraceIds`, those routescope synthesized for event-log records: no trace store holds them. */
  readonly syntheticTraceIds: readonly string[];
}

/** The floorless report. */
export interface FloorlessReport {
  readonly kind: 'floorless';
  readonly weakestPercent: number;
  readonly decisions: number;
  readonly floorlessDecisions: number;
  /** Floorless router + scorer pairs, most decisions first. */
  readonly floorless: readonly FloorlessScorer[];
  /** Floorless decisions of groups beyond `maxGroups`. */
  readonly droppedDecisions: number;
}

/** A streaming floorless analysis: feed records (or merge other analyses), then `finish()` once. */
export interface FloorlessAnalysis {
  add(record: TraceRecord): void;
  /**
   * Count everything `other` counted, as if its records had been added here after these (`other` is left as it
   * was; both must have the same config). Exact while neither met `maxGroups`.
   */
  merge(other: FloorlessAnalysis): void;
  finish(): FloorlessReport;
}

/** What merge reads of another analysis, known only here. */
interface FloorlessState {
  readonly groups: Map<string, Group>;
  readonly counts: { decisions: number; floorless: number; dropped: number };
}
const stateOf = new WeakMap<FloorlessAnalysis, FloorlessState>();

interface Group {
  readonly router: string | null;
  readonly scorer: string | null;
  decisions: number;
  nearTies: number;
  nonFiniteTop: number;
  readonly verdicts: VerdictCounts;
  readonly tops: Reservoir;
  readonly examples: ExampleTraceIds;
}

/** Start a floorless analysis; throws RangeError when `weakestPercent` is not within 0..100. */
export function createFloorlessAnalysis(config: Partial<FloorlessConfig> = {}): FloorlessAnalysis {
  const cfg: FloorlessConfig = resolveConfig(DEFAULT_FLOORLESS_CONFIG, config);
  if (!(cfg.weakestPercent >= 0 && cfg.weakestPercent <= 100)) {
    throw new RangeError(`weakest percent must be within 0..100, got ${String(cfg.weakestPercent)}`);
  }
  const groups = new Map<string, Group>();
  const counts = { decisions: 0, floorless: 0, dropped: 0 };

  const newGroup = (router: string | null, scorer: string | null): Group => ({
    router,
    scorer,
    decisions: 0,
    nearTies: 0,
    nonFiniteTop: 0,
    verdicts: createVerdictCounts(),
    tops: createReservoir(cfg.sample),
    examples: new ExampleTraceIds(cfg.maxExamples),
  });

  const add = (d: DecisionRecord): void => {
    counts.decisions++;
    if (!isFloorless(d)) return;
    counts.floorless++;
    const router = d.router ?? null;
    const scorer = d.scorer ?? null;
    const key = groupKey(router, scorer);
    let g = groups.get(key);
    if (g === undefined) {
      if (groups.size >= cfg.maxGroups) {
        counts.dropped++;
        return;
      }
      g = newGroup(router, scorer);
      groups.set(key, g);
    }
    g.decisions++;
    g.verdicts[d.verdict]++;
    if (isRecordedNearTie(d)) g.nearTies++;
    const top = topScore(d);
    if (top === undefined) g.nonFiniteTop++;
    else g.tops.add(top, sampleKey(d.traceId, d.spanId));
    g.examples.add(d);
  };

  const mergeGroup = (key: string, o: Group): void => {
    let g = groups.get(key);
    if (g === undefined) {
      if (groups.size >= cfg.maxGroups) {
        counts.dropped += o.decisions;
        return;
      }
      g = newGroup(o.router, o.scorer);
      groups.set(key, g);
    }
    g.decisions += o.decisions;
    g.nearTies += o.nearTies;
    g.nonFiniteTop += o.nonFiniteTop;
    addVerdictCounts(g.verdicts, o.verdicts);
    g.tops.merge(o.tops);
    g.examples.merge(o.examples);
  };

  const analysis: FloorlessAnalysis = {
    add(record: TraceRecord): void {
      if (record.kind === 'decision') add(record);
    },
    merge(other: FloorlessAnalysis): void {
      const o = stateOf.get(other);
      if (o === undefined) throw new TypeError('merge takes an analysis made by createFloorlessAnalysis');
      counts.decisions += o.counts.decisions;
      counts.floorless += o.counts.floorless;
      counts.dropped += o.counts.dropped;
      for (const [key, g] of o.groups) mergeGroup(key, g);
    },
    finish(): FloorlessReport {
      const list = [...groups.values()]
        .map((g) => toFloorless(g, cfg.weakestPercent))
        .sort(
          (a, b) =>
            b.decisions - a.decisions || compareNames(a.router, b.router) || compareNames(a.scorer, b.scorer),
        );
      return {
        kind: 'floorless',
        weakestPercent: cfg.weakestPercent,
        decisions: counts.decisions,
        floorlessDecisions: counts.floorless,
        floorless: list,
        droppedDecisions: counts.dropped,
      };
    },
  };
  stateOf.set(analysis, { groups, counts });
  return analysis;
}

/** The floorless report of a finite list of records (tests, small inputs). */
export function findFloorlessScorers(
  records: Iterable<TraceRecord>,
  config: Partial<FloorlessConfig> = {},
): FloorlessReport {
  const analysis = createFloorlessAnalysis(config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

/** The best finite score of a decision; undefined when every recorded score is non-finite or none was kept. */
export function topScore(d: DecisionRecord): number | undefined {
  let best: number | undefined;
  for (const c of d.ranked) {
    const s = sanitizeScore(c.score);
    if (s !== -Infinity && (best === undefined || s > best)) best = s;
  }
  return best;
}

/** The floor that makes the weakest `percent`% of `sortedTops` unmatched, with what it would catch. */
export function suggestFloor(
  sortedTops: readonly number[],
  percent: number,
  population: number,
  exact: boolean,
): SuggestedFloor | null {
  const n = sortedTops.length;
  if (n === 0 || percent <= 0) return null;
  const floor = nearestRank(sortedTops, percent / 100)!;
  let atOrBelow = 0;
  for (const s of sortedTops) {
    if (s <= floor) atOrBelow++;
    else break;
  }
  const share = atOrBelow / n;
  return {
    percent,
    floor,
    wouldBeUnmatched: exact ? atOrBelow : Math.round(share * population),
    share,
    exact,
    sample: n,
    tiny: population < MIN_FLOOR_SAMPLE,
  };
}

function toFloorless(g: Group, percent: number): FloorlessScorer {
  const dist = describeDistribution(g.tops);
  return {
    router: g.router,
    scorer: g.scorer,
    decisions: g.decisions,
    verdicts: { ...g.verdicts },
    nearTies: g.nearTies,
    nearTieRate: rateOf(g.nearTies, g.decisions),
    topScores: dist ?? null,
    nonFiniteTop: g.nonFiniteTop,
    suggestedFloor: suggestFloor(g.tops.sorted(), percent, g.tops.count, g.tops.exact),
    exampleTraceIds: g.examples.traceIds(),
    syntheticTraceIds: g.examples.syntheticTraceIds(),
  };
}
