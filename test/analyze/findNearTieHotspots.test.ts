import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findNearTieHotspots } from '../../src/analyze/findNearTieHotspots.js';
import { decision, s, type DecisionSpec } from './decisionBuilder.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

/** A cold near-tie of a (on top) and b. */
const tie = (a: string, b: string, extra: Partial<DecisionSpec> = {}) =>
  decision({ scores: [s(a, 1), s(b, 0.95)], ...extra });
const clear = (a: string, b: string, extra: Partial<DecisionSpec> = {}) =>
  decision({ scores: [s(a, 3), s(b, 0)], ...extra });

describe('findNearTieHotspots', () => {
  it('the pair is unordered: a over b and b over a are one hot spot', () => {
    const r = findNearTieHotspots([tie('a', 'b'), tie('b', 'a')]);
    expect(r.hotspots).toHaveLength(1);
    expect(r.hotspots[0]).toMatchObject({ pair: ['a', 'b'], nearTies: 2, share: 1 });
  });

  it('law: one group per distinct (pair, service, router, scorer), whatever the names hold', () => {
    // Names made of what a key could be joined with, so that a careless join would merge groups.
    const name = fc.constantFrom('a', 'b', ':a', 'a:', '~', ':~', '~:', '1:a', '2:', '');
    const maybe = fc.option(name, { nil: undefined });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, name, maybe, maybe, maybe), { minLength: 1, maxLength: 12 }),
        (rows) => {
          const recs = rows
            .filter(([a, b]) => a !== b)
            .map(([a, b, service, router, scorer]) =>
              tie(a, b, {
                ...(service === undefined ? {} : { service }),
                ...(router === undefined ? {} : { router }),
                ...(scorer === undefined ? {} : { scorerName: scorer }),
              }),
            );
          const r = findNearTieHotspots(recs, { by: ['service', 'router', 'scorer'], top: 1000 });
          const distinct = new Set(
            recs.map((d) =>
              JSON.stringify([
                [d.ranked[0]!.id, d.runnerUp!.id].sort(),
                d.service ?? null,
                d.router ?? null,
                d.scorer ?? null,
              ]),
            ),
          );
          expect(r.groups).toBe(distinct.size);
          expect(r.hotspots.reduce((sum, h) => sum + h.nearTies, 0)).toBe(recs.length);
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it('names that a plain join of pair and service would run together stay two groups', () => {
    // Joined with ':' both would read "a:b::c".
    const r = findNearTieHotspots([tie('a', 'b', { service: ':c' }), tie('a', 'b:', { service: 'c' })], {
      by: ['service'],
    });
    expect(r.groups).toBe(2);
  });

  it('groups per router and scorer by default', () => {
    const r = findNearTieHotspots([tie('a', 'b', { router: 'r1' }), tie('a', 'b', { router: 'r2' })]);
    expect(r.hotspots.map((h) => h.router)).toEqual(['r1', 'r2']);
    expect(r.hotspots[0]).toHaveProperty('scorer', 'embedding');
    expect(r.hotspots[0]).not.toHaveProperty('service');
  });

  it('--by pair merges routers and scorers; --by service groups by service', () => {
    const recs = [
      tie('a', 'b', { router: 'r1', service: 's1' }),
      tie('a', 'b', { router: 'r2', service: 's1' }),
    ];
    const byPair = findNearTieHotspots(recs, { by: [] });
    expect(byPair.hotspots).toHaveLength(1);
    expect(byPair.hotspots[0]).not.toHaveProperty('router');
    const byService = findNearTieHotspots(recs, { by: ['service'] });
    expect(byService.hotspots[0]).toMatchObject({ service: 's1', nearTies: 2 });
  });

  it('tie rate is how often the pair ties when it meets as the top two', () => {
    const r = findNearTieHotspots([tie('a', 'b'), clear('a', 'b'), clear('b', 'a'), clear('a', 'b')]);
    expect(r.hotspots[0]).toMatchObject({ meetings: 4, nearTies: 1, tieRate: 0.25 });
  });

  it('the median gap is taken over the near-ties', () => {
    const gaps = [0.9, 0.95, 0.99].map((b) => decision({ scores: [s('a', 1), s('b', b)] }));
    const r = findNearTieHotspots(gaps);
    expect(r.hotspots[0]!.medianGap).toBeCloseTo(Math.tanh(0.05 / 2), 12);
  });

  it('the verdict mix separates menus (cold start) from stays (an incumbent held)', () => {
    const stay = decision({ scores: [s('a', 1), s('b', 0.95)], incumbent: 'b' });
    const r = findNearTieHotspots([tie('a', 'b'), stay]);
    expect(r.hotspots[0]!.verdicts).toMatchObject({ menu: 1, stay: 1 });
  });

  it('counts conversations, falling back to the trace when a span has no conversation id', () => {
    const r = findNearTieHotspots([
      tie('a', 'b', { conversationId: 'c1' }),
      tie('a', 'b', { conversationId: 'c1' }),
      tie('a', 'b'),
    ]);
    expect(r.hotspots[0]!.conversations).toBe(2);
  });

  it('keeps at most maxExamples distinct example trace ids', () => {
    const r = findNearTieHotspots([tie('a', 'b'), tie('a', 'b'), tie('a', 'b')], { maxExamples: 2 });
    expect(r.hotspots[0]!.exampleTraceIds).toHaveLength(2);
  });

  it('lists the busiest groups first, at most top, with at least minCount near-ties', () => {
    const recs = [tie('a', 'b'), tie('a', 'b'), tie('c', 'd'), tie('e', 'f'), tie('e', 'f'), tie('e', 'f')];
    expect(findNearTieHotspots(recs, { top: 2 }).hotspots.map((h) => h.pair[0])).toEqual(['e', 'a']);
    expect(findNearTieHotspots(recs, { minCount: 2 }).hotspots).toHaveLength(2);
  });

  it('a conversation set past its cap makes the count a lower bound', () => {
    const recs = ['c1', 'c2', 'c3'].map((c) => tie('a', 'b', { conversationId: c }));
    expect(findNearTieHotspots(recs, { maxConversations: 2 }).hotspots[0]).toMatchObject({
      conversations: 2,
      conversationsCapped: true,
    });
  });

  it('conversation ids held over all groups are capped too', () => {
    const recs = [tie('a', 'b', { conversationId: 'c1' }), tie('c', 'd', { conversationId: 'c2' })];
    const r = findNearTieHotspots(recs, { maxConversationsTotal: 1 });
    expect(r.hotspots.map((h) => [h.conversations, h.conversationsCapped])).toEqual([
      [1, false],
      [0, true],
    ]);
  });

  it('law: near-ties of all groups, unpaired and dropped add up to all near-ties; shares sum to at most 1', () => {
    const arb = fc.array(
      fc.record({
        top: fc.constantFrom('a', 'b', 'c', 'd'),
        second: fc.constantFrom('a', 'b', 'c', 'd'),
        delta: fc.double({ min: 0, max: 1, noNaN: true }),
        router: fc.constantFrom('r1', 'r2'),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 20 }), (specs, maxGroups) => {
        const recs = specs
          .filter((p) => p.top !== p.second)
          .map((p) => decision({ scores: [s(p.top, 1), s(p.second, 1 - p.delta)], router: p.router }));
        const r = findNearTieHotspots(recs, { top: Infinity, minCount: 0, maxGroups });
        const listed = r.hotspots.reduce((t, h) => t + h.nearTies, 0);
        expect(listed + r.unpairedNearTies + r.droppedNearTies).toBe(r.nearTies);
        const shares = r.hotspots.reduce((t, h) => t + h.share, 0);
        expect(shares).toBeLessThanOrEqual(1 + 1e-9);
        for (const h of r.hotspots) {
          expect(h.tieRate).toBeGreaterThanOrEqual(0);
          expect(h.tieRate).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});
