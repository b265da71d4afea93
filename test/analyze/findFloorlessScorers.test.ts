import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findFloorlessScorers, suggestFloor } from '../../src/analyze/findFloorlessScorers.js';
import { replayDecision } from '../../src/analyze/replayDecision.js';
import {
  sampleKey,
  createReservoir,
  describeDistribution,
  nearestRank,
} from '../../src/analyze/createReservoir.js';
import { decision, s } from './decisionBuilder.js';

const floorless = (top: number, extra: { router?: string; scorerName?: string } = {}) =>
  decision({ scores: [s('a', top), s('b', top - 1)], ...extra });

describe('findFloorlessScorers', () => {
  it('only decisions judged with no floor count; a policy or scorer floor is a floor', () => {
    const r = findFloorlessScorers([
      floorless(0.5),
      decision({ scores: [s('a', 1)], scorer: { floor: 0 } }),
      decision({ scores: [s('a', 1)], policy: { floor: 0.2 } }),
    ]);
    expect(r).toMatchObject({ decisions: 3, floorlessDecisions: 1 });
    expect(r.floorless).toHaveLength(1);
  });

  it('groups per router and scorer, most decisions first', () => {
    const r = findFloorlessScorers([
      floorless(1, { scorerName: 'emb' }),
      floorless(1, { scorerName: 'ngram' }),
      floorless(1, { scorerName: 'ngram' }),
    ]);
    expect(r.floorless.map((f) => [f.scorer, f.router, f.decisions])).toEqual([
      ['ngram', 'desk', 2],
      ['emb', 'desk', 1],
    ]);
  });

  it('describes the distribution of top scores by nearest rank', () => {
    const r = findFloorlessScorers([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((t) => floorless(t / 10)));
    expect(r.floorless[0]!.topScores).toMatchObject({
      count: 10,
      min: 0.1,
      p10: 0.1,
      p25: 0.3,
      median: 0.5,
      p75: 0.8,
      p90: 0.9,
      max: 1,
      exact: true,
    });
  });

  it('the suggested floor makes the weakest K% unmatched, and replay agrees', () => {
    const recs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((t) => floorless(t / 10));
    const r = findFloorlessScorers(recs, { weakestPercent: 20 });
    const sf = r.floorless[0]!.suggestedFloor!;
    expect(sf).toMatchObject({ percent: 20, floor: 0.2, wouldBeUnmatched: 2, share: 0.2, exact: true });
    const replayedUnmatched = recs.filter((d) => {
      const o = replayDecision(d, { floor: sf.floor });
      return o.kind === 'replayed' && o.verdict === 'unmatched';
    });
    expect(replayedUnmatched).toHaveLength(2);
  });

  it('decisions with only non-finite scores are counted apart (already unmatched)', () => {
    const r = findFloorlessScorers([decision({ scores: [s('a', NaN)] }), floorless(0.5)]);
    expect(r.floorless[0]).toMatchObject({ decisions: 2, nonFiniteTop: 1, topScores: { count: 1 } });
  });

  it('K = 0 suggests no floor; K outside 0..100 is refused', () => {
    expect(
      findFloorlessScorers([floorless(1)], { weakestPercent: 0 }).floorless[0]!.suggestedFloor,
    ).toBeNull();
    expect(() => findFloorlessScorers([], { weakestPercent: 101 })).toThrow(RangeError);
    expect(() => findFloorlessScorers([], { weakestPercent: NaN })).toThrow(RangeError);
  });

  it('law: under the suggested floor at least K% (and every decision at or below it) would be unmatched', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 100 }),
        (tops, k) => {
          const sorted = tops.slice().sort((a, b) => a - b);
          const sf = suggestFloor(sorted, k, sorted.length, true)!;
          const caught = sorted.filter((t) => t <= sf.floor).length;
          expect(caught).toBe(sf.wouldBeUnmatched);
          expect(caught / sorted.length).toBeGreaterThanOrEqual(k / 100 - 1e-12);
          // The floor is the smallest observed value that catches K%: one rank lower would not.
          const below = sorted.filter((t) => t < sf.floor).length;
          expect(below / sorted.length).toBeLessThan(k / 100);
        },
      ),
    );
  });
});

describe('createReservoir', () => {
  it('is exact while small and keeps a bounded sample beyond, with exact count, min and max', () => {
    const r = createReservoir(8);
    for (let i = 0; i < 1000; i++) r.add(i, sampleKey(`t${i}`, 's'));
    expect(r.count).toBe(1000);
    expect(r.exact).toBe(false);
    expect(r.sorted()).toHaveLength(8);
    expect([r.min, r.max]).toEqual([0, 999]);
    expect(describeDistribution(r)).toMatchObject({ count: 1000, min: 0, max: 999, exact: false });
  });

  it('nearest rank returns an observed value', () => {
    expect(nearestRank([1, 2, 3, 4], 0.5)).toBe(2);
    expect(nearestRank([1, 2, 3, 4], 0)).toBe(1);
    expect(nearestRank([1, 2, 3, 4], 1)).toBe(4);
    expect(nearestRank([], 0.5)).toBeUndefined();
  });
});
