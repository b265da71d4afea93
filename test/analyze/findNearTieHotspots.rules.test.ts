/**
 * findNearTieHotspots.rules.test — the counts of the report, the caps, and the order of the listing, one rule
 * each (the grouping laws are in findNearTieHotspots.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { findNearTieHotspots } from '../../src/analyze/findNearTieHotspots.js';
import { pairwiseGap } from '../../src/policy/routingPolicy.js';
import { decision, s, tid, turn, type DecisionSpec } from './decisionBuilder.js';

/** A cold near-tie of a (on top) and b. */
const tie = (a: string, b: string, extra: Partial<DecisionSpec> = {}) =>
  decision({ scores: [s(a, 1), s(b, 0.95)], ...extra });
/** A decisive decision with a on top and b the runner-up. */
const clear = (a: string, b: string, extra: Partial<DecisionSpec> = {}) =>
  decision({ scores: [s(a, 3), s(b, 0)], ...extra });

describe('the report counts', () => {
  it('decisions counts every decision record (turns are not decisions); groups counts pairs that met', () => {
    const r = findNearTieHotspots([
      tie('a', 'b'),
      clear('c', 'd'),
      turn({ traceId: tid('t') }),
      tie('a', 'b'),
    ]);
    expect([r.decisions, r.nearTies, r.groups]).toStrictEqual([3, 2, 2]);
    expect(r.hotspots.map((h) => h.pair)).toStrictEqual([['a', 'b']]);
  });

  it('a near-tie whose record names no runner-up is unpaired; a decisive one without a runner-up is not', () => {
    const unpaired = tie('a', 'b', { override: { runnerUp: undefined, aliveCount: 2 } });
    const lone = decision({ scores: [s('a', 1)] });
    const r = findNearTieHotspots([unpaired, lone, tie('a', 'b')]);
    expect([r.decisions, r.nearTies, r.unpairedNearTies, r.groups]).toStrictEqual([3, 2, 1, 1]);
  });

  it('one listed hot spot holds exactly its group: the grouped dimensions, counts, rates, gap, verdicts', () => {
    const r = findNearTieHotspots([
      tie('a', 'b', { router: 'desk', scorerName: 'emb', conversationId: 'c1', traceId: tid('x') }),
      clear('b', 'a', { router: 'desk', scorerName: 'emb' }),
    ]);
    const gap = pairwiseGap(1, 0.95);
    expect(r.hotspots).toStrictEqual([
      {
        router: 'desk',
        scorer: 'emb',
        pair: ['a', 'b'],
        meetings: 2,
        nearTies: 1,
        share: 1,
        tieRate: 0.5,
        medianGap: gap,
        verdicts: { move: 0, stay: 0, menu: 1, unmatched: 0 },
        conversations: 1,
        conversationsCapped: false,
        exampleTraceIds: [tid('x')],
        syntheticTraceIds: [],
      },
    ]);
    expect(r.by).toStrictEqual(['router', 'scorer']);
  });

  it('a grouped dimension the span did not carry is null; dimensions are listed service, router, scorer', () => {
    const r = findNearTieHotspots([tie('a', 'b')], { by: ['scorer', 'service'] });
    expect(r.by).toStrictEqual(['service', 'scorer']);
    expect(r.hotspots[0]).toMatchObject({ service: null, scorer: 'embedding' });
    expect('router' in r.hotspots[0]!).toBe(false);
  });

  it('an option given as undefined keeps its default', () => {
    const recs = Array.from({ length: 12 }, (_, i) => tie(`a${i}`, `b${i}`));
    expect(findNearTieHotspots(recs, { top: undefined }).hotspots).toHaveLength(10);
  });
});

describe('the caps', () => {
  it('past maxGroups a new pair is not kept: its near-ties are counted as dropped, its other meetings not at all', () => {
    const r = findNearTieHotspots([tie('a', 'b'), tie('c', 'd'), clear('e', 'f'), tie('a', 'b')], {
      maxGroups: 1,
    });
    expect([r.groups, r.nearTies, r.droppedNearTies]).toStrictEqual([1, 3, 1]);
    expect(r.hotspots.map((h) => [h.pair, h.nearTies])).toStrictEqual([[['a', 'b'], 2]]);
  });

  it('top 0 (or less) lists nothing; minCount leaves out groups with fewer near-ties', () => {
    const recs = [tie('a', 'b'), tie('a', 'b'), tie('c', 'd')];
    expect(findNearTieHotspots(recs, { top: 0 }).hotspots).toStrictEqual([]);
    expect(findNearTieHotspots(recs, { top: -1 }).hotspots).toStrictEqual([]);
    expect(findNearTieHotspots(recs, { minCount: 2 }).hotspots.map((h) => h.pair)).toStrictEqual([
      ['a', 'b'],
    ]);
    expect(findNearTieHotspots([clear('a', 'b')], { minCount: 0 }).hotspots).toStrictEqual([]);
  });

  it('the same trace is one example, however many of its decisions tie', () => {
    const r = findNearTieHotspots([tie('a', 'b', { traceId: tid(1) }), tie('a', 'b', { traceId: tid(1) })]);
    expect(r.hotspots[0]!.exampleTraceIds).toStrictEqual([tid(1)]);
  });
});

describe('the order of the listing', () => {
  it('most near-ties first; then the higher tie rate; then more meetings; then by name', () => {
    const r = findNearTieHotspots([
      // c–d: 1 tie in 1 meeting (rate 1); a–b: 1 tie in 2 meetings; e–f: 1 tie in 3; g–h: 2 ties.
      tie('a', 'b'),
      clear('a', 'b'),
      tie('c', 'd'),
      tie('e', 'f'),
      clear('e', 'f'),
      clear('e', 'f'),
      tie('g', 'h'),
      tie('g', 'h'),
      tie('y', 'z'),
      tie('w', 'x'),
    ]);
    expect(r.hotspots.map((h) => h.pair.join(''))).toStrictEqual(['gh', 'cd', 'wx', 'yz', 'ab', 'ef']);
  });

  it('equal counts and rates: more meetings first', () => {
    const r = findNearTieHotspots([
      tie('a', 'b'),
      clear('a', 'b'),
      tie('c', 'd'),
      tie('c', 'd'),
      clear('c', 'd'),
      clear('c', 'd'),
      tie('e', 'f'),
      tie('e', 'f'),
    ]);
    // c–d: 2 ties / 4 meetings; e–f: 2 / 2; a–b: 1 / 2.
    expect(r.hotspots.map((h) => h.pair.join(''))).toStrictEqual(['ef', 'cd', 'ab']);
  });

  it('equal in everything counted: by service, router, scorer, then the pair', () => {
    const r = findNearTieHotspots(
      [
        tie('a', 'b', { service: 's2' }),
        tie('a', 'b', { service: 's1', router: 'r2' }),
        tie('a', 'b', { service: 's1', router: 'r1', scorerName: 'z' }),
        tie('a', 'b', { service: 's1', router: 'r1', scorerName: 'y' }),
        tie('a', 'c', { service: 's1', router: 'r1', scorerName: 'y' }),
      ],
      { by: ['service', 'router', 'scorer'] },
    );
    expect(r.hotspots.map((h) => [h.service, h.router, h.scorer, h.pair.join('')])).toStrictEqual([
      ['s1', 'r1', 'y', 'ab'],
      ['s1', 'r1', 'y', 'ac'],
      ['s1', 'r1', 'z', 'ab'],
      ['s1', 'r2', 'embedding', 'ab'],
      ['s2', 'desk', 'embedding', 'ab'],
    ]);
  });
});
