/**
 * routingPolicy.properties.test — the laws of the tier-2 policy, checked over random inputs (fast-check).
 *
 * The arbitraries lean on the edges on purpose: NaN/±Infinity and -0 scores, clustered scores that near-tie,
 * duplicate ids, floors that coincide with scores, incumbents that are and are not scored, categorical scorers,
 * and policies with NaN, zero, negative or infinite numbers (upstream does not validate them).
 * Each law is stated independently of the implementation: an oracle here is a definition, not a copy. Duplicate
 * ids are judged as agentfootprint 9.62 judges them: every entry ranks by its own score, but alive / top /
 * runner-up / gap / menu read the LAST score its id was given (`judged` below). Every law holds for both
 * published behaviours except the incumbent clause, which has a law per behaviour.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDecideTier2, decideTier2, judgeKeepingRanking } from '../../src/policy/routingPolicy.js';
import type {
  DecideTier2,
  IntentScore,
  PolicySemantics,
  RoutingPolicy,
  ScorerTraits,
  Tier2Verdict,
} from '../../src/policy/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const RUNS = { numRuns: propertyRuns(400) };

const idArb = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
const scoreArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 0.1, 0.3, 0.5, 0.85, 0.9, 1) },
  { weight: 4, arbitrary: fc.double({ min: -1, max: 1, noNaN: true }) },
  { weight: 2, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0) },
);
const scoresArb = fc.array(fc.record({ id: idArb, score: scoreArb }), { maxLength: 9 });
const floorArb = fc.option(
  fc.oneof(fc.constantFrom(0, 0.3, 0.5), fc.double({ min: -1, max: 1, noNaN: true }), fc.double()),
  { nil: undefined },
);
const marginArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(0.15) },
  { weight: 4, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0.5, NaN, Infinity, 1.5) },
);
const menuSizeArb = fc.oneof(
  fc.integer({ min: 0, max: 6 }),
  fc.double({ min: 0, max: 6, noNaN: true }),
  fc.constantFrom(-1, Infinity, NaN),
);
const policyArb: fc.Arbitrary<RoutingPolicy> = fc
  .record({ nearTieMargin: marginArb, menuSize: menuSizeArb, floor: floorArb })
  .map(({ floor, ...rest }) => (floor === undefined ? rest : { ...rest, floor }));
const scorerArb: fc.Arbitrary<ScorerTraits | undefined> = fc.option(
  fc.record(
    { floor: floorArb, categorical: fc.option(fc.boolean(), { nil: undefined }) },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);
/** A call: scores, incumbent (often one of the scored ids, sometimes an unscored one), policy, scorer. */
const callArb = fc.record({
  scores: scoresArb,
  incumbent: fc.option(fc.oneof(idArb, fc.constant('unscored')), { nil: undefined }),
  policy: policyArb,
  scorer: scorerArb,
});
type Call = {
  scores: IntentScore[];
  incumbent: string | undefined;
  policy: RoutingPolicy;
  scorer?: ScorerTraits;
};

const sane = (x: number): number => (Number.isFinite(x) ? x : -Infinity);
const floorOf = (c: Call): number | undefined => c.policy.floor ?? c.scorer?.floor;
const isAlive = (score: number, floor: number | undefined): boolean =>
  Number.isFinite(score) && (floor === undefined || score > floor);
/** The score an id is judged by: the sanitized score of its last occurrence. */
const judged = (c: Call, id: string): number => {
  let last = NaN;
  for (const x of c.scores) if (x.id === id) last = x.score;
  return sane(last);
};
/** The alive entries of a ranking, best first, each with the score it is judged by. */
const aliveOf = (v: Tier2Verdict, c: Call) =>
  v.ranked.map((r) => ({ id: r.id, score: judged(c, r.id) })).filter((r) => isAlive(r.score, floorOf(c)));

describe.each<PolicySemantics>(['contract', 'agentfootprint-9.62'])(
  'routingPolicy laws (%s)',
  (semantics) => {
    // Asked for inside each law, so a broken factory fails the laws rather than the file's collection.
    const decideAs: DecideTier2 = (...args) => createDecideTier2(semantics)(...args);
    const decide = (c: Call): Tier2Verdict => decideAs(c.scores, c.incumbent, c.policy, c.scorer);

    it('judgeKeepingRanking decides exactly as the behaviour does and keeps the ranking it is given', () => {
      // Long lists of few ids reach the hash-table duplicate search as well as the pairwise one.
      const longDuplicated = fc.array(
        fc.record({ id: fc.constantFrom(...'abcdefghijklmnopqrst'.split('')), score: scoreArb }),
        { minLength: 17, maxLength: 90 },
      );
      const anyCall = fc.oneof(
        callArb,
        fc.record({
          scores: longDuplicated,
          incumbent: fc.option(idArb, { nil: undefined }),
          policy: policyArb,
          scorer: scorerArb,
        }),
      );
      fc.assert(
        fc.property(anyCall, fc.boolean(), (c, presanitized) => {
          const full = decide(c);
          const ranking = c.scores.map((x) => ({ id: x.id, score: x.score, relevance: 0.5 }));
          const sanitized = presanitized ? c.scores.map((x) => sane(x.score)) : undefined;
          const kept = judgeKeepingRanking(
            semantics,
            c.scores,
            c.incumbent,
            c.policy,
            c.scorer ?? {},
            ranking,
            sanitized,
          );
          expect(kept.ranked).toBe(ranking);
          expect({ ...kept, ranked: full.ranked }).toStrictEqual(full);
        }),
        RUNS,
      );
    });

    it('relevance shares sum to 1 (within 1e-9), each in [0, 1]', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          if (v.ranked.length === 0) return;
          let sum = 0;
          for (const r of v.ranked) {
            expect(r.relevance).toBeGreaterThanOrEqual(0);
            expect(r.relevance).toBeLessThanOrEqual(1);
            sum += r.relevance;
          }
          expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-9);
        }),
        RUNS,
      );
    });

    it('a dead candidate gets relevance 0 unless every candidate is dead (then uniform 1/N)', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          const allDead = v.ranked.every((r) => !Number.isFinite(r.score));
          for (const r of v.ranked) {
            if (allDead) expect(r.relevance).toBe(1 / v.ranked.length);
            else if (!Number.isFinite(r.score)) expect(r.relevance).toBe(0);
          }
        }),
        RUNS,
      );
    });

    it('ranked is a stable sort of every candidate: by sanitized score desc, ties in input order, raw scores kept', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          // Oracle: walk the distinct sanitized levels from best to worst; at each level, the candidates at that
          // level in input order. A permutation of the input by construction.
          const levels = [...new Set(c.scores.map((x) => sane(x.score)))].sort((a, b) => (a > b ? -1 : 1));
          const expected = levels.flatMap((level) => c.scores.filter((x) => sane(x.score) === level));
          expect(v.ranked.map(({ id, score }) => ({ id, score }))).toEqual(
            expected.map(({ id, score }) => ({ id, score })),
          );
        }),
        RUNS,
      );
    });

    it('ranked is the same stable sort for long candidate lists (both sides of the insertion-sort bound)', () => {
      // Ids are positions so every candidate can be told apart; scores repeat to exercise ties at every length.
      const longArb = fc
        .array(scoreArb, { minLength: 100, maxLength: 300 })
        .map((scores) => scores.map((score, i) => ({ id: `c${i}`, score })));
      fc.assert(
        fc.property(longArb, (scores) => {
          const v = decideAs(scores, undefined, { nearTieMargin: 0.15, menuSize: 3 });
          const levels = [...new Set(scores.map((x) => sane(x.score)))].sort((a, b) => (a > b ? -1 : 1));
          const expected = levels.flatMap((level) => scores.filter((x) => sane(x.score) === level));
          expect(v.ranked.map((r) => r.id)).toEqual(expected.map((x) => x.id));
        }),
        { numRuns: propertyRuns(60) },
      );
    });

    it('each ranked relevance is the share of the very candidate it sits beside', () => {
      fc.assert(
        fc.property(
          fc.uniqueArray(fc.record({ id: idArb, score: scoreArb }), { selector: (x) => x.id, maxLength: 7 }),
          policyArb,
          (scores, policy) => {
            const v = decideAs(scores, undefined, policy);
            const finite = scores.map((x) => sane(x.score));
            const max = Math.max(...finite);
            if (max === -Infinity) return;
            const total = finite.reduce((t, x) => t + Math.exp(x - max), 0);
            for (const r of v.ranked) {
              const i = scores.findIndex((x) => x.id === r.id);
              expect(r.relevance).toBeCloseTo(Math.exp(finite[i]! - max) / total, 12);
            }
          },
        ),
        RUNS,
      );
    });

    it('unmatched ⇔ nothing alive (and then not decisive, no runner-up)', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          const alive = c.scores.filter((x) => isAlive(judged(c, x.id), floorOf(c)));
          expect(v.kind === 'unmatched').toBe(alive.length === 0);
          if (v.kind === 'unmatched') {
            expect(v.decisive).toBe(false);
            expect(v.runnerUp).toBeUndefined();
          }
        }),
        RUNS,
      );
    });

    it('runnerUp is the second alive candidate, with gap = tanh((a − b) / 2) of the top two alive scores', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          const alive = aliveOf(v, c);
          if (alive.length < 2) {
            expect(v.runnerUp).toBeUndefined();
            return;
          }
          expect(v.runnerUp).toEqual({
            id: alive[1]!.id,
            gap: Math.tanh((alive[0]!.score - alive[1]!.score) / 2),
          });
        }),
        RUNS,
      );
    });

    it('decisive ⇔ categorical or a single alive candidate or gap >= margin (when something is alive)', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          const alive = aliveOf(v, c);
          if (alive.length === 0) return;
          const gap = alive.length >= 2 ? Math.tanh((alive[0]!.score - alive[1]!.score) / 2) : undefined;
          const expected =
            c.scorer?.categorical === true || gap === undefined || gap >= c.policy.nearTieMargin;
          expect(v.decisive).toBe(expected);
        }),
        RUNS,
      );
    });

    it('decisive → move to the top alive, or stay when the top is the incumbent', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          if (!v.decisive) return;
          const top = aliveOf(v, c)[0]!;
          if (top.id === c.incumbent) expect(v.kind).toBe('stay');
          else expect(v).toMatchObject({ kind: 'move', to: top.id });
        }),
        RUNS,
      );
    });

    const clause =
      semantics === 'contract'
        ? 'near-tie → stay with an incumbent, unless the scorer put that incumbent at/below the floor → menu'
        : 'near-tie → stay with any incumbent (no incumbent-at/below-floor clause), menu at cold start';
    it(clause, () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          if (v.decisive || v.kind === 'unmatched') return;
          const floor = floorOf(c);
          const scored = c.incumbent !== undefined && c.scores.some((x) => x.id === c.incumbent);
          const scoredOut =
            semantics === 'contract' && floor !== undefined && scored && !(judged(c, c.incumbent!) > floor);
          expect(v.kind).toBe(c.incumbent !== undefined && !scoredOut ? 'stay' : 'menu');
        }),
        RUNS,
      );
    });

    it('a menu holds 2..max(2, menuSize) alive candidates led by the top, all within the margin (margin > 0)', () => {
      // Scores drawn mostly from one tight cluster, so tied clusters larger than the cap are common.
      const clusterArb = fc.oneof(
        fc.constantFrom(0.9, 0.89, 0.88, 0.87, 0.86, 0.85, 0.3, NaN),
        fc.double({ min: 0.8, max: 0.9, noNaN: true }),
      );
      const menuScoresArb = fc.oneof(
        {
          weight: 3,
          arbitrary: fc.array(fc.record({ id: idArb, score: clusterArb }), { minLength: 2, maxLength: 9 }),
        },
        { weight: 1, arbitrary: scoresArb },
      );
      const okPolicy = fc
        .record({
          nearTieMargin: fc.double({ min: 1e-6, max: 1, noNaN: true }),
          menuSize: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ min: 0, max: 6, noNaN: true })),
          floor: floorArb,
        })
        .map(({ floor, ...rest }) => (floor === undefined ? rest : { ...rest, floor }));
      fc.assert(
        fc.property(
          menuScoresArb,
          fc.option(idArb, { nil: undefined }),
          okPolicy,
          scorerArb,
          (scores, inc, policy, sc) => {
            const c: Call = { scores, incumbent: inc, policy, ...(sc === undefined ? {} : { scorer: sc }) };
            const v = decide(c);
            if (v.kind !== 'menu') return;
            const alive = aliveOf(v, c);
            const cap = Math.max(2, policy.menuSize);
            expect(v.offered.length).toBeGreaterThanOrEqual(2);
            expect(v.offered.length).toBeLessThanOrEqual(cap);
            expect(v.offered[0]).toBe(alive[0]!.id);
            // The tied cluster, in rank order, cut at the cap: exactly the prefix of the alive ranking that is
            // within the margin of the top.
            const cluster = alive.filter(
              (r) => Math.tanh((alive[0]!.score - r.score) / 2) < policy.nearTieMargin,
            );
            expect(v.offered).toEqual(cluster.slice(0, Math.floor(cap)).map((r) => r.id));
          },
        ),
        RUNS,
      );
    });

    it('only menus carry offered; only moves carry to', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const v = decide(c);
          expect('offered' in v).toBe(v.kind === 'menu');
          expect('to' in v).toBe(v.kind === 'move');
          expect('runnerUp' in v).toBe(v.runnerUp !== undefined);
        }),
        RUNS,
      );
    });

    it('the verdict function is pure: same input → deep-equal output, input not mutated', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const before = structuredClone(c);
          const first = decide(c);
          expect(c).toEqual(before);
          const second = decide(structuredClone(c));
          expect(second).toEqual(first);
          expect(decide(c)).toEqual(first);
        }),
        RUNS,
      );
    });
  },
);

describe('the two behaviours', () => {
  const as962 = (...args: Parameters<DecideTier2>): Tier2Verdict =>
    createDecideTier2('agentfootprint-9.62')(...args);

  it("createDecideTier2('contract') is decideTier2", () => {
    expect(createDecideTier2('contract')).toBe(decideTier2);
  });

  it('differ only where the clause applies: a near-tie with an incumbent scored at/below the floor', () => {
    fc.assert(
      fc.property(callArb, (c) => {
        const contract = decideTier2(c.scores, c.incumbent, c.policy, c.scorer);
        const v962 = as962(c.scores, c.incumbent, c.policy, c.scorer);
        const floor = floorOf(c);
        const applies =
          !contract.decisive &&
          contract.kind !== 'unmatched' &&
          c.incumbent !== undefined &&
          floor !== undefined &&
          c.scores.some((x) => x.id === c.incumbent) &&
          !(judged(c, c.incumbent) > floor);
        if (!applies) {
          expect(v962).toStrictEqual(contract);
          return;
        }
        // Where it applies, the contract opens the tied menu and 9.62 stays, on the very same numbers.
        expect(contract.kind).toBe('menu');
        expect(v962.kind).toBe('stay');
        const { offered: _offered, kind: _k, ...numbers } = contract as Tier2Verdict & { offered: unknown };
        const { kind: _k2, ...numbers962 } = v962;
        expect(numbers962).toStrictEqual(numbers);
      }),
      RUNS,
    );
  });
});

describe('duplicate ids on every path of the implementation', () => {
  /**
   * The 9.62 rule written as plainly as it is stated: a stable ranking by each entry's own sanitized score, each
   * entry judged by its id's last score (a Map keeps the last), alive / top / runner-up / menu from those.
   */
  function reference(scores: IntentScore[], incumbent: string | undefined, policy: RoutingPolicy) {
    const last = new Map(scores.map((x) => [x.id, sane(x.score)] as const));
    const ranked = scores
      .map((x, i) => ({ ...x, i, own: sane(x.score) }))
      .sort((a, b) => (a.own === b.own ? a.i - b.i : b.own > a.own ? 1 : -1));
    const alive = ranked.filter((r) => isAlive(last.get(r.id)!, policy.floor));
    if (alive.length === 0) return { kind: 'unmatched' };
    const gapTo = (r: { id: string }) => Math.tanh((last.get(alive[0]!.id)! - last.get(r.id)!) / 2);
    const second = alive[1];
    const decisive = second === undefined || gapTo(second) >= policy.nearTieMargin;
    if (decisive) return alive[0]!.id === incumbent ? { kind: 'stay' } : { kind: 'move', to: alive[0]!.id };
    if (incumbent !== undefined) return { kind: 'stay' };
    const cap = Math.max(2, policy.menuSize);
    return {
      kind: 'menu',
      offered: alive
        .filter((r) => gapTo(r) < policy.nearTieMargin)
        .slice(0, cap)
        .map((r) => r.id),
    };
  }

  it('long lists (17–80 candidates, ids from 20 names) judge as the plainly written rule, under 9.62', () => {
    const decide962 = createDecideTier2('agentfootprint-9.62');
    const nameArb = fc.integer({ min: 0, max: 19 }).map((i) => `skill-${i}`);
    const longArb = fc.array(fc.record({ id: nameArb, score: scoreArb }), { minLength: 17, maxLength: 80 });
    fc.assert(
      fc.property(
        longArb,
        fc.option(nameArb, { nil: undefined }),
        fc.record({
          nearTieMargin: fc.constantFrom(0.15, 0.5, 1),
          menuSize: fc.constantFrom(2, 3, 5),
          floor: fc.constantFrom(0, 0.3),
        }),
        (scores, incumbent, policy) => {
          const v = decide962(scores, incumbent, policy);
          const want = reference(scores, incumbent, policy);
          expect(v.kind).toBe(want.kind);
          if (v.kind === 'move') expect(v.to).toBe(want.to);
          if (v.kind === 'menu') expect(v.offered).toEqual(want.offered);
        },
      ),
      RUNS,
    );
  });
});
