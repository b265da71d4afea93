/**
 * chartDigest — the aggregates the HTML report draws: rates over time, the gap histogram, the tied skill
 * pairs matrix and floorless decisions per scorer.
 *
 * A chart must look the same for one decision and for a million, and the file must stay small, so the report
 * never sees decisions: only these fixed-size aggregates. Time buckets widen along a ladder of round widths
 * (1 s … 1 week) whenever there would be more than `maxBuckets`, merging exactly because every width is a
 * multiple of the one before. Near-ties are counted with the analyzer's rule (verdictCounts). Pure. No I/O.
 */
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { createVerdictCounts, isFloorless, isRecordedNearTie, type VerdictCounts } from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';
import { groupKey } from './groupKey.js';

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

/** Bucket widths, each a multiple of the previous one (ms). */
const LADDER_MS = [
  1e3, 5e3, 15e3, 60e3, 300e3, 900e3, 3600e3, 10800e3, 21600e3, 43200e3, 86400e3, 604800e3, 2419200e3,
];

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
  readonly margins: readonly { readonly margin: number; readonly decisions: number }[];
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

/** A streaming digest: feed records, then `finish()` once. */
export interface ChartDigestAnalysis {
  add(record: TraceRecord): void;
  finish(): ChartDigest;
}

interface MutableBucket {
  decisions: number;
  nearTies: number;
  verdicts: VerdictCounts;
}

/** Start a digest. */
export function createChartDigest(config: Partial<ChartDigestConfig> = {}): ChartDigestAnalysis {
  const cfg = resolveConfig(DEFAULT_CHART_DIGEST_CONFIG, config);
  const verdicts = createVerdictCounts();
  let decisions = 0;
  let nearTies = 0;
  let rung = 0;
  let buckets = new Map<number, MutableBucket>();
  const gapCounts = new Array<number>(cfg.gapBins).fill(0);
  const gapNearTies = new Array<number>(cfg.gapBins).fill(0);
  let gapsOutside = 0;
  const margins = new Map<number, number>();
  const pairs = new Map<string, { a: string; b: string; n: number }>();
  let pairsDropped = 0;
  const scorers = new Map<
    string,
    { router: string | null; scorer: string | null; decisions: number; floorless: number; nearTies: number }
  >();

  const widen = (): void => {
    while (buckets.size > cfg.maxBuckets && rung < LADDER_MS.length - 1) {
      const from = LADDER_MS[rung]!;
      rung++;
      const to = LADDER_MS[rung]!;
      const merged = new Map<number, MutableBucket>();
      for (const [k, b] of buckets) {
        const key = Math.floor((k * from) / to);
        const m = merged.get(key);
        if (m === undefined) merged.set(key, b);
        else {
          m.decisions += b.decisions;
          m.nearTies += b.nearTies;
          for (const v of Object.keys(b.verdicts) as (keyof VerdictCounts)[]) m.verdicts[v] += b.verdicts[v];
        }
      }
      buckets = merged;
    }
  };

  const addDecision = (d: DecisionRecord): void => {
    decisions++;
    verdicts[d.verdict]++;
    const tie = isRecordedNearTie(d);
    if (tie) nearTies++;

    if (Number.isFinite(d.timeUnixMs)) {
      const key = Math.floor(d.timeUnixMs / LADDER_MS[rung]!);
      let b = buckets.get(key);
      if (b === undefined) {
        b = { decisions: 0, nearTies: 0, verdicts: createVerdictCounts() };
        buckets.set(key, b);
      }
      b.decisions++;
      if (tie) b.nearTies++;
      b.verdicts[d.verdict]++;
      // Stryker disable next-line EqualityOperator: equivalent — widen() itself does nothing until there are more than maxBuckets.
      if (buckets.size > cfg.maxBuckets) widen();
    }

    const gap = d.runnerUp?.gap;
    if (gap !== undefined) {
      if (Number.isFinite(gap) && gap >= 0 && gap <= 1) {
        const i = Math.min(cfg.gapBins - 1, Math.floor(gap * cfg.gapBins));
        gapCounts[i]!++;
        if (tie) gapNearTies[i]!++;
      } else gapsOutside++;
    }
    margins.set(d.policy.nearTieMargin, (margins.get(d.policy.nearTieMargin) ?? 0) + 1);

    if (tie) {
      const top = d.ranked[0]?.id;
      const second = d.runnerUp?.id;
      if (top !== undefined && second !== undefined && top !== second) {
        // Stryker disable next-line EqualityOperator: equivalent — the two skills differ (checked above), and either order gives the same symmetric cells and the same involvement.
        const [a, b] = top < second ? [top, second] : [second, top];
        const key = groupKey(a, b);
        const p = pairs.get(key);
        if (p !== undefined) p.n++;
        else if (pairs.size < cfg.maxPairs) pairs.set(key, { a, b, n: 1 });
        else pairsDropped++;
      }
    }

    const sKey = groupKey(d.router, d.scorer);
    let s = scorers.get(sKey);
    if (s === undefined && scorers.size < cfg.maxScorers) {
      s = { router: d.router ?? null, scorer: d.scorer ?? null, decisions: 0, floorless: 0, nearTies: 0 };
      scorers.set(sKey, s);
    }
    if (s !== undefined) {
      s.decisions++;
      if (isFloorless(d)) s.floorless++;
      if (tie) s.nearTies++;
    }
  };

  return {
    add(record: TraceRecord): void {
      if (record.kind === 'decision') addDecision(record);
    },
    finish(): ChartDigest {
      const width = LADDER_MS[rung]!;
      const timeline = [...buckets]
        .sort((x, y) => x[0] - y[0])
        .map(([k, b]) => ({
          startMs: k * width,
          decisions: b.decisions,
          nearTies: b.nearTies,
          verdicts: { ...b.verdicts },
        }));

      const involvement = new Map<string, number>();
      for (const p of pairs.values()) {
        involvement.set(p.a, (involvement.get(p.a) ?? 0) + p.n);
        involvement.set(p.b, (involvement.get(p.b) ?? 0) + p.n);
      }
      const skills = [...involvement]
        .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
        .slice(0, cfg.maxSkills)
        .map(([id]) => id);
      const index = new Map(skills.map((id, i) => [id, i]));
      const cells = skills.map(() => new Array<number>(skills.length).fill(0));
      let notShown = 0;
      for (const p of pairs.values()) {
        const i = index.get(p.a);
        const j = index.get(p.b);
        if (i === undefined || j === undefined) {
          notShown += p.n;
          continue;
        }
        cells[i]![j]! += p.n;
        cells[j]![i]! += p.n;
      }

      return {
        kind: 'chart-digest',
        decisions,
        nearTies,
        verdicts: { ...verdicts },
        timeline: { bucketMs: width, buckets: timeline },
        gaps: {
          bins: gapCounts.map((count, i) => ({
            from: i / cfg.gapBins,
            to: (i + 1) / cfg.gapBins,
            count,
            nearTies: gapNearTies[i]!,
          })),
          outside: gapsOutside,
        },
        margins: [...margins]
          .sort((x, y) => y[1] - x[1] || x[0] - y[0])
          .slice(0, 5)
          .map(([margin, n]) => ({ margin, decisions: n })),
        tiedPairs: { skills, cells, notShown, pairsDropped },
        scorers: [...scorers.values()].sort((x, y) => y.decisions - x.decisions).map((s) => ({ ...s })),
      };
    },
  };
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
