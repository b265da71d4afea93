import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { summarizeDecisions } from '../../src/analyze/summarizeDecisions.js';
import { detectAnomalies, findDuplicateIds } from '../../src/analyze/detectAnomalies.js';
import { decision, misroute, s, tid, turn } from './decisionBuilder.js';

const move = (router = 'desk', scorerName = 'embedding') =>
  decision({ scores: [s('a', 2), s('b', 0)], router, scorerName });
const coldTie = (router = 'desk', scorerName = 'embedding') =>
  decision({ scores: [s('a', 1), s('b', 0.95)], router, scorerName });
const tieStay = () => decision({ scores: [s('a', 1), s('b', 0.95)], incumbent: 'b' });
const unmatched = () => decision({ scores: [s('a', 0.1), s('b', 0.05)], scorer: { floor: 0.5 } });

describe('summarizeDecisions', () => {
  it('counts the verdict mix', () => {
    const r = summarizeDecisions([move(), coldTie(), tieStay(), unmatched()]);
    expect(r.decisions).toBe(4);
    expect(r.verdicts).toEqual({ move: 1, stay: 1, menu: 1, unmatched: 1 });
    expect(r.menuRate).toBe(0.25);
    expect(r.unmatchedRate).toBe(0.25);
  });

  it('a near-tie is a non-decisive decision with two alive candidates; its rate is over all decisions', () => {
    const r = summarizeDecisions([move(), coldTie(), tieStay(), unmatched()]);
    expect(r.nearTies).toBe(2);
    expect(r.nearTieRate).toBe(0.5);
  });

  it('unmatched and single-candidate decisions are not near-ties', () => {
    const single = decision({ scores: [s('a', 1)] });
    expect(summarizeDecisions([unmatched(), single]).nearTies).toBe(0);
  });

  it('breaks the rates down per service, router and scorer; an absent name is null', () => {
    const r = summarizeDecisions([
      move('r1', 'kw'),
      coldTie('r1', 'kw'),
      coldTie('r2', 'emb'),
      decision({ scores: [s('a', 1)], service: 'svc' }),
    ]);
    expect(r.byRouter.rows.map((x) => [x.name, x.decisions, x.nearTies])).toEqual([
      ['r1', 2, 1],
      ['desk', 1, 0],
      ['r2', 1, 1],
    ]);
    expect(r.byScorer.rows.find((x) => x.name === 'kw')?.nearTieRate).toBe(0.5);
    expect(r.byService.rows.map((x) => x.name)).toEqual([null, 'svc']);
  });

  it('names past maxNames are pooled, not kept', () => {
    const r = summarizeDecisions([move('r1'), move('r2'), move('r3')], { maxNames: 2 });
    expect(r.byRouter.rows).toHaveLength(2);
    expect(r.byRouter.pooled?.decisions).toBe(1);
  });

  it('counts floorless decisions, turns, misroute marks and errors', () => {
    const floored = decision({ scores: [s('a', 1)], scorer: { floor: 0 } });
    const errored = decision({ scores: [s('a', 1)], override: { error: true } });
    const r = summarizeDecisions([
      floored,
      errored,
      turn({ traceId: tid(1) }),
      misroute({ traceId: tid(1) }),
    ]);
    expect(r.floorlessDecisions).toBe(1);
    expect(r.errors).toBe(1);
    expect(r.turns).toBe(1);
    expect(r.misroutes).toBe(1);
  });

  it('an inconsistent verdict is counted and kept as an example with where it was found', () => {
    const bad = decision({ scores: [s('a', 2), s('b', 1)], override: { verdict: 'stay', to: undefined } });
    const r = summarizeDecisions([bad, move()]);
    expect(r.inconsistent).toBe(1);
    expect(r.anomalyExamples[0]).toMatchObject({ kind: 'inconsistent', at: { traceId: bad.traceId } });
    expect(r.replay).toEqual({ complete: 2, partial: 0, undecidable: 0 });
  });

  it('records with omitted candidates are replayed only as far as they decide, and counted apart', () => {
    const partial = decision({ scores: [s('a', 3), s('b', 1), s('c', 0.5)], maxCandidates: 2 });
    const undecidable = decision({ scores: [s('a', 3), s('b', 1), s('c', 0.5)], maxCandidates: 1 });
    const r = summarizeDecisions([partial, undecidable, move()]);
    expect(r.replay).toEqual({ complete: 1, partial: 1, undecidable: 1 });
    expect(r.inconsistent).toBe(0);
  });

  it('anomaly examples are capped', () => {
    const odd = () => decision({ scores: [s('a', 2)], policy: { nearTieMargin: 0 } });
    const r = summarizeDecisions([odd(), odd(), odd()], { maxExamples: 2 });
    expect(r.anomalies['odd-margin']).toBe(3);
    expect(r.anomalyExamples).toHaveLength(2);
  });

  it('law: rates lie in [0, 1], verdicts sum to decisions, breakdowns sum to the totals', () => {
    const arb = fc.array(
      fc.record({
        a: fc.double({ min: -2, max: 2, noNaN: true }),
        b: fc.double({ min: -2, max: 2, noNaN: true }),
        router: fc.constantFrom('r1', 'r2', 'r3'),
        incumbent: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
        floor: fc.option(fc.constant(0), { nil: undefined }),
      }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(arb, (specs) => {
        const recs = specs.map((p) =>
          decision({
            scores: [s('a', p.a), s('b', p.b)],
            router: p.router,
            ...(p.incumbent === undefined ? {} : { incumbent: p.incumbent }),
            scorer: p.floor === undefined ? {} : { floor: p.floor },
          }),
        );
        const r = summarizeDecisions(recs);
        for (const rate of [r.nearTieRate, r.menuRate, r.unmatchedRate]) {
          expect(rate).toBeGreaterThanOrEqual(0);
          expect(rate).toBeLessThanOrEqual(1);
        }
        const v = r.verdicts;
        expect(v.move + v.stay + v.menu + v.unmatched).toBe(r.decisions);
        const sum = (k: 'decisions' | 'nearTies') => r.byRouter.rows.reduce((t, x) => t + x[k], 0);
        expect(sum('decisions')).toBe(r.decisions);
        expect(sum('nearTies')).toBe(r.nearTies);
        expect(r.inconsistent).toBe(0);
      }),
    );
  });
});

describe('detectAnomalies', () => {
  it('a margin <= 0 or non-finite is odd', () => {
    expect(
      detectAnomalies(decision({ scores: [s('a', 1)], policy: { nearTieMargin: 0 } })).anomalies,
    ).toContainEqual({
      kind: 'odd-margin',
      margin: 0,
    });
    const nan = detectAnomalies(decision({ scores: [s('a', 1)], policy: { nearTieMargin: NaN } }));
    expect(nan.anomalies.map((a) => a.kind)).toContain('odd-margin');
  });

  it('a menu size below 2 or non-finite is odd', () => {
    const r = detectAnomalies(decision({ scores: [s('a', 1)], policy: { menuSize: 1 } }));
    expect(r.anomalies).toContainEqual({ kind: 'odd-menu-size', menuSize: 1 });
  });

  it('duplicate candidate ids are reported once each', () => {
    expect(findDuplicateIds(['a', 'b', 'a', 'a', 'c', 'b'])).toEqual(['a', 'b']);
    const r = detectAnomalies(decision({ scores: [s('a', 1), s('a', 0.5), s('b', 0)] }));
    expect(r.anomalies).toContainEqual({ kind: 'duplicate-candidates', ids: ['a'] });
  });

  it('a consistent record with sane thresholds has no anomaly', () => {
    expect(detectAnomalies(decision({ scores: [s('a', 1), s('b', 0.2)] })).anomalies).toEqual([]);
  });
});
