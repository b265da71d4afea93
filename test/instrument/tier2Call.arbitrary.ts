/**
 * tier2Call.arbitrary — fast-check inputs for one `decideTier2` call, odd cases included on purpose.
 *
 * Non-finite scores (NaN, ±Infinity), exact ties, duplicate ids, unscored incumbents, floors from the policy,
 * the scorer or neither, categorical scorers, and the odd policies upstream does not validate (NaN margin,
 * margin <= 0, menu size 0).
 */
import fc from 'fast-check';
import type { IntentScore, RoutingPolicy, ScorerTraits } from '../../src/policy/types.js';
import type { Tier2Call } from '../../src/instrument/types.js';

const IDS = ['billing', 'refunds', 'shipping', 'returns', 'account', 'search', 'legal', 'a', 'b', 'c'];

const idArb = fc.constantFrom(...IDS);

/** A raw scorer number: mostly ordinary, sometimes non-finite, sometimes an exact tie value. */
export const scoreArb: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.double({ min: -3, max: 3, noNaN: true }), weight: 6 },
  { arbitrary: fc.constantFrom(0, 0.25, 0.5, 1), weight: 2 },
  { arbitrary: fc.constantFrom(NaN, Infinity, -Infinity), weight: 2 },
);

const floorArb: fc.Arbitrary<number> = fc.oneof(
  { arbitrary: fc.double({ min: -1, max: 1, noNaN: true }), weight: 8 },
  { arbitrary: fc.constantFrom(0, NaN, -Infinity), weight: 2 },
);

const policyArb: fc.Arbitrary<RoutingPolicy> = fc
  .record({
    nearTieMargin: fc.oneof(
      { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 6 },
      { arbitrary: fc.constantFrom(0.15, 0, -0.1, 1, NaN), weight: 3 },
    ),
    menuSize: fc.integer({ min: 0, max: 6 }),
    floor: fc.option(floorArb, { nil: undefined, freq: 2 }),
  })
  .map(({ nearTieMargin, menuSize, floor }) =>
    floor === undefined ? { nearTieMargin, menuSize } : { nearTieMargin, menuSize, floor },
  );

const scorerArb: fc.Arbitrary<ScorerTraits | undefined> = fc.option(
  fc.record({ floor: floorArb, categorical: fc.boolean() }, { requiredKeys: [] }),
  { nil: undefined, freq: 4 },
);

/** Candidate lists of up to `maxCandidates`. */
export function scoresArb(maxCandidates: number): fc.Arbitrary<IntentScore[]> {
  return fc.array(fc.record({ id: idArb, score: scoreArb }), { maxLength: maxCandidates });
}

/** One whole call. */
export function tier2CallArb(maxCandidates = 12): fc.Arbitrary<Tier2Call> {
  return fc
    .record({
      scores: scoresArb(maxCandidates),
      incumbentId: fc.option(idArb, { nil: undefined }),
      policy: policyArb,
      scorer: scorerArb,
    })
    .map(({ scores, incumbentId, policy, scorer }) => ({ scores, incumbentId, policy, scorer }));
}
