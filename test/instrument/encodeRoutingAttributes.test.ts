/**
 * encodeRoutingAttributes.test — the attribute layout of one tier-2 decision, and its round trip.
 *
 * Two laws carry the codec: no attribute value is ever a non-finite number (an exporter would write null and
 * the collector would drop the whole batch), and what the encoder writes the decoder rebuilds exactly —
 * verdict, ranking, raw scores with NaN/±Infinity restored, thresholds, incumbent, truncation. The decoder's
 * tolerance for other producers' spellings is tested beside it, in test/trace/decodeRoutingAttributes.test.ts.
 */
import type { Attributes } from '@opentelemetry/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeNumber, encodeRoutingAttributes } from '../../src/instrument/encodeRoutingAttributes.js';
import type { Tier2CallInput } from '../../src/instrument/types.js';
import * as K from '../../src/semconv/semconv.js';
import { DEFAULT_ROUTING_POLICY, decideTier2, resolveRoutingPolicy } from '../../src/policy/routingPolicy.js';
import type { IntentScore, RoutingPolicy, ScorerTraits, Tier2Verdict } from '../../src/policy/types.js';
import { decodeRoutingAttributes } from '../../src/trace/decodeRoutingAttributes.js';
import { type AttributeMap, type AttributeValue } from '../../src/trace/internal-types.js';
import type { RecordedDecision } from '../../src/record/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const s = (id: string, score: number): IntentScore => ({ id, score });
const P = DEFAULT_ROUTING_POLICY;

/** Decide and encode in one go, as the instrumentation does. */
function encode(
  scores: IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy = P,
  scorer?: ScorerTraits,
  maxCandidates = 20,
): { attrs: Attributes; verdict: Tier2Verdict; input: Tier2CallInput } {
  const input: Tier2CallInput = { scores, incumbentId, policy, ...(scorer === undefined ? {} : { scorer }) };
  const verdict = decideTier2(scores, incumbentId, policy, scorer);
  return { attrs: encodeRoutingAttributes(input, verdict, maxCandidates), verdict, input };
}

/** Attributes as a reader hands them to the decoder: a plain key → value map. */
function toMap(attrs: Attributes): AttributeMap {
  const m = new Map<string, AttributeValue>();
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) m.set(k, v as AttributeValue);
  return m;
}

/** Every number anywhere in an attribute value. */
function numbersIn(attrs: Attributes): number[] {
  const out: number[] = [];
  for (const v of Object.values(attrs)) {
    if (typeof v === 'number') out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'number') out.push(x);
  }
  return out;
}

/** What the decoder must rebuild, stated from the call and the verdict alone. */
function expectedRecord(
  input: Tier2CallInput,
  verdict: Tier2Verdict,
  maxCandidates: number,
): RecordedDecision {
  const total = verdict.ranked.length;
  const kept = Number.isNaN(maxCandidates) ? total : Math.min(total, Math.max(0, Math.floor(maxCandidates)));
  const floor = input.policy.floor ?? input.scorer?.floor;
  const scorer = input.scorer ?? {};
  return {
    verdict: verdict.kind,
    ...(verdict.kind === 'move' ? { to: verdict.to } : {}),
    ...(verdict.kind === 'menu' ? { offered: verdict.offered } : {}),
    decisive: verdict.decisive,
    nearTie: !verdict.decisive && verdict.runnerUp !== undefined,
    ranked: verdict.ranked.slice(0, kept),
    candidateCount: total,
    omitted: total - kept,
    aliveCount: input.scores.filter(
      (x) => Number.isFinite(x.score) && (floor === undefined || x.score > floor),
    ).length,
    ...(verdict.runnerUp === undefined ? {} : { runnerUp: verdict.runnerUp }),
    ...(input.incumbentId === undefined
      ? {}
      : {
          incumbent: { id: input.incumbentId, scored: input.scores.some((x) => x.id === input.incumbentId) },
        }),
    policy: {
      nearTieMargin: input.policy.nearTieMargin,
      menuSize: input.policy.menuSize,
      ...(input.policy.floor === undefined ? {} : { floor: input.policy.floor }),
    },
    scorerTraits: {
      ...(scorer.floor === undefined ? {} : { floor: scorer.floor }),
      ...(scorer.categorical === undefined ? {} : { categorical: scorer.categorical }),
    },
    ...(floor === undefined ? {} : { effectiveFloor: floor }),
    floorDeclared: floor !== undefined,
  };
}

describe('encodeNumber', () => {
  it('a finite number is itself', () => {
    expect(encodeNumber(0.15)).toBe(0.15);
    expect(encodeNumber(-3)).toBe(-3);
    expect(encodeNumber(0)).toBe(0);
  });

  it('NaN, Infinity and -Infinity are their string spellings', () => {
    expect(encodeNumber(NaN)).toBe('NaN');
    expect(encodeNumber(Infinity)).toBe('Infinity');
    expect(encodeNumber(-Infinity)).toBe('-Infinity');
  });
});

describe('encodeRoutingAttributes', () => {
  it('writes the record version and tier 2', () => {
    const { attrs } = encode([s('a', 0.9)], undefined);
    expect(attrs[K.ATTR_ROUTING_RECORD_VERSION]).toBe(K.ROUTING_RECORD_VERSION);
    expect(attrs[K.ATTR_ROUTING_TIER]).toBe(2);
  });

  it('move: verdict, to, decisive, not a near-tie; no offered', () => {
    const { attrs } = encode([s('a', 0.9), s('b', 0.2)], 'b');
    expect(attrs).toMatchObject({
      [K.ATTR_ROUTING_VERDICT]: 'move',
      [K.ATTR_ROUTING_TO]: 'a',
      [K.ATTR_ROUTING_DECISIVE]: true,
      [K.ATTR_ROUTING_NEAR_TIE]: false,
    });
    expect(K.ATTR_ROUTING_OFFERED in attrs).toBe(false);
  });

  it('stay on a near-tie: not decisive, a near-tie; neither to nor offered', () => {
    const { attrs } = encode([s('a', 0.9), s('b', 0.85)], 'b');
    expect(attrs).toMatchObject({
      [K.ATTR_ROUTING_VERDICT]: 'stay',
      [K.ATTR_ROUTING_DECISIVE]: false,
      [K.ATTR_ROUTING_NEAR_TIE]: true,
    });
    expect(K.ATTR_ROUTING_TO in attrs).toBe(false);
    expect(K.ATTR_ROUTING_OFFERED in attrs).toBe(false);
  });

  it('menu: offered in rank order, a copy of the verdict array', () => {
    const { attrs, verdict } = encode([s('b', 0.85), s('a', 0.9)], undefined);
    expect(attrs[K.ATTR_ROUTING_VERDICT]).toBe('menu');
    expect(attrs[K.ATTR_ROUTING_OFFERED]).toEqual(['a', 'b']);
    expect(attrs[K.ATTR_ROUTING_OFFERED]).not.toBe(verdict.kind === 'menu' ? verdict.offered : undefined);
  });

  it('an empty menu (NaN margin) is written as an empty offered list', () => {
    const { attrs } = encode(
      [s('a', 0.9), s('b', 0.85)],
      undefined,
      resolveRoutingPolicy({ nearTieMargin: NaN }),
    );
    expect(attrs[K.ATTR_ROUTING_OFFERED]).toEqual([]);
    expect(attrs[K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN]).toBe('NaN');
  });

  it('unmatched: not decisive, not a near-tie, no runner-up', () => {
    const { attrs } = encode([s('a', 0)], undefined, P, { floor: 0 });
    expect(attrs).toMatchObject({
      [K.ATTR_ROUTING_VERDICT]: 'unmatched',
      [K.ATTR_ROUTING_DECISIVE]: false,
      [K.ATTR_ROUTING_NEAR_TIE]: false,
      [K.ATTR_ROUTING_CANDIDATE_ALIVE_COUNT]: 0,
    });
    expect(K.ATTR_ROUTING_RUNNER_UP_ID in attrs).toBe(false);
  });

  it('ranked candidates as parallel arrays, best first', () => {
    const { attrs, verdict } = encode([s('c', 0.1), s('a', 0.9), s('b', 0.5)], undefined);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_IDS]).toEqual(['a', 'b', 'c']);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_SCORES]).toEqual([0.9, 0.5, 0.1]);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_RELEVANCES]).toEqual(verdict.ranked.map((r) => r.relevance));
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_COUNT]).toBe(3);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(0);
  });

  it('a non-finite score is written as 0 and recorded exactly beside the array, by index', () => {
    const { attrs } = encode([s('n', NaN), s('a', 0.5), s('i', Infinity), s('m', -Infinity)], undefined);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_IDS]).toEqual(['a', 'n', 'i', 'm']);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_SCORES]).toEqual([0.5, 0, 0, 0]);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]).toEqual([1, 2, 3]);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]).toEqual(['NaN', 'Infinity', '-Infinity']);
  });

  it('no non-finite attributes when every recorded score is finite', () => {
    const { attrs } = encode([s('a', 0.9), s('b', -1)], undefined);
    expect(K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES in attrs).toBe(false);
    expect(K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES in attrs).toBe(false);
  });

  it('maxCandidates truncates the arrays and counts the rest as omitted', () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((id, i) => s(id, 1 - i * 0.2));
    const { attrs } = encode(five, undefined, P, undefined, 2);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_IDS]).toEqual(['a', 'b']);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_SCORES]).toEqual([1, 0.8]);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_COUNT]).toBe(5);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(3);
  });

  it('maxCandidates 0 or negative records no candidate, only the counts', () => {
    for (const max of [0, -3]) {
      const { attrs } = encode([s('a', 0.9), s('b', 0.1)], undefined, P, undefined, max);
      expect(attrs[K.ATTR_ROUTING_CANDIDATE_IDS]).toEqual([]);
      expect(attrs[K.ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(2);
      expect(attrs[K.ATTR_ROUTING_TOP_ID]).toBe('a');
    }
  });

  it('a fractional maxCandidates keeps its whole part; Infinity keeps every candidate', () => {
    const three = [s('a', 0.9), s('b', 0.5), s('c', 0.1)];
    expect(encode(three, undefined, P, undefined, 1.9).attrs[K.ATTR_ROUTING_CANDIDATE_IDS]).toEqual(['a']);
    expect(encode(three, undefined, P, undefined, Infinity).attrs[K.ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(0);
  });

  it('a NaN maxCandidates (a bad config value) records every candidate instead of throwing', () => {
    const three = [s('a', 0.9), s('b', 0.5), s('c', 0.1)];
    const { attrs } = encode(three, undefined, P, undefined, NaN);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_IDS]).toEqual(['a', 'b', 'c']);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(0);
  });

  it('non-finite indexes name positions in the recorded (truncated) arrays only', () => {
    const { attrs } = encode([s('a', 0.9), s('n', NaN), s('m', NaN)], undefined, P, undefined, 2);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]).toEqual([1]);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]).toEqual(['NaN']);
  });

  it('the alive count covers every candidate, recorded or omitted', () => {
    const { attrs } = encode(
      [s('a', 0.9), s('b', 0.5), s('c', 0.1), s('d', 0)],
      undefined,
      P,
      { floor: 0 },
      1,
    );
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_ALIVE_COUNT]).toBe(3);
  });

  it('top id, score and relevance; the top score spelled when non-finite', () => {
    const { attrs, verdict } = encode([s('a', 0.9), s('b', 0.2)], undefined);
    expect(attrs[K.ATTR_ROUTING_TOP_ID]).toBe('a');
    expect(attrs[K.ATTR_ROUTING_TOP_SCORE]).toBe(0.9);
    expect(attrs[K.ATTR_ROUTING_TOP_RELEVANCE]).toBe(verdict.ranked[0]!.relevance);
    const dead = encode([s('n', NaN)], undefined).attrs;
    expect(dead[K.ATTR_ROUTING_TOP_SCORE]).toBe('NaN');
  });

  it('no candidates: no top keys, empty arrays, count 0', () => {
    const { attrs } = encode([], undefined);
    expect(K.ATTR_ROUTING_TOP_ID in attrs).toBe(false);
    expect(K.ATTR_ROUTING_TOP_SCORE in attrs).toBe(false);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_IDS]).toEqual([]);
    expect(attrs[K.ATTR_ROUTING_CANDIDATE_COUNT]).toBe(0);
  });

  it('runner-up id and gap', () => {
    const { attrs } = encode([s('a', 0.9), s('b', 0.4)], undefined);
    expect(attrs[K.ATTR_ROUTING_RUNNER_UP_ID]).toBe('b');
    expect(attrs[K.ATTR_ROUTING_RUNNER_UP_GAP]).toBe(Math.tanh(0.25));
  });

  it('incumbent id and whether the scorer scored it; neither key at cold start', () => {
    expect(encode([s('a', 0.9)], 'a').attrs).toMatchObject({
      [K.ATTR_ROUTING_INCUMBENT_ID]: 'a',
      [K.ATTR_ROUTING_INCUMBENT_SCORED]: true,
    });
    expect(encode([s('a', 0.9)], 'gone').attrs[K.ATTR_ROUTING_INCUMBENT_SCORED]).toBe(false);
    const cold = encode([s('a', 0.9)], undefined).attrs;
    expect(K.ATTR_ROUTING_INCUMBENT_ID in cold).toBe(false);
    expect(K.ATTR_ROUTING_INCUMBENT_SCORED in cold).toBe(false);
  });

  it('the incumbent counts as scored even when the record truncated it away', () => {
    const { attrs } = encode([s('a', 0.9), s('inc', 0.1)], 'inc', P, undefined, 1);
    expect(attrs[K.ATTR_ROUTING_INCUMBENT_SCORED]).toBe(true);
  });

  it('the policy: margin and menu size always; its floor only when set', () => {
    const { attrs } = encode([s('a', 0.9)], undefined);
    expect(attrs[K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN]).toBe(0.15);
    expect(attrs[K.ATTR_ROUTING_POLICY_MENU_SIZE]).toBe(3);
    expect(K.ATTR_ROUTING_POLICY_FLOOR in attrs).toBe(false);
    const floored = encode([s('a', 0.9)], undefined, resolveRoutingPolicy({ floor: 0.2 })).attrs;
    expect(floored[K.ATTR_ROUTING_POLICY_FLOOR]).toBe(0.2);
  });

  it('non-finite policy and scorer numbers are written as their spellings', () => {
    const pol: RoutingPolicy = { nearTieMargin: Infinity, menuSize: NaN, floor: -Infinity };
    const { attrs } = encode([s('a', 0.9)], undefined, pol, { floor: NaN });
    expect(attrs[K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN]).toBe('Infinity');
    expect(attrs[K.ATTR_ROUTING_POLICY_MENU_SIZE]).toBe('NaN');
    expect(attrs[K.ATTR_ROUTING_POLICY_FLOOR]).toBe('-Infinity');
    expect(attrs[K.ATTR_ROUTING_SCORER_FLOOR]).toBe('NaN');
    expect(attrs[K.ATTR_ROUTING_EFFECTIVE_FLOOR]).toBe('-Infinity');
  });

  it('no floor anywhere: floor_declared false and no effective floor (unmatched unreachable)', () => {
    const { attrs } = encode([s('a', 0.9)], undefined, P, { categorical: false });
    expect(attrs[K.ATTR_ROUTING_FLOOR_DECLARED]).toBe(false);
    expect(K.ATTR_ROUTING_EFFECTIVE_FLOOR in attrs).toBe(false);
    expect(K.ATTR_ROUTING_SCORER_FLOOR in attrs).toBe(false);
  });

  it('effective floor = the policy floor over the scorer floor; both declared ones are written', () => {
    const { attrs } = encode([s('a', 0.9)], undefined, resolveRoutingPolicy({ floor: 0.4 }), { floor: 0.1 });
    expect(attrs[K.ATTR_ROUTING_EFFECTIVE_FLOOR]).toBe(0.4);
    expect(attrs[K.ATTR_ROUTING_POLICY_FLOOR]).toBe(0.4);
    expect(attrs[K.ATTR_ROUTING_SCORER_FLOOR]).toBe(0.1);
    expect(attrs[K.ATTR_ROUTING_FLOOR_DECLARED]).toBe(true);
  });

  it('scorer categorical only when the scorer declares it', () => {
    expect(
      encode([s('a', 1)], undefined, P, { categorical: true }).attrs[K.ATTR_ROUTING_SCORER_CATEGORICAL],
    ).toBe(true);
    expect(
      encode([s('a', 1)], undefined, P, { categorical: false }).attrs[K.ATTR_ROUTING_SCORER_CATEGORICAL],
    ).toBe(false);
    expect(K.ATTR_ROUTING_SCORER_CATEGORICAL in encode([s('a', 1)], undefined).attrs).toBe(false);
  });

  it('every key written is a routing key from semconv', () => {
    const known = new Set<string>(K.ROUTING_ATTRIBUTE_KEYS);
    const { attrs } = encode(
      [s('a', 0.9), s('b', 0.85), s('n', NaN)],
      'x',
      resolveRoutingPolicy({ floor: 0 }),
      {
        floor: 0,
        categorical: false,
      },
    );
    for (const key of Object.keys(attrs)) expect(known.has(key), key).toBe(true);
  });

  it('a foreign verdict with non-finite relevance or gap still writes only finite numbers', () => {
    // The wrapper may wrap another implementation of decideTier2; its numbers are not ours to trust.
    const input: Tier2CallInput = { scores: [s('a', 0.9), s('b', 0.8)], incumbentId: undefined, policy: P };
    const verdict: Tier2Verdict = {
      kind: 'move',
      to: 'a',
      decisive: true,
      ranked: [
        { id: 'a', score: 0.9, relevance: NaN },
        { id: 'b', score: 0.8, relevance: Infinity },
      ],
      runnerUp: { id: 'b', gap: NaN },
    };
    const attrs = encodeRoutingAttributes(input, verdict, 20);
    for (const n of numbersIn(attrs)) expect(Number.isFinite(n)).toBe(true);
    expect(attrs[K.ATTR_ROUTING_RUNNER_UP_GAP]).toBe('NaN');
  });
});

// — the laws, over random calls —

const idArb = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', '__proto__', 'constructor', 'a b', 'é', '');
const scoreArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, 0.1, 0.5, 0.85, 0.9, 1, -0) },
  { weight: 3, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
);
const policyNumberArb = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: -1, max: 5, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, 0.15, 3) },
);
const optionalNumberArb = fc.option(policyNumberArb, { nil: undefined });
const callArb = fc.record({
  scores: fc.array(fc.record({ id: idArb, score: scoreArb }), { maxLength: 10 }),
  incumbentId: fc.option(fc.oneof(idArb, fc.constant('unscored')), { nil: undefined }),
  policy: fc
    .record({ nearTieMargin: policyNumberArb, menuSize: policyNumberArb, floor: optionalNumberArb })
    .map(({ floor, ...rest }): RoutingPolicy => (floor === undefined ? rest : { ...rest, floor })),
  scorer: fc.option(
    fc
      .record({ floor: optionalNumberArb, categorical: fc.option(fc.boolean(), { nil: undefined }) })
      .map(({ floor, categorical }): ScorerTraits => ({
        ...(floor === undefined ? {} : { floor }),
        ...(categorical === undefined ? {} : { categorical }),
      })),
    { nil: undefined },
  ),
  maxCandidates: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom(-1, 2.5, Infinity, NaN) },
  ),
});

describe('encode → decode laws', () => {
  it('no attribute value is ever a non-finite number', () => {
    fc.assert(
      fc.property(callArb, (c) => {
        const input: Tier2CallInput = { scores: c.scores, incumbentId: c.incumbentId, policy: c.policy };
        const withScorer = c.scorer === undefined ? input : { ...input, scorer: c.scorer };
        const verdict = decideTier2(c.scores, c.incumbentId, c.policy, c.scorer);
        const attrs = encodeRoutingAttributes(withScorer, verdict, c.maxCandidates);
        for (const n of numbersIn(attrs)) expect(Number.isFinite(n)).toBe(true);
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('every attribute value is a primitive or a homogeneous array of primitives (a valid OTel value)', () => {
    fc.assert(
      fc.property(callArb, (c) => {
        const { attrs } = encode(c.scores, c.incumbentId, c.policy, c.scorer, c.maxCandidates);
        for (const v of Object.values(attrs)) {
          if (!Array.isArray(v)) {
            expect(['string', 'number', 'boolean']).toContain(typeof v);
            continue;
          }
          const kinds = new Set(v.map((x) => typeof x));
          expect(kinds.size).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('the decoder rebuilds the decision exactly (NaN/±Infinity restored, thresholds, truncation, incumbent)', () => {
    fc.assert(
      fc.property(callArb, (c) => {
        const { attrs, verdict, input } = encode(
          c.scores,
          c.incumbentId,
          c.policy,
          c.scorer,
          c.maxCandidates,
        );
        const decoded = decodeRoutingAttributes(toMap(attrs));
        expect(decoded).toEqual({ kind: 'ok', value: expectedRecord(input, verdict, c.maxCandidates) });
      }),
      { numRuns: propertyRuns(500) },
    );
  });

  it('the round trip survives JSON text for every array (Jaeger stores arrays as string tags)', () => {
    fc.assert(
      fc.property(callArb, (c) => {
        const { attrs, verdict, input } = encode(
          c.scores,
          c.incumbentId,
          c.policy,
          c.scorer,
          c.maxCandidates,
        );
        const m = new Map<string, AttributeValue>();
        for (const [k, v] of Object.entries(attrs)) {
          if (v === undefined) continue;
          m.set(k, Array.isArray(v) ? JSON.stringify(v) : (v as AttributeValue));
        }
        const expected = expectedRecord(input, verdict, c.maxCandidates);
        // JSON has no -0: a recorded -0 score comes back as 0, the only loss JSON text imposes.
        const ranked = expected.ranked.map((r) => (Object.is(r.score, -0) ? { ...r, score: 0 } : r));
        expect(decodeRoutingAttributes(m)).toEqual({ kind: 'ok', value: { ...expected, ranked } });
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
