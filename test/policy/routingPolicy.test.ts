/**
 * routingPolicy.test — one `it` per rule of the tier-2 policy, named after the rule.
 *
 * The rules come from the published contract (the authority) and the facts in ROUTING.md. Scores are chosen so
 * the pairwise gap is obvious: 0.9 vs 0.8 is a near-tie (tanh(0.05) ≈ 0.05 < 0.15), 0.9 vs 0.2 is decisive
 * (tanh(0.35) ≈ 0.34). Laws over random inputs live in routingPolicy.properties.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROUTING_POLICY,
  MENU_SIZE,
  NEAR_TIE_MARGIN,
  POLICY_SEMANTICS,
  createDecideTier2,
  decideTier2,
  isAlive,
  policySemanticsOf,
  effectiveFloor,
  isNearTie,
  menuOutstanding,
  pairwiseGap,
  resolveRoutingPolicy,
  sanitizeScore,
  softmaxRelevance,
} from '../../src/policy/routingPolicy.js';
import type {
  DecideTier2,
  IntentScore,
  RoutingPolicy,
  Tier2Verdict,
  TurnRoute,
} from '../../src/policy/types.js';

const s = (id: string, score: number): IntentScore => ({ id, score });
const P = DEFAULT_ROUTING_POLICY;
const policy = (over: Partial<RoutingPolicy>): RoutingPolicy => resolveRoutingPolicy(over);
const ids = (v: Tier2Verdict): string[] => v.ranked.map((r) => r.id);
const offeredOf = (v: Tier2Verdict): readonly string[] | undefined =>
  v.kind === 'menu' ? v.offered : undefined;

describe('defaults', () => {
  it('NEAR_TIE_MARGIN is 0.15 and MENU_SIZE is 3', () => {
    expect(NEAR_TIE_MARGIN).toBe(0.15);
    expect(MENU_SIZE).toBe(3);
  });

  it('DEFAULT_ROUTING_POLICY holds the constants and no floor', () => {
    expect(DEFAULT_ROUTING_POLICY).toEqual({ nearTieMargin: 0.15, menuSize: 3 });
    expect('floor' in DEFAULT_ROUTING_POLICY).toBe(false);
  });

  it('DEFAULT_ROUTING_POLICY is frozen: no caller can change the defaults for everyone', () => {
    expect(Object.isFrozen(DEFAULT_ROUTING_POLICY)).toBe(true);
  });
});

describe('resolveRoutingPolicy', () => {
  it('no override → the defaults', () => {
    expect(resolveRoutingPolicy()).toEqual({ nearTieMargin: 0.15, menuSize: 3 });
    expect(resolveRoutingPolicy({})).toEqual({ nearTieMargin: 0.15, menuSize: 3 });
  });

  it('a partial override keeps the other defaults', () => {
    expect(resolveRoutingPolicy({ nearTieMargin: 0.3 })).toEqual({ nearTieMargin: 0.3, menuSize: 3 });
    expect(resolveRoutingPolicy({ menuSize: 5 })).toEqual({ nearTieMargin: 0.15, menuSize: 5 });
  });

  it('keeps floor only when it is defined', () => {
    expect('floor' in resolveRoutingPolicy({ floor: undefined })).toBe(false);
    expect(resolveRoutingPolicy({ floor: 0.2 }).floor).toBe(0.2);
  });

  it('keeps a floor of 0 (defined, though falsy)', () => {
    const r = resolveRoutingPolicy({ floor: 0 });
    expect('floor' in r).toBe(true);
    expect(r.floor).toBe(0);
  });

  it('an explicit undefined margin or menu size falls back to the default', () => {
    expect(resolveRoutingPolicy({ nearTieMargin: undefined, menuSize: undefined })).toEqual(P);
  });

  it('does not validate: NaN, negative and infinite values pass through as given', () => {
    const r = resolveRoutingPolicy({ nearTieMargin: NaN, menuSize: -1, floor: Infinity });
    expect(r.nearTieMargin).toBeNaN();
    expect(r.menuSize).toBe(-1);
    expect(r.floor).toBe(Infinity);
  });

  it('returns a new object, never the defaults themselves', () => {
    expect(resolveRoutingPolicy()).not.toBe(DEFAULT_ROUTING_POLICY);
  });
});

describe('the small pieces', () => {
  it('sanitizeScore: finite stays, NaN/±Infinity become -Infinity', () => {
    expect(sanitizeScore(0.5)).toBe(0.5);
    expect(sanitizeScore(-3)).toBe(-3);
    expect(sanitizeScore(NaN)).toBe(-Infinity);
    expect(sanitizeScore(Infinity)).toBe(-Infinity);
    expect(sanitizeScore(-Infinity)).toBe(-Infinity);
  });

  it('pairwiseGap is the top-2 softmax difference tanh((a − b) / 2)', () => {
    const a = 0.9;
    const b = 0.4;
    const shareA = Math.exp(a) / (Math.exp(a) + Math.exp(b));
    expect(pairwiseGap(a, b)).toBeCloseTo(shareA - (1 - shareA), 12);
    expect(pairwiseGap(a, b)).toBe(Math.tanh(0.25));
    expect(pairwiseGap(1, 1)).toBe(0);
  });

  it('pairwiseGap is count-independent: shifting both scores leaves it unchanged', () => {
    expect(pairwiseGap(10.5, 10)).toBeCloseTo(pairwiseGap(0.5, 0), 12);
  });

  it('softmaxRelevance gives one share per candidate, no more', () => {
    expect(softmaxRelevance([1, 2, 3])).toHaveLength(3);
    expect(softmaxRelevance([-Infinity, -Infinity])).toStrictEqual([0.5, 0.5]);
  });

  it('softmaxRelevance of nothing is nothing', () => {
    expect(softmaxRelevance([])).toEqual([]);
  });

  it('effectiveFloor: policy.floor ?? scorer.floor', () => {
    expect(effectiveFloor(policy({ floor: 0.3 }), { floor: 0.1 })).toBe(0.3);
    expect(effectiveFloor(P, { floor: 0.1 })).toBe(0.1);
    expect(effectiveFloor(P, {})).toBeUndefined();
    expect(effectiveFloor(P)).toBeUndefined();
    expect(effectiveFloor(policy({ floor: 0 }), { floor: 0.5 })).toBe(0);
  });

  it('isNearTie: not decisive with a runner-up', () => {
    expect(isNearTie(decideTier2([s('a', 0.9), s('b', 0.8)], undefined, P))).toBe(true);
    expect(isNearTie(decideTier2([s('a', 0.9), s('b', 0.2)], undefined, P))).toBe(false);
    expect(isNearTie(decideTier2([s('a', 0.9)], undefined, P))).toBe(false);
    expect(isNearTie(decideTier2([s('a', 0)], undefined, P, { floor: 0 }))).toBe(false);
  });
});

describe('sanitization: non-finite scores never win, and stay raw on the record', () => {
  it('NaN, +Infinity and -Infinity rank below every finite score', () => {
    const v = decideTier2(
      [s('nan', NaN), s('inf', Infinity), s('low', -100), s('ninf', -Infinity)],
      undefined,
      P,
    );
    expect(ids(v)).toEqual(['low', 'nan', 'inf', 'ninf']);
  });

  it('the raw non-finite value is kept in ranked[].score', () => {
    const v = decideTier2([s('nan', NaN), s('inf', Infinity), s('ninf', -Infinity), s('a', 1)], undefined, P);
    expect(v.ranked.map((r) => r.score)).toEqual([1, NaN, Infinity, -Infinity]);
  });

  it('lone NaN is unmatched even with no floor', () => {
    const v = decideTier2([s('a', NaN)], undefined, P);
    expect(v.kind).toBe('unmatched');
    expect(v.decisive).toBe(false);
    expect(v.runnerUp).toBeUndefined();
  });

  it('lone +Infinity is unmatched even with no floor', () => {
    expect(decideTier2([s('a', Infinity)], undefined, P).kind).toBe('unmatched');
  });

  it('lone -Infinity is unmatched even with no floor', () => {
    expect(decideTier2([s('a', -Infinity)], undefined, P).kind).toBe('unmatched');
  });

  it('every score non-finite → unmatched, every candidate still ranked', () => {
    const v = decideTier2([s('a', NaN), s('b', Infinity), s('c', -Infinity)], 'a', P);
    expect(v.kind).toBe('unmatched');
    expect(ids(v)).toEqual(['a', 'b', 'c']);
  });

  it('+Infinity beside a finite score: the finite one is the only one alive → decisive move, no runnerUp', () => {
    const v = decideTier2([s('inf', Infinity), s('a', 0.1)], undefined, P);
    expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true });
    expect(v.runnerUp).toBeUndefined();
  });

  it('a non-finite candidate is never the runner-up', () => {
    const v = decideTier2([s('a', 0.9), s('nan', NaN), s('b', 0.85)], undefined, P);
    expect(v.runnerUp?.id).toBe('b');
  });
});

describe('relevance: full softmax over the sanitized scores of ALL candidates', () => {
  it('relevance is the softmax of the scores', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.1), s('c', -0.5)], undefined, P);
    const e = [Math.exp(0.9), Math.exp(0.1), Math.exp(-0.5)];
    const sum = e[0]! + e[1]! + e[2]!;
    expect(v.ranked.map((r) => r.relevance)).toEqual(e.map((x) => expect.closeTo(x / sum, 12)));
  });

  it('dead (non-finite) candidates get relevance 0', () => {
    const v = decideTier2([s('nan', NaN), s('a', 0.5), s('inf', Infinity)], undefined, P);
    expect(v.ranked).toEqual([
      { id: 'a', score: 0.5, relevance: 1 },
      { id: 'nan', score: NaN, relevance: 0 },
      { id: 'inf', score: Infinity, relevance: 0 },
    ]);
  });

  it('relevance falls back to uniform when every score is non-finite', () => {
    const v = decideTier2([s('a', NaN), s('b', Infinity), s('c', -Infinity), s('d', NaN)], undefined, P);
    expect(v.ranked.map((r) => r.relevance)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('relevance is max-subtracted: huge scores neither overflow nor turn NaN', () => {
    const v = decideTier2([s('a', 1000), s('b', 999), s('c', 1e308)], undefined, P);
    const rel = v.ranked.map((r) => r.relevance);
    for (const r of rel) expect(Number.isFinite(r)).toBe(true);
    expect(rel[0]).toBe(1);
    expect(rel[1]).toBe(0);
    const w = decideTier2([s('a', 1000), s('b', 999)], undefined, P);
    expect(w.ranked[0]!.relevance).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
  });

  it('relevance counts candidates at or below the floor too (it is the record, not the judgment)', () => {
    const v = decideTier2([s('a', 0.5), s('b', 0.1)], undefined, P, { floor: 0.1 });
    expect(v.ranked[1]!.relevance).toBeGreaterThan(0);
    expect(v.ranked[0]!.relevance + v.ranked[1]!.relevance).toBeCloseTo(1, 12);
  });

  it('relevance is count-sensitive while the gap is not: ten clustered candidates read near-uniform', () => {
    const many = Array.from({ length: 10 }, (_, i) => s(`c${i}`, 0.5 - i * 0.001));
    const v = decideTier2(many, undefined, P);
    expect(v.ranked[0]!.relevance).toBeLessThan(0.11);
    expect(v.runnerUp!.gap).toBeCloseTo(Math.tanh(0.0005), 12);
  });
});

describe('ranking', () => {
  it('ranked lists every candidate, best first', () => {
    const v = decideTier2([s('c', 0.1), s('a', 0.9), s('b', 0.5)], undefined, P);
    expect(ids(v)).toEqual(['a', 'b', 'c']);
  });

  it('equal scores keep input order', () => {
    const v = decideTier2([s('z', 0.5), s('y', 0.5), s('x', 0.5), s('w', 0.7)], undefined, P);
    expect(ids(v)).toEqual(['w', 'z', 'y', 'x']);
  });

  it('equal scores: the earlier one wins', () => {
    const v = decideTier2([s('b', 0.5), s('a', 0.5)], undefined, P, { categorical: true });
    expect(v).toMatchObject({ kind: 'move', to: 'b' });
    expect(v.runnerUp).toEqual({ id: 'a', gap: 0 });
  });

  it('equal scores keep input order in long lists too (past the insertion-sort bound)', () => {
    const many = Array.from({ length: 200 }, (_, i) => s(`c${i}`, i % 2 === 0 ? 0.5 : 0.7));
    const expected = [...many.filter((_, i) => i % 2 === 1), ...many.filter((_, i) => i % 2 === 0)];
    expect(ids(decideTier2(many, undefined, P))).toStrictEqual(expected.map((c) => c.id));
  });

  it('non-finite scores keep input order among themselves (they all sanitize to -Infinity)', () => {
    const v = decideTier2([s('n1', NaN), s('i', Infinity), s('m', -Infinity), s('n2', NaN)], undefined, P);
    expect(ids(v)).toEqual(['n1', 'i', 'm', 'n2']);
  });

  it('0 and -0 are equal scores: input order holds', () => {
    const v = decideTier2([s('neg', -0), s('pos', 0)], undefined, P);
    expect(ids(v)).toEqual(['neg', 'pos']);
  });

  it('duplicate ids are not guarded: both are ranked', () => {
    const v = decideTier2([s('a', 0.9), s('a', 0.2)], undefined, P);
    expect(ids(v)).toEqual(['a', 'a']);
    expect(v.runnerUp?.id).toBe('a');
  });
});

describe('the floor', () => {
  it('effective floor: policy.floor overrides scorer.floor', () => {
    // scorer floor 0.5 would leave only `a`; the policy's 0.1 keeps both, and they tie.
    const v = decideTier2([s('a', 0.9), s('b', 0.8)], undefined, policy({ floor: 0.1 }), { floor: 0.85 });
    expect(v.kind).toBe('menu');
    const w = decideTier2([s('a', 0.9), s('b', 0.8)], undefined, P, { floor: 0.85 });
    expect(w).toMatchObject({ kind: 'move', to: 'a', decisive: true });
  });

  it('a policy floor tightens a scorer floor too', () => {
    const v = decideTier2([s('a', 0.5)], undefined, policy({ floor: 0.6 }), { floor: 0 });
    expect(v.kind).toBe('unmatched');
  });

  it('a score AT the floor is out', () => {
    const v = decideTier2([s('a', 0.3)], undefined, P, { floor: 0.3 });
    expect(v.kind).toBe('unmatched');
  });

  it('a score just above the floor is in', () => {
    const v = decideTier2([s('a', 0.30000000000000004)], undefined, P, { floor: 0.3 });
    expect(v).toMatchObject({ kind: 'move', to: 'a' });
  });

  it('every candidate at or below the floor → unmatched, not decisive, no runnerUp, ranked complete', () => {
    const v = decideTier2([s('b', -1), s('a', 0), s('c', NaN)], 'a', P, { floor: 0 });
    expect(v.kind).toBe('unmatched');
    expect(v.decisive).toBe(false);
    expect(v.runnerUp).toBeUndefined();
    expect(ids(v)).toEqual(['a', 'b', 'c']);
    expect(v.ranked.reduce((t, r) => t + r.relevance, 0)).toBeCloseTo(1, 12);
  });

  it('no candidates → unmatched with an empty ranking', () => {
    expect(decideTier2([], undefined, P)).toEqual({ kind: 'unmatched', ranked: [], decisive: false });
    expect(decideTier2([], 'x', P, { floor: 0 }).kind).toBe('unmatched');
  });

  it('a floor that knocks out the runner-up leaves a single alive candidate → decisive', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85)], undefined, P, { floor: 0.85 });
    expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true });
    expect(v.runnerUp).toBeUndefined();
  });

  it('floorless scorer: unmatched is unreachable with finite scores, however low', () => {
    const v = decideTier2([s('a', -50), s('b', -60)], undefined, P);
    expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true });
  });

  it('a NaN floor admits nothing (every comparison with NaN is false) → unmatched', () => {
    expect(decideTier2([s('a', 0.9)], undefined, policy({ floor: NaN })).kind).toBe('unmatched');
  });

  it('a -Infinity floor admits every finite score', () => {
    expect(decideTier2([s('a', -1e300)], undefined, policy({ floor: -Infinity })).kind).toBe('move');
  });
});

describe('decisiveness', () => {
  it('runnerUp.gap = tanh((top − second) / 2) on the raw scores', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.4), s('c', 0.1)], undefined, P);
    expect(v.runnerUp).toEqual({ id: 'b', gap: Math.tanh((0.9 - 0.4) / 2) });
  });

  it('the runner-up is the second ALIVE candidate; none with fewer than two alive', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.2), s('c', 0.1)], undefined, P, { floor: 0.2 });
    expect(v.runnerUp).toBeUndefined();
    expect(v.decisive).toBe(true);
  });

  it('a gap exactly AT the margin is decisive (inclusive)', () => {
    const margin = pairwiseGap(0.9, 0.5);
    const v = decideTier2([s('a', 0.9), s('b', 0.5)], undefined, policy({ nearTieMargin: margin }));
    expect(v.runnerUp!.gap).toBe(margin);
    expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true });
  });

  it('a gap just below the margin is a near-tie', () => {
    const margin = pairwiseGap(0.9, 0.5) + 1e-12;
    const v = decideTier2([s('a', 0.9), s('b', 0.5)], undefined, policy({ nearTieMargin: margin }));
    expect(v.decisive).toBe(false);
    expect(v.kind).toBe('menu');
  });

  it('a single alive candidate is decisive', () => {
    expect(decideTier2([s('a', 0.01)], undefined, P)).toMatchObject({
      kind: 'move',
      to: 'a',
      decisive: true,
    });
  });

  it('categorical: a pick is decisive whatever the gap', () => {
    const v = decideTier2([s('a', 0.5), s('b', 0.5)], undefined, P, { categorical: true });
    expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true, runnerUp: { id: 'b', gap: 0 } });
  });

  it('categorical pick of the incumbent → stay', () => {
    const v = decideTier2([s('a', 0), s('b', 1), s('c', 0)], 'b', P, { categorical: true, floor: 0 });
    expect(v).toMatchObject({ kind: 'stay', decisive: true });
  });

  it('categorical scorer that picked nothing (every score at its floor) → unmatched', () => {
    const v = decideTier2([s('a', 0), s('b', 0)], undefined, P, { categorical: true, floor: 0 });
    expect(v).toMatchObject({ kind: 'unmatched', decisive: false });
  });

  it('categorical: false is judged by the margin like any scorer', () => {
    const v = decideTier2([s('a', 0.5), s('b', 0.5)], undefined, P, { categorical: false });
    expect(v.decisive).toBe(false);
  });

  it('margin <= 0 → everything decisive', () => {
    const tie = [s('a', 0.5), s('b', 0.5), s('c', 0.5)];
    expect(decideTier2(tie, undefined, policy({ nearTieMargin: 0 }))).toMatchObject({
      kind: 'move',
      to: 'a',
    });
    expect(decideTier2(tie, undefined, policy({ nearTieMargin: -1 }))).toMatchObject({
      kind: 'move',
      to: 'a',
    });
    expect(decideTier2(tie, 'a', policy({ nearTieMargin: -0 }))).toMatchObject({
      kind: 'stay',
      decisive: true,
    });
  });

  it('NaN margin → not decisive, and an empty menu', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.1)], undefined, policy({ nearTieMargin: NaN }));
    expect(v.decisive).toBe(false);
    expect(offeredOf(v)).toEqual([]);
  });

  it('NaN margin with an incumbent → stay', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.1)], 'b', policy({ nearTieMargin: NaN }));
    expect(v).toMatchObject({ kind: 'stay', decisive: false });
  });

  it('NaN margin still lets a single alive candidate move (no runner-up to compare)', () => {
    const v = decideTier2([s('a', 0.9)], undefined, policy({ nearTieMargin: NaN }));
    expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true });
  });

  it('margin above 1 makes every contested call a near-tie (the gap never exceeds 1)', () => {
    const v = decideTier2([s('a', 1e6), s('b', -1e6)], undefined, policy({ nearTieMargin: 1.01 }));
    expect(v.runnerUp!.gap).toBe(1);
    expect(v.kind).toBe('menu');
  });
});

describe('the verdict', () => {
  it('decisive winner ≠ incumbent → move', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.2)], 'b', P);
    expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true });
  });

  it('decisive winner = incumbent → stay', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.2)], 'a', P);
    expect(v.kind).toBe('stay');
    expect(v.decisive).toBe(true);
    expect('to' in v).toBe(false);
  });

  it('decisive at cold start → move', () => {
    expect(decideTier2([s('a', 0.2), s('b', 0.9)], undefined, P)).toMatchObject({ kind: 'move', to: 'b' });
  });

  it('near-tie with an incumbent → stay (ambiguity mid-conversation keeps the current skill)', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85)], 'b', P);
    expect(v).toMatchObject({ kind: 'stay', decisive: false });
    expect('offered' in v).toBe(false);
  });

  it('near-tie with an incumbent outside the tied cluster (but above the floor) → stay', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85), s('c', 0.1)], 'c', P, { floor: 0 });
    expect(v.kind).toBe('stay');
  });

  it('incumbent not scored at all → stay', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85)], 'elsewhere', P, { floor: 0 });
    expect(v).toMatchObject({ kind: 'stay', decisive: false });
  });

  it('near-tie with an incumbent scored AT the floor → menu of the new candidates', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85), s('inc', 0)], 'inc', P, { floor: 0 });
    expect(v).toMatchObject({ kind: 'menu', offered: ['a', 'b'], decisive: false });
  });

  it('near-tie with an incumbent scored BELOW the floor → menu of the new candidates', () => {
    const v = decideTier2([s('inc', 0.05), s('a', 0.9), s('b', 0.85)], 'inc', policy({ floor: 0.1 }));
    expect(v).toMatchObject({ kind: 'menu', offered: ['a', 'b'] });
  });

  it('near-tie with an incumbent scored non-finite under a floor → menu (non-finite is below any floor)', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85), s('inc', NaN)], 'inc', P, { floor: 0 });
    expect(v.kind).toBe('menu');
  });

  it('near-tie with an incumbent scored non-finite and no floor anywhere → stay (no floor to be below)', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85), s('inc', NaN)], 'inc', P);
    expect(v.kind).toBe('stay');
  });

  it('decisive winner with the incumbent below the floor → move', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.1), s('inc', 0)], 'inc', P, { floor: 0 });
    expect(v).toMatchObject({ kind: 'move', to: 'a' });
  });

  it('every candidate, incumbent included, at the floor → unmatched (not stay)', () => {
    const v = decideTier2([s('a', 0), s('inc', 0)], 'inc', P, { floor: 0 });
    expect(v.kind).toBe('unmatched');
  });

  it('duplicate incumbent ids: the last occurrence is the one judged against the floor (as 9.62 judges ids)', () => {
    // The last `inc` is alive, the first at the floor: the last decides → the incumbent holds.
    const v = decideTier2([s('a', 0.9), s('b', 0.85), s('inc', 0), s('inc', 0.5)], 'inc', P, { floor: 0 });
    expect(v.kind).toBe('stay');
    const w = decideTier2([s('a', 0.9), s('b', 0.85), s('inc', 0.5), s('inc', 0)], 'inc', P, { floor: 0 });
    expect(w).toMatchObject({ kind: 'menu', offered: ['a', 'b'] });
  });
});

describe('the near-tie menu', () => {
  it('cold start + near-tie → menu of the tied cluster', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85), s('c', 0.8)], undefined, P);
    expect(v).toMatchObject({ kind: 'menu', offered: ['a', 'b', 'c'], decisive: false });
    expect(v.runnerUp).toEqual({ id: 'b', gap: Math.tanh((0.9 - 0.85) / 2) });
  });

  it('the menu holds only candidates within the margin of the top', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85), s('far', 0.1)], undefined, P);
    expect(offeredOf(v)).toEqual(['a', 'b']);
  });

  it('the menu is in rank order, whatever the input order', () => {
    const v = decideTier2([s('c', 0.8), s('a', 0.9), s('b', 0.85)], undefined, P);
    expect(offeredOf(v)).toEqual(['a', 'b', 'c']);
  });

  it('menu capped at max(2, menuSize): menuSize 3 keeps the top three of five', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id, i) => s(id, 0.9 - i * 0.01));
    expect(offeredOf(decideTier2(five, undefined, P))).toEqual(['a', 'b', 'c']);
  });

  it('menu capped at max(2, menuSize): menuSize 0 or 1 still offers the top two', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id, i) => s(id, 0.9 - i * 0.01));
    expect(offeredOf(decideTier2(five, undefined, policy({ menuSize: 0 })))).toEqual(['a', 'b']);
    expect(offeredOf(decideTier2(five, undefined, policy({ menuSize: 1 })))).toEqual(['a', 'b']);
    expect(offeredOf(decideTier2(five, undefined, policy({ menuSize: -4 })))).toEqual(['a', 'b']);
  });

  it('menu capped at max(2, menuSize): an infinite menuSize offers the whole cluster', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id, i) => s(id, 0.9 - i * 0.01));
    expect(offeredOf(decideTier2(five, undefined, policy({ menuSize: Infinity })))).toHaveLength(5);
  });

  it('a fractional menuSize caps at its whole part (a cap of 3.5 holds 3)', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id, i) => s(id, 0.9 - i * 0.01));
    expect(offeredOf(decideTier2(five, undefined, policy({ menuSize: 3.5 })))).toEqual(['a', 'b', 'c']);
    expect(offeredOf(decideTier2(five, undefined, policy({ menuSize: 2.5 })))).toEqual(['a', 'b']);
  });

  it('a NaN menuSize caps at nothing: an empty menu', () => {
    const v = decideTier2([s('a', 0.9), s('b', 0.85)], undefined, policy({ menuSize: NaN }));
    expect(offeredOf(v)).toEqual([]);
  });

  it('the menu excludes candidates at or below the floor and non-finite ones', () => {
    const v = decideTier2(
      [s('a', 0.31), s('b', 0.3), s('c', 0.305), s('nan', NaN)],
      undefined,
      policy({ menuSize: 10 }),
      { floor: 0.3 },
    );
    expect(offeredOf(v)).toEqual(['a', 'c']);
  });

  it('a candidate exactly AT the margin from the top is not offered (the menu is strictly within it)', () => {
    const margin = pairwiseGap(0.9, 0.5);
    const v = decideTier2(
      [s('a', 0.9), s('b', 0.85), s('c', 0.5)],
      undefined,
      policy({ nearTieMargin: margin }),
    );
    expect(offeredOf(v)).toStrictEqual(['a', 'b']);
  });

  it('a cluster is measured from the top, not chained: each offered one is within the margin of the top', () => {
    // b is within the margin of a, c within the margin of b, but c is not within the margin of a.
    const v = decideTier2([s('a', 1), s('b', 0.8), s('c', 0.6)], undefined, policy({ menuSize: 10 }));
    expect(pairwiseGap(1, 0.8)).toBeLessThan(0.15);
    expect(pairwiseGap(0.8, 0.6)).toBeLessThan(0.15);
    expect(pairwiseGap(1, 0.6)).toBeGreaterThanOrEqual(0.15);
    expect(offeredOf(v)).toEqual(['a', 'b']);
  });

  it('every verdict carries every candidate in ranked', () => {
    const input = [s('a', 0.9), s('b', 0.85), s('c', NaN), s('d', -1)];
    for (const inc of [undefined, 'a', 'd', 'zz']) {
      expect(decideTier2(input, inc, P, { floor: 0 }).ranked).toHaveLength(4);
    }
  });
});

describe('purity', () => {
  it('decideTier2 does not mutate its inputs', () => {
    const input = Object.freeze([Object.freeze(s('b', 0.1)), Object.freeze(s('a', 0.9))]);
    const pol = Object.freeze(policy({ floor: 0 }));
    const traits = Object.freeze({ floor: 0.05 });
    expect(() => decideTier2(input, 'b', pol, traits)).not.toThrow();
    expect(input.map((x) => x.id)).toEqual(['b', 'a']);
  });

  it('same input → same verdict', () => {
    const input = [s('a', 0.9), s('b', 0.85), s('c', NaN)];
    expect(decideTier2(input, undefined, P)).toEqual(decideTier2(input, undefined, P));
  });
});

describe('menuOutstanding', () => {
  const menu = (over: Partial<TurnRoute>): TurnRoute => ({ by: 'menu', offered: ['a', 'b'], ...over });

  it('no turn route → false', () => {
    expect(menuOutstanding(undefined, undefined)).toBe(false);
    expect(menuOutstanding(undefined, 'a')).toBe(false);
  });

  it('a verdict without offered → false', () => {
    expect(menuOutstanding({ by: 'intent', to: 'a' }, undefined)).toBe(false);
    expect(menuOutstanding({ by: 'decider', from: 'x', to: 'a' }, 'x')).toBe(false);
  });

  it('cold menu and the cursor has not moved (undefined) → true', () => {
    expect(menuOutstanding(menu({}), undefined)).toBe(true);
  });

  it('cold menu and the cursor has moved to a pick → false', () => {
    expect(menuOutstanding(menu({}), 'a')).toBe(false);
  });

  it('mid-conversation menu and the cursor is still at `from` → true', () => {
    expect(menuOutstanding(menu({ from: 'x', stayOffered: true }), 'x')).toBe(true);
  });

  it('mid-conversation menu and the cursor moved → false', () => {
    expect(menuOutstanding(menu({ from: 'x' }), 'b')).toBe(false);
  });

  it('mid-conversation menu with the cursor cleared (undefined) → true', () => {
    expect(menuOutstanding(menu({ from: 'x' }), undefined)).toBe(true);
  });

  it('an empty offered list is still an offered menu', () => {
    expect(menuOutstanding(menu({ offered: [] }), undefined)).toBe(true);
  });
});

describe('the two published behaviours', () => {
  const as962 = (...args: Parameters<DecideTier2>): Tier2Verdict =>
    createDecideTier2('agentfootprint-9.62')(...args);

  it('9.62 has no incumbent-at/below-floor clause: [f:0, c:1, i:1], incumbent f, margin 1, floor 0 → stay', () => {
    const scores = [s('f', 0), s('c', 1), s('i', 1)];
    const p = policy({ nearTieMargin: 1, floor: 0 });
    expect(as962(scores, 'f', p)).toMatchObject({ kind: 'stay', decisive: false });
    expect(decideTier2(scores, 'f', p)).toMatchObject({ kind: 'menu', offered: ['c', 'i'] });
  });

  it('an incumbent the scorer did not score stays under both', () => {
    const scores = [s('a', 0.9), s('b', 0.85)];
    const p = policy({ floor: 0 });
    expect(as962(scores, 'x', p).kind).toBe('stay');
    expect(decideTier2(scores, 'x', p).kind).toBe('stay');
  });

  it('policySemanticsOf names the behaviour of each of the module`s verdict functions, and nothing else', () => {
    expect(policySemanticsOf(decideTier2)).toBe('contract');
    expect(policySemanticsOf(createDecideTier2('agentfootprint-9.62'))).toBe('agentfootprint-9.62');
    expect(
      policySemanticsOf((...args: Parameters<typeof decideTier2>) => decideTier2(...args)),
    ).toBeUndefined();
    expect(policySemanticsOf('contract')).toBeUndefined();
    expect(POLICY_SEMANTICS).toEqual(['contract', 'agentfootprint-9.62']);
  });

  it('an unknown behaviour is a RangeError that names both', () => {
    expect(() => createDecideTier2('9.61' as never)).toThrow(
      /unknown policy behaviour "9\.61": use 'contract' or 'agentfootprint-9\.62'/,
    );
  });
});

describe.each(['contract', 'agentfootprint-9.62'] as const)(
  "duplicate ids, judged by their id's last score (9.62's real output) — %s",
  (semantics) => {
    // Asked for inside each test, so a broken factory fails the tests rather than the file's collection.
    const decide = (...args: Parameters<DecideTier2>): Tier2Verdict => createDecideTier2(semantics)(...args);

    it('[a:0, a:1], cold, margin 0.3, menu 2 → menu [a, a], runner-up a at gap 0, not decisive', () => {
      const v = decide([s('a', 0), s('a', 1)], undefined, policy({ nearTieMargin: 0.3, menuSize: 2 }));
      expect(v).toMatchObject({
        kind: 'menu',
        offered: ['a', 'a'],
        decisive: false,
        runnerUp: { id: 'a', gap: 0 },
      });
      expect(v.ranked.map((r) => r.score)).toEqual([1, 0]);
    });

    it('[b:1, a:0, b:NaN], cold, margin −1 → move a, no runner-up (b is dead by its last score)', () => {
      const v = decide([s('b', 1), s('a', 0), s('b', NaN)], undefined, policy({ nearTieMargin: -1 }));
      expect(v).toMatchObject({ kind: 'move', to: 'a', decisive: true });
      expect(v.runnerUp).toBeUndefined();
      expect(v.ranked.map((r) => r.id)).toEqual(['b', 'a', 'b']);
    });

    it('[b:2, b:1, a:0], cold, margin 0.5, menu 5 → menu [b, b, a], runner-up b at gap 0', () => {
      const v = decide(
        [s('b', 2), s('b', 1), s('a', 0)],
        undefined,
        policy({ nearTieMargin: 0.5, menuSize: 5 }),
      );
      expect(v).toMatchObject({ kind: 'menu', offered: ['b', 'b', 'a'], runnerUp: { id: 'b', gap: 0 } });
    });

    it('the same rule past the pairwise bound (40 candidates, judged through a map)', () => {
      const many = Array.from({ length: 40 }, (_, i) => s(`c${i}`, i / 100));
      // c39 leads by its own score, but its id's last score (appended) is NaN: it is dead, c38 wins alone.
      const v = decide([...many, s('c39', NaN)], undefined, policy({ nearTieMargin: 0 }));
      expect(v).toMatchObject({ kind: 'move', to: 'c38' });
      expect(v.ranked[0]!.id).toBe('c39');
    });
  },
);

describe('isAlive', () => {
  it('finite and strictly above the floor; at the floor is out; −Infinity never', () => {
    expect(isAlive(0.5, 0.4)).toBe(true);
    expect(isAlive(0.4, 0.4)).toBe(false);
    expect(isAlive(-Infinity, undefined)).toBe(false);
    expect(isAlive(-5, undefined)).toBe(true);
  });
});
