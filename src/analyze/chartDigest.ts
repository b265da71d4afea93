/**
 * chartDigest — the aggregates the HTML report draws: rates over time, the gap histogram, the tied skill
 * pairs matrix and floorless decisions per scorer.
 *
 * A chart must look the same for one decision and for a million, and the file must stay small, so the report
 * never sees decisions: only these fixed-size aggregates. Time buckets widen along a ladder of round widths
 * whenever there would be more than `maxBuckets` (chartTimeline). Every part adds and merges, so digests of
 * parts of the records merge into the digest of all of them. Near-ties are counted with the analyzer's rule (verdictCounts). Each chart has
 * its accumulator below, in the report's order; the recorded margins are counted as tune counts them
 * (marginTally). Pure. No I/O.
 */
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { isFloorless, isRecordedNearTie, RateCounter, type VerdictCounts } from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';
import { groupKey } from './groupKey.js';
import { MarginTally, type MarginCount } from './marginTally.js';
import { Timeline } from './chartTimeline.js';

/** Sizes of the digest. */
export interface ChartDigestConfig {
  /** Most time buckets kept. @default 120 */
  readonly maxBuckets: number;
  /** Gap histogram bins over 0..1. @default 40 */
  readonly gapBins: number;
  /** Skills shown in the tied-pairs matrix (most involved first). @default 12 */
  readonly maxSkills: number;
  /** Distinct skill pairs counted; near-ties of further pairs are counted in `pairsDropped`. @default 50000 */
  readonly maxPairs: number;
  /** Distinct router/scorer rows kept. @default 200 */
  readonly maxScorers: number;
}

/** The defaults `createChartDigest` uses. */
export const DEFAULT_CHART_DIGEST_CONFIG: ChartDigestConfig = Object.freeze({
  maxBuckets: 120,
  gapBins: 40,
  maxSkills: 12,
  maxPairs: 50_000,
  maxScorers: 200,
});

/** One time bucket. */
export interface TimeBucket {
  readonly startMs: number;
  readonly decisions: number;
  readonly nearTies: number;
  readonly verdicts: VerdictCounts;
}

/** What the charts are drawn from. */
export interface ChartDigest {
  readonly kind: 'chart-digest';
  readonly decisions: number;
  readonly nearTies: number;
  readonly verdicts: VerdictCounts;
  readonly timeline: { readonly bucketMs: number; readonly buckets: readonly TimeBucket[] };
  /** Runner-up gaps of decisions that had one; `nearTies` per bin by the recorded verdict. */
  readonly gaps: {
    readonly bins: readonly {
      readonly from: number;
      readonly to: number;
      readonly count: number;
      readonly nearTies: number;
    }[];
    /** Gaps outside 0..1 or non-finite (not drawn). */
    readonly outside: number;
  };
  /** Recorded margins, most decisions first (at most 5). */
  readonly margins: readonly MarginCount[];
  /** Near-ties by unordered {top, runner-up} pair, as a symmetric matrix over the most involved skills. */
  readonly tiedPairs: {
    readonly skills: readonly string[];
    readonly cells: readonly (readonly number[])[];
    /** Near-ties whose pair includes a skill not shown. */
    readonly notShown: number;
    readonly pairsDropped: number;
  };
  /** Per router/scorer: decisions and how many were judged with no floor. */
  readonly scorers: readonly {
    readonly router: string | null;
    readonly scorer: string | null;
    readonly decisions: number;
    readonly floorless: number;
    readonly nearTies: number;
  }[];
}

/** A streaming digest: feed records (or merge other digests), then `finish()` once. */
export interface ChartDigestAnalysis {
  add(record: TraceRecord): void;
  /**
   * Count everything `other` counted, as if its records had been added here after these (`other` is left
   * unchanged; both must have the same config). Exact while neither has met a cap (`maxPairs` pairs,
   * `maxScorers` rows): a capped digest has dropped counts the merge cannot restore.
   */
  merge(other: ChartDigestAnalysis): void;
  finish(): ChartDigest;
}

/** The parts of a digest, for merge. */
interface DigestParts {
  readonly totals: RateCounter;
  readonly timeline: Timeline;
  readonly gaps: GapHistogram;
  readonly margins: MarginTally;
  readonly tiedPairs: TiedPairs;
  readonly scorers: ScorerCounts;
}

/** Each digest's parts, known only here: merge reads another digest's state without exposing it. */
const partsOf = new WeakMap<ChartDigestAnalysis, DigestParts>();

/** Start a digest. */
export function createChartDigest(config: Partial<ChartDigestConfig> = {}): ChartDigestAnalysis {
  const cfg = resolveConfig(DEFAULT_CHART_DIGEST_CONFIG, config);
  const totals = new RateCounter();
  const timeline = new Timeline(cfg.maxBuckets);
  const gaps = new GapHistogram(cfg.gapBins);
  const margins = new MarginTally();
  const tiedPairs = new TiedPairs(cfg.maxPairs);
  const scorers = new ScorerCounts(cfg.maxScorers);
  const digest: ChartDigestAnalysis = {
    add(record: TraceRecord): void {
      if (record.kind !== 'decision') return;
      const tie = isRecordedNearTie(record);
      totals.add(record);
      timeline.add(record, tie);
      gaps.add(record.runnerUp?.gap, tie);
      margins.add(record.policy.nearTieMargin);
      if (tie) tiedPairs.add(record);
      scorers.add(record, tie);
    },
    merge(other: ChartDigestAnalysis): void {
      const o = partsOf.get(other);
      if (o === undefined) throw new TypeError('merge takes a digest made by createChartDigest');
      totals.merge(o.totals);
      timeline.merge(o.timeline);
      gaps.merge(o.gaps);
      margins.merge(o.margins);
      tiedPairs.merge(o.tiedPairs);
      scorers.merge(o.scorers);
    },
    finish(): ChartDigest {
      return {
        kind: 'chart-digest',
        decisions: totals.decisions,
        nearTies: totals.nearTies,
        verdicts: { ...totals.verdicts },
        timeline: timeline.finish(),
        gaps: gaps.finish(),
        margins: margins.top(),
        tiedPairs: tiedPairs.finish(cfg.maxSkills),
        scorers: scorers.finish(),
      };
    },
  };
  partsOf.set(digest, { totals, timeline, gaps, margins, tiedPairs, scorers });
  return digest;
}

/** Digest a finite collection of records. */
export function digestForCharts(
  records: Iterable<TraceRecord>,
  config: Partial<ChartDigestConfig> = {},
): ChartDigest {
  const analysis = createChartDigest(config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

/** Runner-up gaps over 0..1 in `bins` equal bins, near-ties apart; gaps outside are only counted. */
class GapHistogram {
  private readonly counts: number[];
  private readonly nearTies: number[];
  private outside = 0;

  constructor(private readonly bins: number) {
    this.counts = new Array<number>(bins).fill(0);
    this.nearTies = new Array<number>(bins).fill(0);
  }

  /** Count one decision's gap (none without a runner-up). */
  add(gap: number | undefined, tie: boolean): void {
    if (gap === undefined) return;
    if (Number.isFinite(gap) && gap >= 0 && gap <= 1) {
      const i = Math.min(this.bins - 1, Math.floor(gap * this.bins));
      this.counts[i]!++;
      if (tie) this.nearTies[i]!++;
    } else this.outside++;
  }

  /** Add `other`'s counts (the same number of bins). */
  merge(other: GapHistogram): void {
    for (let i = 0; i < this.bins; i++) {
      this.counts[i]! += other.counts[i]!;
      this.nearTies[i]! += other.nearTies[i]!;
    }
    this.outside += other.outside;
  }

  /** The bins with their bounds, and the count outside them. */
  finish(): ChartDigest['gaps'] {
    return {
      bins: this.counts.map((count, i) => ({
        from: i / this.bins,
        to: (i + 1) / this.bins,
        count,
        nearTies: this.nearTies[i]!,
      })),
      outside: this.outside,
    };
  }
}

/** Near-ties by unordered {top, runner-up} pair, at most `maxPairs` pairs; near-ties of further pairs counted. */
class TiedPairs {
  private readonly pairs = new Map<string, { a: string; b: string; n: number }>();
  private pairsDropped = 0;

  constructor(private readonly maxPairs: number) {}

  /** Count one near-tie under its pair (none without two distinct skills). */
  add(d: DecisionRecord): void {
    const top = d.ranked[0]?.id;
    const second = d.runnerUp?.id;
    if (top !== undefined && second !== undefined && top !== second) {
      // Stryker disable next-line EqualityOperator: equivalent — the two skills differ (checked above), and either order gives the same symmetric cells and the same involvement.
      const [a, b] = top < second ? [top, second] : [second, top];
      this.count(a, b, 1);
    }
  }

  /** Add `other`'s pairs (in the order it first saw them) and what it dropped. */
  merge(other: TiedPairs): void {
    for (const p of other.pairs.values()) this.count(p.a, p.b, p.n);
    this.pairsDropped += other.pairsDropped;
  }

  /** Count `n` near-ties of the pair {a, b} (a < b), or drop them past the cap. */
  private count(a: string, b: string, n: number): void {
    const key = groupKey(a, b);
    const p = this.pairs.get(key);
    if (p !== undefined) p.n += n;
    else if (this.pairs.size < this.maxPairs) this.pairs.set(key, { a, b, n });
    else this.pairsDropped += n;
  }

  /** The symmetric matrix over the `maxSkills` skills in most near-ties, and what it leaves out. */
  finish(maxSkills: number): ChartDigest['tiedPairs'] {
    const skills = this.mostInvolved(maxSkills);
    const index = new Map(skills.map((id, i) => [id, i]));
    const cells = skills.map(() => new Array<number>(skills.length).fill(0));
    let notShown = 0;
    for (const p of this.pairs.values()) {
      const i = index.get(p.a);
      const j = index.get(p.b);
      if (i === undefined || j === undefined) {
        notShown += p.n;
        continue;
      }
      cells[i]![j]! += p.n;
      cells[j]![i]! += p.n;
    }
    return { skills, cells, notShown, pairsDropped: this.pairsDropped };
  }

  /** The skills in most near-ties first (then by name), at most `limit`. */
  private mostInvolved(limit: number): string[] {
    const involvement = new Map<string, number>();
    for (const p of this.pairs.values()) {
      involvement.set(p.a, (involvement.get(p.a) ?? 0) + p.n);
      involvement.set(p.b, (involvement.get(p.b) ?? 0) + p.n);
    }
    return [...involvement]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .slice(0, limit)
      .map(([id]) => id);
  }
}

interface ScorerRow {
  readonly router: string | null;
  readonly scorer: string | null;
  decisions: number;
  floorless: number;
  nearTies: number;
}

/** Decisions, floorless decisions and near-ties per router/scorer, at most `max` rows; later ones not counted. */
class ScorerCounts {
  private readonly rows = new Map<string, ScorerRow>();

  constructor(private readonly max: number) {}

  /** Count one decision in its router/scorer's row. */
  add(d: DecisionRecord, tie: boolean): void {
    const s = this.rowOf(d.router ?? null, d.scorer ?? null);
    if (s !== undefined) {
      s.decisions++;
      if (isFloorless(d)) s.floorless++;
      if (tie) s.nearTies++;
    }
  }

  /** Add `other`'s rows (in the order it first saw them). */
  merge(other: ScorerCounts): void {
    for (const o of other.rows.values()) {
      const s = this.rowOf(o.router, o.scorer);
      if (s === undefined) continue;
      s.decisions += o.decisions;
      s.floorless += o.floorless;
      s.nearTies += o.nearTies;
    }
  }

  /** The row of a router/scorer, made while there is room; undefined past the cap. */
  private rowOf(router: string | null, scorer: string | null): ScorerRow | undefined {
    const key = groupKey(router, scorer);
    let s = this.rows.get(key);
    if (s === undefined && this.rows.size < this.max) {
      s = { router, scorer, decisions: 0, floorless: 0, nearTies: 0 };
      this.rows.set(key, s);
    }
    return s;
  }

  /** The rows, most decisions first. */
  finish(): ChartDigest['scorers'] {
    return [...this.rows.values()].sort((x, y) => y.decisions - x.decisions).map((s) => ({ ...s }));
  }
}
