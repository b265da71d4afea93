// findFloorlessScorers.rules — one rule per test: the defaults and K's range, the group rows and their order,
// the cap on groups and examples, the top score of a decision, and the suggested floor from a sample.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FLOORLESS_CONFIG,
  createFloorlessAnalysis,
  findFloorlessScorers,
  MIN_FLOOR_SAMPLE,
  suggestFloor,
  topScore,
} from '../../src/analyze/findFloorlessScorers.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { decision, s, tid, turn, type DecisionSpec } from './decisionBuilder.js';

const floorless = (top: number, extra: Partial<DecisionSpec> = {}): DecisionRecord =>
  decision({ scores: [s('a', top), s('b', top - 1)], ...extra });

describe('floorless: config and report', () => {
  it('the defaults: the weakest 10%, 4096 kept, 3 examples, 1000 groups', () => {
    expect(DEFAULT_FLOORLESS_CONFIG).toStrictEqual({
      weakestPercent: 10,
      sample: 4096,
      maxExamples: 3,
      maxGroups: 1000,
    });
    expect(Object.isFrozen(DEFAULT_FLOORLESS_CONFIG)).toBe(true);
  });

  it('K may be 0 or 100; just outside is refused with the value named', () => {
    expect(findFloorlessScorers([], { weakestPercent: 0 }).weakestPercent).toBe(0);
    expect(findFloorlessScorers([], { weakestPercent: 100 }).weakestPercent).toBe(100);
    expect(() => createFloorlessAnalysis({ weakestPercent: -0.5 })).toThrow(
      'weakest percent must be within 0..100, got -0.5',
    );
    expect(() => createFloorlessAnalysis({ weakestPercent: 100.5 })).toThrow(RangeError);
  });

  it('a group row: names, decisions, verdicts, near-ties and their rate, tops, floor, examples', () => {
    const recs = [floorless(0.5), decision({ scores: [s('a', 0.3), s('b', 0.29)] })];
    const r = findFloorlessScorers(recs, { weakestPercent: 50 });
    expect(r.kind).toBe('floorless');
    expect(r.floorless).toStrictEqual([
      {
        router: 'desk',
        scorer: 'embedding',
        decisions: 2,
        verdicts: { move: 1, stay: 0, menu: 1, unmatched: 0 },
        nearTies: 1,
        nearTieRate: 0.5,
        topScores: {
          count: 2,
          min: 0.3,
          p10: 0.3,
          p25: 0.3,
          median: 0.3,
          p75: 0.5,
          p90: 0.5,
          max: 0.5,
          exact: true,
        },
        nonFiniteTop: 0,
        suggestedFloor: {
          percent: 50,
          floor: 0.3,
          wouldBeUnmatched: 1,
          share: 0.5,
          exact: true,
          sample: 2,
          tiny: true,
        },
        exampleTraceIds: [recs[0]!.traceId, recs[1]!.traceId],
        syntheticTraceIds: [],
      },
    ]);
    expect(r.droppedDecisions).toBe(0);
  });

  it('a group with no finite top has no distribution and no floor', () => {
    const r = findFloorlessScorers([decision({ scores: [s('a', NaN), s('b', -Infinity)] })]);
    expect(r.floorless[0]).toMatchObject({ topScores: null, suggestedFloor: null, nonFiniteTop: 1 });
  });

  it('records that are not decisions count nowhere', () => {
    expect(findFloorlessScorers([turn({ traceId: tid('t') })])).toMatchObject({
      decisions: 0,
      floorlessDecisions: 0,
    });
  });

  it('groups with as many decisions are ordered by router, then scorer, a missing name last', () => {
    const recs = [
      floorless(1, { router: 'b', scorerName: 'x' }),
      floorless(1, { router: 'a', scorerName: 'y' }),
      floorless(1, { override: { router: undefined, scorer: 'x' } }),
      floorless(1, { router: 'a', override: { scorer: undefined } }),
      floorless(1, { router: 'a', scorerName: 'x' }),
    ];
    expect(findFloorlessScorers(recs).floorless.map((f) => [f.router, f.scorer])).toStrictEqual([
      ['a', 'x'],
      ['a', 'y'],
      ['a', null],
      ['b', 'x'],
      [null, 'x'],
    ]);
  });

  it('past maxGroups groups, decisions of new groups are dropped and counted; known groups go on', () => {
    const recs = [
      floorless(1, { scorerName: 'one' }),
      floorless(1, { scorerName: 'two' }),
      floorless(1, { scorerName: 'one' }),
    ];
    const r = findFloorlessScorers(recs, { maxGroups: 1 });
    expect(r.floorless.map((f) => [f.scorer, f.decisions])).toStrictEqual([['one', 2]]);
    expect(r.droppedDecisions).toBe(1);
    expect(r.floorlessDecisions).toBe(3);
  });

  it('examples are distinct trace ids, the first maxExamples seen', () => {
    const t1 = tid('e1');
    const recs = [
      floorless(1, { traceId: t1 }),
      floorless(1, { traceId: t1 }),
      floorless(1, { traceId: tid('e2') }),
      floorless(1, { traceId: tid('e3') }),
    ];
    expect(findFloorlessScorers(recs, { maxExamples: 2 }).floorless[0]!.exampleTraceIds).toStrictEqual([
      t1,
      tid('e2'),
    ]);
  });

  it('with a small sample the floor is estimated and says so', () => {
    const recs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((t) => floorless(t / 10));
    const f = findFloorlessScorers(recs, { sample: 4, weakestPercent: 50 }).floorless[0]!;
    expect(f.topScores).toMatchObject({ count: 10, min: 0.1, max: 1, exact: false });
    expect(f.suggestedFloor).toMatchObject({ percent: 50, exact: false });
    // Scaled to the ten decisions seen: half of a sample of four is five.
    expect(f.suggestedFloor!.wouldBeUnmatched).toBe(Math.round(f.suggestedFloor!.share * 10));
  });
});

describe('topScore', () => {
  it('the best finite score, wherever it is ranked', () => {
    const d = decision({ scores: [s('a', 0.2), s('b', 0.7)] });
    expect(topScore({ ...d, ranked: [{ ...d.ranked[1]!, score: NaN }, ...d.ranked] })).toBe(0.7);
    expect(topScore({ ...d, ranked: [...d.ranked].reverse() })).toBe(0.7);
  });

  it('nothing finite, or nothing ranked, has no top score', () => {
    const d = decision({ scores: [s('a', 0.2)] });
    expect(topScore({ ...d, ranked: [] })).toBeUndefined();
    expect(topScore({ ...d, ranked: [{ ...d.ranked[0]!, score: Infinity }] })).toBeUndefined();
  });

  it('a negative top score is a top score', () => {
    expect(topScore(decision({ scores: [s('a', -3), s('b', -5)] }))).toBe(-3);
  });
});

describe('suggestFloor', () => {
  it('nothing kept, or K = 0, suggests nothing', () => {
    expect(suggestFloor([], 10, 0, true)).toBeNull();
    expect(suggestFloor([1, 2], 0, 2, true)).toBeNull();
  });

  it('ties at the floor are all caught, and the share says so', () => {
    expect(suggestFloor([1, 2, 2, 2, 3], 30, 5, true)).toStrictEqual({
      percent: 30,
      floor: 2,
      wouldBeUnmatched: 4,
      share: 0.8,
      exact: true,
      sample: 5,
      tiny: true,
    });
  });

  it('K = 100 takes the strongest top', () => {
    expect(suggestFloor([1, 2, 3], 100, 3, true)).toMatchObject({ floor: 3, wouldBeUnmatched: 3, share: 1 });
  });

  it('from a sample, the count is the share of the population, rounded', () => {
    expect(suggestFloor([1, 2, 3, 4], 50, 1001, false)).toStrictEqual({
      percent: 50,
      floor: 2,
      wouldBeUnmatched: 501,
      share: 0.5,
      exact: false,
      sample: 4,
      tiny: false,
    });
  });

  it(`a floor read from fewer than ${MIN_FLOOR_SAMPLE} decisions is marked tiny, from ${MIN_FLOOR_SAMPLE} on it is not`, () => {
    const tops = (n: number): number[] => Array.from({ length: n }, (_, i) => i / n);
    expect(suggestFloor(tops(MIN_FLOOR_SAMPLE - 1), 10, MIN_FLOOR_SAMPLE - 1, true)?.tiny).toBe(true);
    expect(suggestFloor(tops(MIN_FLOOR_SAMPLE), 10, MIN_FLOOR_SAMPLE, true)?.tiny).toBe(false);
    // A sample of a large population is not tiny: the population is what the floor is for.
    expect(suggestFloor(tops(10), 10, 5000, false)?.tiny).toBe(false);
  });
});
