// chartDigest.rules — one rule of the chart digest per test: the totals, the time buckets and how they widen,
// the gap histogram's edges, the recorded margins, the tied-pairs matrix and its caps, the per-scorer rows.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CHART_DIGEST_CONFIG,
  createChartDigest,
  digestForCharts,
} from '../../src/analyze/chartDigest.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { decision, s, tid, turn, type DecisionSpec } from './decisionBuilder.js';

/** A decisive cold-start move (gap tanh(5) ≈ 0.9999, no near-tie). */
const far = (extra: Partial<DecisionSpec> = {}): DecisionRecord =>
  decision({ scores: [s('x', 10), s('y', 0)], policy: { nearTieMargin: 0.15 }, ...extra });

/** A near-tie menu of `top` and `second` (gap tanh(0.005) ≈ 0.005). */
const tie = (top: string, second: string, extra: Partial<DecisionSpec> = {}): DecisionRecord =>
  decision({ scores: [s(top, 0.51), s(second, 0.5)], policy: { nearTieMargin: 0.15 }, ...extra });

const at = (ms: number, d: DecisionRecord): DecisionRecord => ({ ...d, timeUnixMs: ms });

describe('chart digest: totals', () => {
  it('the defaults: 120 buckets, 40 gap bins, 12 skills, 50000 pairs, 200 scorers', () => {
    expect(DEFAULT_CHART_DIGEST_CONFIG).toStrictEqual({
      maxBuckets: 120,
      gapBins: 40,
      maxSkills: 12,
      maxPairs: 50_000,
      maxScorers: 200,
    });
    expect(Object.isFrozen(DEFAULT_CHART_DIGEST_CONFIG)).toBe(true);
  });

  it('counts decisions, near-ties and verdicts; other records are not decisions', () => {
    const g = digestForCharts([far(), tie('a', 'b'), tie('a', 'b'), turn({ traceId: tid('t') })]);
    expect(g.kind).toBe('chart-digest');
    expect(g.decisions).toBe(3);
    expect(g.nearTies).toBe(2);
    expect(g.verdicts).toStrictEqual({ move: 1, stay: 0, menu: 2, unmatched: 0 });
  });

  it('an empty input gives an empty digest of the configured sizes', () => {
    const g = createChartDigest({ gapBins: 4 }).finish();
    expect(g).toStrictEqual({
      kind: 'chart-digest',
      decisions: 0,
      nearTies: 0,
      verdicts: { move: 0, stay: 0, menu: 0, unmatched: 0 },
      timeline: { bucketMs: 1000, buckets: [] },
      gaps: {
        bins: [
          { from: 0, to: 0.25, count: 0, nearTies: 0 },
          { from: 0.25, to: 0.5, count: 0, nearTies: 0 },
          { from: 0.5, to: 0.75, count: 0, nearTies: 0 },
          { from: 0.75, to: 1, count: 0, nearTies: 0 },
        ],
        outside: 0,
      },
      margins: [],
      tiedPairs: { skills: [], cells: [], notShown: 0, pairsDropped: 0 },
      scorers: [],
    });
  });
});

describe('chart digest: the timeline', () => {
  it('buckets are one second wide to begin with, start on a whole second, and count each verdict', () => {
    const g = digestForCharts([at(5_500, far()), at(5_900, tie('a', 'b')), at(2_100, far())]);
    expect(g.timeline).toStrictEqual({
      bucketMs: 1000,
      buckets: [
        { startMs: 2000, decisions: 1, nearTies: 0, verdicts: { move: 1, stay: 0, menu: 0, unmatched: 0 } },
        { startMs: 5000, decisions: 2, nearTies: 1, verdicts: { move: 1, stay: 0, menu: 1, unmatched: 0 } },
      ],
    });
  });

  it('a decision with no finite time is counted but has no bucket', () => {
    const g = digestForCharts([at(NaN, far()), at(1000, far())]);
    expect(g.decisions).toBe(2);
    expect(g.timeline.buckets.map((b) => b.decisions)).toStrictEqual([1]);
  });

  it('exactly maxBuckets buckets keep their width; one more widens to the next rung (5 s)', () => {
    const three = [0, 1000, 2000].map((t) => at(t, far()));
    expect(digestForCharts(three, { maxBuckets: 3 }).timeline.bucketMs).toBe(1000);
    const four = [...three, at(3000, tie('a', 'b'))];
    const g = digestForCharts(four, { maxBuckets: 3 });
    expect(g.timeline).toStrictEqual({
      bucketMs: 5000,
      buckets: [
        { startMs: 0, decisions: 4, nearTies: 1, verdicts: { move: 3, stay: 0, menu: 1, unmatched: 0 } },
      ],
    });
  });

  it('widening climbs as many rungs as it takes, merging buckets that fall together', () => {
    // One hour apart: 1 s, 5 s, 15 s, 1 min, 5 min, 15 min and 1 h all keep two buckets; 3 h holds both.
    const g = digestForCharts([at(0, far()), at(3_600_000, far())], { maxBuckets: 1 });
    expect(g.timeline.bucketMs).toBe(10_800_000);
    expect(g.timeline.buckets).toStrictEqual([
      { startMs: 0, decisions: 2, nearTies: 0, verdicts: { move: 2, stay: 0, menu: 0, unmatched: 0 } },
    ]);
  });

  it('merged buckets add their near-ties and every verdict', () => {
    const recs = [at(0, tie('a', 'b')), at(1000, tie('a', 'b')), at(2000, far()), at(7000, far())];
    const g = digestForCharts(recs, { maxBuckets: 2 });
    expect(g.timeline).toStrictEqual({
      bucketMs: 5000,
      buckets: [
        { startMs: 0, decisions: 3, nearTies: 2, verdicts: { move: 1, stay: 0, menu: 2, unmatched: 0 } },
        { startMs: 5000, decisions: 1, nearTies: 0, verdicts: { move: 1, stay: 0, menu: 0, unmatched: 0 } },
      ],
    });
  });

  it('new decisions after a widening land in buckets of the new width', () => {
    const recs = [at(0, far()), at(1000, far()), at(2000, far()), at(6000, far()), at(6500, far())];
    const g = digestForCharts(recs, { maxBuckets: 2 });
    expect(g.timeline.bucketMs).toBe(5000);
    expect(g.timeline.buckets.map((b) => [b.startMs, b.decisions])).toStrictEqual([
      [0, 3],
      [5000, 2],
    ]);
  });

  it('the widest rung is four weeks; past it buckets are no longer merged', () => {
    const week4 = 2_419_200_000;
    const recs = [0, 1, 2].map((k) => at(k * week4, far()));
    const g = digestForCharts(recs, { maxBuckets: 1 });
    expect(g.timeline.bucketMs).toBe(week4);
    expect(g.timeline.buckets.map((b) => b.startMs)).toStrictEqual([0, week4, 2 * week4]);
  });
});

describe('chart digest: the gap histogram', () => {
  const withGap = (gap: number, extra: Partial<DecisionRecord> = {}): DecisionRecord => ({
    ...far(),
    runnerUp: { id: 'y', gap },
    ...extra,
  });

  it('a gap falls in the bin [i/bins, (i+1)/bins) that holds it; a gap of 1 in the last bin', () => {
    const g = digestForCharts([withGap(0), withGap(0.25), withGap(0.49), withGap(1)], { gapBins: 4 });
    expect(g.gaps.bins.map((b) => b.count)).toStrictEqual([1, 2, 0, 1]);
    expect(g.gaps.outside).toBe(0);
  });

  it('a gap below 0, above 1 or not finite is counted outside; no runner-up counts nowhere', () => {
    const { runnerUp: _r, ...noRunnerUp } = far();
    const recs = [
      withGap(-0.01),
      withGap(1.01),
      withGap(NaN),
      withGap(Infinity),
      noRunnerUp as DecisionRecord,
    ];
    const g = digestForCharts(recs, { gapBins: 4 });
    expect(g.gaps.outside).toBe(4);
    expect(g.gaps.bins.map((b) => b.count)).toStrictEqual([0, 0, 0, 0]);
  });

  it("a bin's near-ties are those of its gaps that were near-ties", () => {
    const g = digestForCharts([tie('a', 'b'), withGap(0.01)], { gapBins: 4 });
    expect(g.gaps.bins[0]).toStrictEqual({ from: 0, to: 0.25, count: 2, nearTies: 1 });
  });
});

describe('chart digest: recorded margins', () => {
  it('most decisions first, the smaller margin first on a tie, at most five', () => {
    const m = (margin: number) => far({ policy: { nearTieMargin: margin } });
    const recs = [m(0.3), m(0.2), m(0.2), m(0.1), m(0.4), m(0.05), m(0.15), m(0.15)];
    expect(digestForCharts(recs).margins).toStrictEqual([
      { margin: 0.15, decisions: 2 },
      { margin: 0.2, decisions: 2 },
      { margin: 0.05, decisions: 1 },
      { margin: 0.1, decisions: 1 },
      { margin: 0.3, decisions: 1 },
    ]);
  });
});

describe('chart digest: tied pairs', () => {
  it('only near-ties are counted, by their top and runner-up', () => {
    const g = digestForCharts([tie('a', 'b'), far()]);
    expect(g.tiedPairs).toStrictEqual({
      skills: ['a', 'b'],
      cells: [
        [0, 1],
        [1, 0],
      ],
      notShown: 0,
      pairsDropped: 0,
    });
  });

  it('a near-tie whose runner-up is its top, or that ranked nothing, has no pair', () => {
    const self: DecisionRecord = { ...tie('a', 'b'), runnerUp: { id: 'a', gap: 0.005 } };
    const bare: DecisionRecord = { ...tie('a', 'b'), ranked: [] };
    const g = digestForCharts([self, bare]);
    expect(g.nearTies).toBe(2);
    expect(g.tiedPairs.skills).toStrictEqual([]);
  });

  it('a near-tie recorded without its runner-up has no pair', () => {
    const { runnerUp: _r, ...d } = tie('a', 'b');
    const g = digestForCharts([d as DecisionRecord]);
    expect(g.nearTies).toBe(1);
    expect(g.tiedPairs.skills).toStrictEqual([]);
  });

  it('a pair whose first skill is not shown is not shown, even when its second is', () => {
    // b: 3, c: 2, a: 1; two skills shown: b and c. The pair {a, b} is not shown.
    const g = digestForCharts([tie('b', 'c'), tie('c', 'b'), tie('a', 'b')], { maxSkills: 2 });
    expect(g.tiedPairs.skills).toStrictEqual(['b', 'c']);
    expect(g.tiedPairs.cells).toStrictEqual([
      [0, 2],
      [2, 0],
    ]);
    expect(g.tiedPairs.notShown).toBe(1);
  });

  it('skills are ordered by how many near-ties they are in, then by name', () => {
    const g = digestForCharts([tie('d', 'c'), tie('b', 'a'), tie('c', 'a')]);
    // a: 2, c: 2, b: 1, d: 1.
    expect(g.tiedPairs.skills).toStrictEqual(['a', 'c', 'b', 'd']);
    expect(g.tiedPairs.cells).toStrictEqual([
      [0, 1, 1, 0],
      [1, 0, 0, 1],
      [1, 0, 0, 0],
      [0, 1, 0, 0],
    ]);
  });

  it('past maxPairs distinct pairs, near-ties of new pairs are dropped and counted; known pairs go on', () => {
    const g = digestForCharts([tie('a', 'b'), tie('c', 'd'), tie('b', 'a'), tie('e', 'f')], { maxPairs: 1 });
    expect(g.tiedPairs.skills).toStrictEqual(['a', 'b']);
    expect(g.tiedPairs.cells).toStrictEqual([
      [0, 2],
      [2, 0],
    ]);
    expect(g.tiedPairs.pairsDropped).toBe(2);
  });

  it('pairs with a skill past maxSkills are not shown, and counted as such', () => {
    const g = digestForCharts([tie('a', 'b'), tie('a', 'b'), tie('a', 'c'), tie('b', 'c'), tie('d', 'e')], {
      maxSkills: 2,
    });
    expect(g.tiedPairs.skills).toStrictEqual(['a', 'b']);
    expect(g.tiedPairs.notShown).toBe(3);
  });
});

describe('chart digest: per scorer', () => {
  it('one row per router/scorer, busiest first, with floorless decisions and near-ties', () => {
    const recs = [
      far({ scorerName: 'kw', policy: { nearTieMargin: 0.15, floor: 0 } }),
      tie('a', 'b', { scorerName: 'emb' }),
      far({ scorerName: 'emb' }),
      far({ override: { router: undefined, scorer: undefined } }),
    ];
    expect(digestForCharts(recs).scorers).toStrictEqual([
      { router: 'desk', scorer: 'emb', decisions: 2, floorless: 2, nearTies: 1 },
      { router: 'desk', scorer: 'kw', decisions: 1, floorless: 0, nearTies: 0 },
      { router: null, scorer: null, decisions: 1, floorless: 1, nearTies: 0 },
    ]);
  });

  it('the same scorer name under two routers is two rows', () => {
    const rows = digestForCharts([far({ router: 'r1' }), far({ router: 'r2' })]).scorers;
    expect(rows.map((r) => [r.router, r.scorer])).toStrictEqual([
      ['r1', 'embedding'],
      ['r2', 'embedding'],
    ]);
  });

  it('past maxScorers rows, new router/scorer pairs are left out; known ones go on', () => {
    const recs = [far({ scorerName: 'one' }), far({ scorerName: 'two' }), far({ scorerName: 'one' })];
    expect(digestForCharts(recs, { maxScorers: 1 }).scorers).toStrictEqual([
      { router: 'desk', scorer: 'one', decisions: 2, floorless: 2, nearTies: 0 },
    ]);
  });
});
