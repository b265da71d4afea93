/**
 * decodeRoutingAttributes.test — rebuilding a decision from attributes however a store spelled them.
 *
 * The maps here are written by hand, as other producers deliver them: numbers as numbers or decimal strings,
 * non-finite numbers spelled out, arrays as arrays or as JSON text (Jaeger), null inside number arrays (the JS
 * exporter's NaN). A record that lacks or garbles what the decision needs is `incomplete`, and the reason
 * names the key. The encoder's own output is round-tripped in test/instrument/encodeRoutingAttributes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { encodeRoutingAttributes } from '../../src/instrument/encodeRoutingAttributes.js';
import { withEffectiveFloor } from '../../src/policy/floorSource.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import * as K from '../../src/semconv/semconv.js';
import {
  decodeRoutingAttributes,
  decodeTurnAttributes,
  hasRoutingVerdict,
  toNumber,
  type DecodeResult,
} from '../../src/trace/decodeRoutingAttributes.js';
import { type AttributeValue } from '../../src/trace/internal-types.js';
import type { RecordedDecision } from '../../src/record/types.js';

/** A complete cold-start menu record: a and b tie above the scorer floor 0, n scored NaN. */
function base(): Map<string, AttributeValue> {
  return new Map<string, AttributeValue>([
    [K.ATTR_ROUTING_RECORD_VERSION, 1],
    [K.ATTR_ROUTING_TIER, 2],
    [K.ATTR_ROUTING_VERDICT, 'menu'],
    [K.ATTR_ROUTING_OFFERED, ['a', 'b']],
    [K.ATTR_ROUTING_DECISIVE, false],
    [K.ATTR_ROUTING_NEAR_TIE, true],
    [K.ATTR_ROUTING_CANDIDATE_COUNT, 3],
    [K.ATTR_ROUTING_CANDIDATE_ALIVE_COUNT, 2],
    [K.ATTR_ROUTING_CANDIDATE_OMITTED, 0],
    [K.ATTR_ROUTING_CANDIDATE_IDS, ['a', 'b', 'n']],
    [K.ATTR_ROUTING_CANDIDATE_SCORES, [0.9, 0.85, 0]],
    [K.ATTR_ROUTING_CANDIDATE_RELEVANCES, [0.5125, 0.4875, 0]],
    [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES, [2]],
    [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES, ['NaN']],
    [K.ATTR_ROUTING_TOP_ID, 'a'],
    [K.ATTR_ROUTING_RUNNER_UP_ID, 'b'],
    [K.ATTR_ROUTING_RUNNER_UP_GAP, 0.025],
    [K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN, 0.15],
    [K.ATTR_ROUTING_POLICY_MENU_SIZE, 3],
    [K.ATTR_ROUTING_SCORER_FLOOR, 0],
    [K.ATTR_ROUTING_SCORER_CATEGORICAL, false],
    [K.ATTR_ROUTING_EFFECTIVE_FLOOR, 0],
    [K.ATTR_ROUTING_FLOOR_DECLARED, true],
  ]);
}

const BASE_VALUE: RecordedDecision = {
  verdict: 'menu',
  offered: ['a', 'b'],
  decisive: false,
  nearTie: true,
  ranked: [
    { id: 'a', score: 0.9, relevance: 0.5125 },
    { id: 'b', score: 0.85, relevance: 0.4875 },
    { id: 'n', score: NaN, relevance: 0 },
  ],
  candidateCount: 3,
  omitted: 0,
  aliveCount: 2,
  runnerUp: { id: 'b', gap: 0.025 },
  policy: { nearTieMargin: 0.15, menuSize: 3 },
  scorerTraits: { floor: 0, categorical: false },
  effectiveFloor: 0,
  floorDeclared: true,
};

/** The base record with some keys replaced (undefined deletes). */
function withAttrs(over: Record<string, AttributeValue | undefined>): Map<string, AttributeValue> {
  const m = base();
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) m.delete(k);
    else m.set(k, v);
  }
  return m;
}

function ok(r: DecodeResult<RecordedDecision>): RecordedDecision {
  if (r.kind !== 'ok') throw new Error(`expected ok, got incomplete: ${r.reason}`);
  return r.value;
}

function reasonOf(r: DecodeResult<RecordedDecision>): string {
  if (r.kind !== 'incomplete') throw new Error('expected incomplete, got ok');
  return r.reason;
}

describe('toNumber', () => {
  it('a number is itself, NaN included', () => {
    expect(toNumber(0.5)).toBe(0.5);
    expect(toNumber(NaN)).toBeNaN();
  });

  it('a decimal string is its number (how a Go collector writes int64), whitespace trimmed', () => {
    expect(toNumber('42')).toBe(42);
    expect(toNumber('-9007199254740991')).toBe(-9007199254740991);
    expect(toNumber(' 0.15 ')).toBe(0.15);
    expect(toNumber('1e-3')).toBe(0.001);
  });

  it('the non-finite spellings', () => {
    expect(toNumber('NaN')).toBeNaN();
    expect(toNumber('Infinity')).toBe(Infinity);
    expect(toNumber('+Infinity')).toBe(Infinity);
    expect(toNumber('Inf')).toBe(Infinity);
    expect(toNumber('-Infinity')).toBe(-Infinity);
    expect(toNumber('-Inf')).toBe(-Infinity);
  });

  it('not a number: empty or blank strings, words, booleans, null, arrays, absence', () => {
    for (const v of ['', '   ', 'abc', '0.1.2', true, null, [1], undefined] as const) {
      expect(toNumber(v as AttributeValue | undefined)).toBeUndefined();
    }
  });
});

describe('decodeRoutingAttributes', () => {
  it('a complete record decodes to the decision, the NaN score restored', () => {
    expect(decodeRoutingAttributes(base())).toStrictEqual({ kind: 'ok', value: BASE_VALUE });
  });

  it('hasRoutingVerdict: true only when the verdict key is there', () => {
    expect(hasRoutingVerdict(base())).toBe(true);
    expect(hasRoutingVerdict(withAttrs({ [K.ATTR_ROUTING_VERDICT]: undefined }))).toBe(false);
    expect(hasRoutingVerdict(new Map())).toBe(false);
  });

  it('accepts numbers as numeric strings (scalars and array items)', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_CANDIDATE_COUNT]: '3',
      [K.ATTR_ROUTING_CANDIDATE_ALIVE_COUNT]: '2',
      [K.ATTR_ROUTING_CANDIDATE_OMITTED]: '0',
      [K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN]: '0.15',
      [K.ATTR_ROUTING_POLICY_MENU_SIZE]: '3',
      [K.ATTR_ROUTING_CANDIDATE_SCORES]: ['0.9', '0.85', '0'],
      [K.ATTR_ROUTING_CANDIDATE_RELEVANCES]: ['0.5125', '0.4875', '0'],
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]: ['2'],
      [K.ATTR_ROUTING_RUNNER_UP_GAP]: '0.025',
      [K.ATTR_ROUTING_SCORER_FLOOR]: '0',
      [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: '0',
    });
    expect(ok(decodeRoutingAttributes(m))).toStrictEqual(BASE_VALUE);
  });

  it('accepts "NaN", "Infinity" and "-Infinity" for policy and scorer numbers', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN]: 'NaN',
      [K.ATTR_ROUTING_POLICY_MENU_SIZE]: 'Infinity',
      [K.ATTR_ROUTING_POLICY_FLOOR]: '-Infinity',
      [K.ATTR_ROUTING_SCORER_FLOOR]: 'NaN',
      [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: '-Infinity',
    });
    const v = ok(decodeRoutingAttributes(m));
    expect(v.policy).toStrictEqual({ nearTieMargin: NaN, menuSize: Infinity, floor: -Infinity });
    expect(v.scorerTraits.floor).toBeNaN();
    expect(v.effectiveFloor).toBe(-Infinity);
  });

  it('accepts the non-finite spellings inside the values list, each restored at its index', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_CANDIDATE_IDS]: ['a', 'b', 'c', 'd'],
      [K.ATTR_ROUTING_CANDIDATE_SCORES]: [0.9, 0, 0, 0],
      [K.ATTR_ROUTING_CANDIDATE_RELEVANCES]: [1, 0, 0, 0],
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]: [3, 1, 2],
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]: ['-Infinity', 'NaN', 'Infinity'],
    });
    expect(ok(decodeRoutingAttributes(m)).ranked.map((r) => r.score)).toStrictEqual([
      0.9,
      NaN,
      Infinity,
      -Infinity,
    ]);
  });

  it('accepts arrays as JSON text (Jaeger style)', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_OFFERED]: '["a","b"]',
      [K.ATTR_ROUTING_CANDIDATE_IDS]: '["a","b","n"]',
      [K.ATTR_ROUTING_CANDIDATE_SCORES]: '[0.9,0.85,0]',
      [K.ATTR_ROUTING_CANDIDATE_RELEVANCES]: '[0.5125,0.4875,0]',
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]: '[2]',
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]: '["NaN"]',
    });
    expect(ok(decodeRoutingAttributes(m))).toStrictEqual(BASE_VALUE);
  });

  it('accepts booleans as "true"/"false" strings (string tags)', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_DECISIVE]: 'false',
      [K.ATTR_ROUTING_NEAR_TIE]: 'true',
      [K.ATTR_ROUTING_FLOOR_DECLARED]: 'true',
      [K.ATTR_ROUTING_SCORER_CATEGORICAL]: 'false',
    });
    expect(ok(decodeRoutingAttributes(m))).toStrictEqual(BASE_VALUE);
  });

  it('accepts null inside number arrays as NaN (how the JS exporter writes a non-finite double)', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_CANDIDATE_SCORES]: [0.9, 0.85, null],
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]: undefined,
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]: undefined,
    });
    expect(ok(decodeRoutingAttributes(m)).ranked[2]!.score).toBeNaN();
    const json = withAttrs({ [K.ATTR_ROUTING_CANDIDATE_RELEVANCES]: '[0.5125,null,0]' });
    expect(ok(decodeRoutingAttributes(json)).ranked[1]!.relevance).toBeNaN();
  });

  it('ids recorded as numbers are read as their decimal text', () => {
    const m = withAttrs({ [K.ATTR_ROUTING_CANDIDATE_IDS]: [1, 2, 3], [K.ATTR_ROUTING_OFFERED]: [1, 2] });
    const v = ok(decodeRoutingAttributes(m));
    expect(v.ranked.map((r) => r.id)).toStrictEqual(['1', '2', '3']);
    expect(v.offered).toStrictEqual(['1', '2']);
  });

  const REQUIRED = [
    K.ATTR_ROUTING_VERDICT,
    K.ATTR_ROUTING_DECISIVE,
    K.ATTR_ROUTING_CANDIDATE_IDS,
    K.ATTR_ROUTING_CANDIDATE_SCORES,
    K.ATTR_ROUTING_CANDIDATE_RELEVANCES,
    K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN,
    K.ATTR_ROUTING_POLICY_MENU_SIZE,
    K.ATTR_ROUTING_FLOOR_DECLARED,
  ];

  it.each(REQUIRED)('reports incomplete, naming the key, when %s is missing', (key) => {
    const reason = reasonOf(decodeRoutingAttributes(withAttrs({ [key]: undefined })));
    expect(reason).toContain(key);
    expect(reason).toMatch(/missing or malformed/);
  });

  it.each([
    [K.ATTR_ROUTING_VERDICT, null],
    [K.ATTR_ROUTING_DECISIVE, 'yes'],
    [K.ATTR_ROUTING_CANDIDATE_IDS, 'a,b,n'],
    [K.ATTR_ROUTING_CANDIDATE_IDS, [{ id: 'a' }] as unknown as AttributeValue],
    [K.ATTR_ROUTING_CANDIDATE_SCORES, [0.9, 'high', 0]],
    [K.ATTR_ROUTING_CANDIDATE_SCORES, '[0.9, 0.85'],
    [K.ATTR_ROUTING_CANDIDATE_RELEVANCES, '{"a":1}'],
    [K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN, 'wide'],
    [K.ATTR_ROUTING_POLICY_MENU_SIZE, ''],
    [K.ATTR_ROUTING_FLOOR_DECLARED, 1],
  ] as const)('reports incomplete, naming the key, when %s is malformed (%j)', (key, value) => {
    expect(reasonOf(decodeRoutingAttributes(withAttrs({ [key]: value })))).toContain(key);
  });

  it('only the required keys: a decision with no optional key present, not even as undefined', () => {
    const m = new Map<string, AttributeValue>([
      [K.ATTR_ROUTING_VERDICT, 'stay'],
      [K.ATTR_ROUTING_DECISIVE, true],
      [K.ATTR_ROUTING_CANDIDATE_IDS, ['a']],
      [K.ATTR_ROUTING_CANDIDATE_SCORES, [1]],
      [K.ATTR_ROUTING_CANDIDATE_RELEVANCES, [1]],
      [K.ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN, 0.15],
      [K.ATTR_ROUTING_POLICY_MENU_SIZE, 3],
      [K.ATTR_ROUTING_FLOOR_DECLARED, false],
    ]);
    expect(ok(decodeRoutingAttributes(m))).toStrictEqual({
      verdict: 'stay',
      decisive: true,
      nearTie: false,
      ranked: [{ id: 'a', score: 1, relevance: 1 }],
      candidateCount: 1,
      omitted: 0,
      policy: { nearTieMargin: 0.15, menuSize: 3 },
      scorerTraits: {},
      floorDeclared: false,
    });
  });

  it('the missing keys are listed comma-separated', () => {
    const m = withAttrs({ [K.ATTR_ROUTING_VERDICT]: undefined, [K.ATTR_ROUTING_DECISIVE]: undefined });
    expect(reasonOf(decodeRoutingAttributes(m))).toBe(
      `missing or malformed: ${K.ATTR_ROUTING_VERDICT}, ${K.ATTR_ROUTING_DECISIVE}`,
    );
  });

  it('the recorded source is kept when it is one of the two producers: wrapper or turn_routed', () => {
    for (const source of ['wrapper', 'turn_routed']) {
      expect(ok(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_SOURCE]: source }))).recordedBy).toBe(
        source,
      );
    }
    expect(ok(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_SOURCE]: 'other' })))).not.toHaveProperty(
      'recordedBy',
    );
  });

  it('near_tie absent: a runner-up id without its gap is no near-tie', () => {
    const m = withAttrs({ [K.ATTR_ROUTING_NEAR_TIE]: undefined, [K.ATTR_ROUTING_RUNNER_UP_GAP]: undefined });
    expect(ok(decodeRoutingAttributes(m)).nearTie).toBe(false);
  });

  it('names every missing key at once', () => {
    const reason = reasonOf(decodeRoutingAttributes(new Map()));
    for (const key of REQUIRED) expect(reason).toContain(key);
  });

  it('reports mismatched array lengths with each length', () => {
    const reason = reasonOf(
      decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_CANDIDATE_SCORES]: [0.9, 0.85] })),
    );
    expect(reason).toMatch(/differ in length/);
    expect(reason).toContain('ids 3');
    expect(reason).toContain('scores 2');
    const rel = reasonOf(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_CANDIDATE_RELEVANCES]: [] })));
    expect(rel).toContain('relevances 0');
  });

  it('reports an unknown verdict, quoting it', () => {
    const reason = reasonOf(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_VERDICT]: 'teleport' })));
    expect(reason).toContain('unknown verdict');
    expect(reason).toContain('"teleport"');
  });

  it('the verdict is case-sensitive: "MENU" is unknown', () => {
    expect(reasonOf(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_VERDICT]: 'MENU' })))).toContain(
      'unknown verdict',
    );
  });

  it('reports a move without to', () => {
    const reason = reasonOf(
      decodeRoutingAttributes(
        withAttrs({ [K.ATTR_ROUTING_VERDICT]: 'move', [K.ATTR_ROUTING_DECISIVE]: true }),
      ),
    );
    expect(reason).toBe(`move without ${K.ATTR_ROUTING_TO}`);
  });

  it('reports a menu without offered, or with an offered list that is not a list of strings', () => {
    expect(reasonOf(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_OFFERED]: undefined })))).toBe(
      `menu without ${K.ATTR_ROUTING_OFFERED}`,
    );
    expect(reasonOf(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_OFFERED]: [null] })))).toContain(
      K.ATTR_ROUTING_OFFERED,
    );
  });

  it('a move carries to; stay and unmatched need neither to nor offered, and carry neither', () => {
    const move = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_VERDICT]: 'move',
          [K.ATTR_ROUTING_TO]: 'a',
          [K.ATTR_ROUTING_OFFERED]: undefined,
        }),
      ),
    );
    expect(move.to).toBe('a');
    expect('offered' in move).toBe(false);
    for (const verdict of ['stay', 'unmatched']) {
      const v = ok(
        decodeRoutingAttributes(
          withAttrs({ [K.ATTR_ROUTING_VERDICT]: verdict, [K.ATTR_ROUTING_OFFERED]: undefined }),
        ),
      );
      expect(v.verdict).toBe(verdict);
      expect('to' in v || 'offered' in v).toBe(false);
    }
  });

  it.each([
    ['a NaN index', ['NaN'], ['NaN'], /non-finite index NaN/],
    ['an Infinity index', ['Infinity'], ['NaN'], /non-finite index Infinity/],
    ['an index past the end', [3], ['NaN'], /non-finite index 3 is out of range/],
    ['a negative index', [-1], ['NaN'], /non-finite index -1 is out of range/],
    ['a fractional index', [0.5], ['NaN'], /non-finite index 0.5/],
    ['more indexes than values', [0, 1], ['NaN'], /do not pair up/],
    ['indexes that are not numbers', ['first'], ['NaN'], /do not pair up/],
    ['values that are not numbers', [2], ['huge'], /do not pair up/],
  ] as const)('reports bad non-finite indexes: %s', (_name, indexes, values, pattern) => {
    const m = withAttrs({
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]: indexes as unknown as AttributeValue,
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]: values as unknown as AttributeValue,
    });
    expect(reasonOf(decodeRoutingAttributes(m))).toMatch(pattern);
  });

  it('a non-finite score at index 0 is restored there (0 is a valid index)', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]: [0],
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]: ['-Infinity'],
    });
    expect(ok(decodeRoutingAttributes(m)).ranked.map((r) => r.score)).toStrictEqual([-Infinity, 0.85, 0]);
  });

  it('an index one past the last candidate is out of range', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]: [3],
      [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]: ['NaN'],
    });
    expect(reasonOf(decodeRoutingAttributes(m))).toBe('non-finite index 3 is out of range');
  });

  it('reports non-finite indexes recorded without their values', () => {
    const m = withAttrs({ [K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]: undefined });
    expect(reasonOf(decodeRoutingAttributes(m))).toContain(K.ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES);
  });

  it('the runner-up needs both its id and its gap', () => {
    expect(
      ok(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_RUNNER_UP_GAP]: undefined }))).runnerUp,
    ).toBe(undefined);
    expect(
      ok(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_RUNNER_UP_ID]: undefined }))).runnerUp,
    ).toBe(undefined);
  });

  it('the incumbent: recorded scored flag, else whether its id is among the recorded candidates', () => {
    const flagged = withAttrs({
      [K.ATTR_ROUTING_INCUMBENT_ID]: 'x',
      [K.ATTR_ROUTING_INCUMBENT_SCORED]: true,
    });
    expect(ok(decodeRoutingAttributes(flagged)).incumbent).toStrictEqual({ id: 'x', scored: true });
    expect(
      ok(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_INCUMBENT_ID]: 'b' }))).incumbent,
    ).toStrictEqual({
      id: 'b',
      scored: true,
    });
    expect(
      ok(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_INCUMBENT_ID]: 'zz' }))).incumbent,
    ).toStrictEqual({
      id: 'zz',
      scored: false,
    });
    expect('incumbent' in ok(decodeRoutingAttributes(base()))).toBe(false);
  });

  it('counts: candidate count falls back to recorded + omitted; omitted to 0; alive count only when recorded', () => {
    const v = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_CANDIDATE_COUNT]: undefined,
          [K.ATTR_ROUTING_CANDIDATE_OMITTED]: 4,
          [K.ATTR_ROUTING_CANDIDATE_ALIVE_COUNT]: undefined,
        }),
      ),
    );
    expect(v.candidateCount).toBe(7);
    expect(v.omitted).toBe(4);
    expect('aliveCount' in v).toBe(false);
    const bare = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_CANDIDATE_COUNT]: undefined,
          [K.ATTR_ROUTING_CANDIDATE_OMITTED]: undefined,
        }),
      ),
    );
    expect(bare).toMatchObject({ candidateCount: 3, omitted: 0 });
  });

  it('near_tie falls back to "not decisive with a runner-up" when not recorded', () => {
    expect(ok(decodeRoutingAttributes(withAttrs({ [K.ATTR_ROUTING_NEAR_TIE]: undefined }))).nearTie).toBe(
      true,
    );
    const noRunnerUp = withAttrs({
      [K.ATTR_ROUTING_NEAR_TIE]: undefined,
      [K.ATTR_ROUTING_RUNNER_UP_ID]: undefined,
    });
    expect(ok(decodeRoutingAttributes(noRunnerUp)).nearTie).toBe(false);
  });

  it('the effective floor falls back to the policy floor, then the scorer floor; absent when none', () => {
    const viaPolicy = withAttrs({
      [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: undefined,
      [K.ATTR_ROUTING_POLICY_FLOOR]: 0.4,
    });
    expect(ok(decodeRoutingAttributes(viaPolicy)).effectiveFloor).toBe(0.4);
    const viaScorer = withAttrs({ [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: undefined });
    expect(ok(decodeRoutingAttributes(viaScorer)).effectiveFloor).toBe(0);
    const none = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: undefined,
          [K.ATTR_ROUTING_SCORER_FLOOR]: undefined,
          [K.ATTR_ROUTING_FLOOR_DECLARED]: false,
        }),
      ),
    );
    expect('effectiveFloor' in none).toBe(false);
    expect(none.floorDeclared).toBe(false);
    expect(none.scorerTraits).toStrictEqual({ categorical: false });
  });

  it('floor_source = effective: the floor is the effective one only, in no policy and no scorer', () => {
    const v = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_SCORER_FLOOR]: undefined,
          [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: 0.3,
          [K.ATTR_ROUTING_FLOOR_SOURCE]: 'effective',
        }),
      ),
    );
    expect(v.policy).toStrictEqual({ nearTieMargin: 0.15, menuSize: 3 });
    expect(v.scorerTraits).toStrictEqual({ categorical: false });
    expect(v.effectiveFloor).toBe(0.3);
    expect(v.floorSource).toBe('effective');
  });

  it("an older turn_routed span's policy.floor was the event's effective floor: read as that", () => {
    const v = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_SOURCE]: 'turn_routed',
          [K.ATTR_ROUTING_SCORER_FLOOR]: undefined,
          [K.ATTR_ROUTING_POLICY_FLOOR]: 0,
          [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: 0,
        }),
      ),
    );
    expect(v.policy).toStrictEqual({ nearTieMargin: 0.15, menuSize: 3 });
    expect(v.effectiveFloor).toBe(0);
    expect(v.floorSource).toBe('effective');
  });

  it("a wrapper span's policy.floor is the policy's, as before: no floor source on the record", () => {
    const v = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_SOURCE]: 'wrapper',
          [K.ATTR_ROUTING_POLICY_FLOOR]: 0.4,
          [K.ATTR_ROUTING_EFFECTIVE_FLOOR]: 0.4,
        }),
      ),
    );
    expect(v.policy).toStrictEqual({ nearTieMargin: 0.15, menuSize: 3, floor: 0.4 });
    expect(v.scorerTraits).toStrictEqual({ floor: 0, categorical: false });
    expect('floorSource' in v).toBe(false);
  });

  it('a floor_source this routescope does not write: the floors are read as the span states them', () => {
    const v = ok(
      decodeRoutingAttributes(
        withAttrs({
          [K.ATTR_ROUTING_SOURCE]: 'turn_routed',
          [K.ATTR_ROUTING_POLICY_FLOOR]: 0.4,
          [K.ATTR_ROUTING_FLOOR_SOURCE]: 'astrology',
        }),
      ),
    );
    expect(v.policy.floor).toBe(0.4);
    expect('floorSource' in v).toBe(false);
  });

  it('the encoder writes an effective floor as one, and it decodes to the same record the event log gives', () => {
    const policy = withEffectiveFloor(0.15, 3, 0);
    const scores = [
      { id: 'a', score: 0.9 },
      { id: 'b', score: 0 },
    ];
    const verdict = decideTier2(scores, undefined, policy);
    const attrs = encodeRoutingAttributes({ scores, incumbentId: undefined, policy }, verdict, 20);
    expect(attrs[K.ATTR_ROUTING_FLOOR_SOURCE]).toBe('effective');
    expect(attrs[K.ATTR_ROUTING_EFFECTIVE_FLOOR]).toBe(0);
    expect(K.ATTR_ROUTING_POLICY_FLOOR in attrs).toBe(false);
    expect(K.ATTR_ROUTING_SCORER_FLOOR in attrs).toBe(false);
    const v = ok(decodeRoutingAttributes(new Map(Object.entries(attrs) as [string, AttributeValue][])));
    expect(v.policy).toStrictEqual({ nearTieMargin: 0.15, menuSize: 3 });
    expect(v.effectiveFloor).toBe(0);
    expect(v.floorSource).toBe('effective');
    expect(v.aliveCount).toBe(1);
  });

  it('`__proto__` and `constructor` keys and ids are plain data', () => {
    const m = withAttrs({
      ['__proto__']: 'polluted',
      ['constructor']: ['x'],
      [K.ATTR_ROUTING_CANDIDATE_IDS]: ['__proto__', 'constructor', 'n'],
      [K.ATTR_ROUTING_OFFERED]: ['__proto__', 'constructor'],
      [K.ATTR_ROUTING_RUNNER_UP_ID]: 'constructor',
      [K.ATTR_ROUTING_INCUMBENT_ID]: '__proto__',
    });
    const v = ok(decodeRoutingAttributes(m));
    expect(v.ranked.map((r) => r.id)).toStrictEqual(['__proto__', 'constructor', 'n']);
    expect(v.offered).toStrictEqual(['__proto__', 'constructor']);
    expect(v.incumbent).toStrictEqual({ id: '__proto__', scored: true });
    expect(v.runnerUp?.id).toBe('constructor');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('keys it does not know are ignored', () => {
    const m = withAttrs({ 'agentfootprint.routing.future_thing': 7, 'service.name': 'svc' });
    expect(ok(decodeRoutingAttributes(m))).toStrictEqual(BASE_VALUE);
  });

  it('the recorded behaviour, source path, scorer window and rebuilt verdict are decoded', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_POLICY_SEMANTICS]: 'agentfootprint-9.62',
      [K.ATTR_ROUTING_SOURCE]: 'turn_routed',
      [K.ATTR_ROUTING_SCORER_WINDOW]: '4',
      [K.ATTR_ROUTING_REBUILT_VERDICT]: 'stay',
      [K.ATTR_ROUTING_REBUILT_DIFFERENCES]: ['verdict: event by menu, rebuilt stay'],
    });
    expect(ok(decodeRoutingAttributes(m))).toEqual({
      ...BASE_VALUE,
      semantics: 'agentfootprint-9.62',
      recordedBy: 'turn_routed',
      scorerWindow: 4,
      rebuilt: { verdict: 'stay', differences: ['verdict: event by menu, rebuilt stay'] },
    });
  });

  it('a rebuilt verdict without differences recorded agrees with what happened: no differences', () => {
    const m = withAttrs({ [K.ATTR_ROUTING_REBUILT_VERDICT]: 'menu' });
    expect(ok(decodeRoutingAttributes(m)).rebuilt).toEqual({ verdict: 'menu', differences: [] });
  });

  it('a behaviour, source or rebuilt verdict this routescope does not know is left out, the decision kept', () => {
    const m = withAttrs({
      [K.ATTR_ROUTING_POLICY_SEMANTICS]: 'agentfootprint-10.0',
      [K.ATTR_ROUTING_SOURCE]: 'carrier-pigeon',
      [K.ATTR_ROUTING_SCORER_WINDOW]: 'many',
      [K.ATTR_ROUTING_REBUILT_VERDICT]: 'maybe',
    });
    expect(ok(decodeRoutingAttributes(m))).toEqual(BASE_VALUE);
  });

  it('the behaviour is case-sensitive: "Contract" is not known', () => {
    const m = withAttrs({ [K.ATTR_ROUTING_POLICY_SEMANTICS]: 'Contract' });
    expect(ok(decodeRoutingAttributes(m)).semantics).toBeUndefined();
  });
});

describe('decodeTurnAttributes', () => {
  it('no by, or an unknown by → undefined', () => {
    expect(decodeTurnAttributes(new Map())).toBeUndefined();
    expect(decodeTurnAttributes(new Map([[K.ATTR_ROUTING_BY, 'magic']]))).toBeUndefined();
  });

  it('an entry route with its witness', () => {
    const m = new Map<string, AttributeValue>([
      [K.ATTR_ROUTING_BY, 'entry'],
      [K.ATTR_ROUTING_TO, 'billing'],
      [K.ATTR_ROUTING_WITNESS_KEYWORD, 'refund'],
      [K.ATTR_ROUTING_WITNESS_TEXT, 'I want a refund'],
    ]);
    expect(decodeTurnAttributes(m)).toStrictEqual({
      by: 'entry',
      to: 'billing',
      witnessKeyword: 'refund',
      witnessText: 'I want a refund',
    });
  });

  it('a mid-conversation menu with STAY offered, offered as JSON text', () => {
    const m = new Map<string, AttributeValue>([
      [K.ATTR_ROUTING_BY, 'menu'],
      [K.ATTR_ROUTING_FROM, 'faq'],
      [K.ATTR_ROUTING_OFFERED, '["a","b"]'],
      [K.ATTR_ROUTING_STAY_OFFERED, 'true'],
    ]);
    expect(decodeTurnAttributes(m)).toStrictEqual({
      by: 'menu',
      from: 'faq',
      offered: ['a', 'b'],
      stayOffered: true,
    });
  });

  it.each(['entry', 'intent', 'continuity', 'menu', 'decider', 'none'])(
    'by %s alone decodes to just that',
    (by) => {
      expect(decodeTurnAttributes(new Map([[K.ATTR_ROUTING_BY, by]]))).toStrictEqual({ by });
    },
  );

  it('a decider with only its provider, or only its pick, is decoded', () => {
    for (const [key, part] of [
      [K.ATTR_ROUTING_DECIDER_PROVIDER, { provider: 'p' }],
      [K.ATTR_ROUTING_DECIDER_PICKED, { picked: 'p' }],
    ] as const) {
      const m = new Map<string, AttributeValue>([
        [K.ATTR_ROUTING_BY, 'decider'],
        [key, 'p'],
      ]);
      expect(decodeTurnAttributes(m)).toStrictEqual({ by: 'decider', decider: part });
    }
  });

  it('the decider model and the dropped resume id are decoded, each on its own', () => {
    const model = new Map<string, AttributeValue>([
      [K.ATTR_ROUTING_BY, 'decider'],
      [K.ATTR_ROUTING_DECIDER_MODEL, 'gpt-4o-mini'],
    ]);
    expect(decodeTurnAttributes(model)).toStrictEqual({ by: 'decider', decider: { model: 'gpt-4o-mini' } });
    const dropped = new Map<string, AttributeValue>([
      [K.ATTR_ROUTING_BY, 'continuity'],
      [K.ATTR_ROUTING_DROPPED_RESUME_ID, 'refunds'],
    ]);
    expect(decodeTurnAttributes(dropped)).toStrictEqual({
      by: 'continuity',
      droppedResume: { id: 'refunds' },
    });
  });

  it('every turn key decoded at once, and a number or boolean where a string belongs read as its text', () => {
    const m = new Map<string, AttributeValue>([
      [K.ATTR_ROUTING_BY, 'entry'],
      [K.ATTR_ROUTING_FROM, 'billing'],
      [K.ATTR_ROUTING_TO, 7],
      [K.ATTR_ROUTING_OFFERED, ['a', 'b']],
      [K.ATTR_ROUTING_STAY_OFFERED, 'false'],
      [K.ATTR_ROUTING_WITNESS_KEYWORD, 'refund'],
      [K.ATTR_ROUTING_WITNESS_TEXT, true],
      [K.ATTR_ROUTING_DROPPED_RESUME_ID, 'r'],
      [K.ATTR_ROUTING_DROPPED_RESUME_REASON, 'expired'],
      [K.ATTR_ROUTING_DECIDER_PROVIDER, 'openai'],
      [K.ATTR_ROUTING_DECIDER_MODEL, 'm'],
      [K.ATTR_ROUTING_DECIDER_PICKED, 'b'],
    ]);
    expect(decodeTurnAttributes(m)).toStrictEqual({
      by: 'entry',
      from: 'billing',
      to: '7',
      offered: ['a', 'b'],
      stayOffered: false,
      witnessKeyword: 'refund',
      witnessText: 'true',
      droppedResume: { id: 'r', reason: 'expired' },
      decider: { provider: 'openai', model: 'm', picked: 'b' },
    });
  });

  it('a dropped resume and a decider, each with only the parts recorded', () => {
    const m = new Map<string, AttributeValue>([
      [K.ATTR_ROUTING_BY, 'decider'],
      [K.ATTR_ROUTING_DROPPED_RESUME_REASON, 'expired'],
      [K.ATTR_ROUTING_DECIDER_PROVIDER, 'openai'],
      [K.ATTR_ROUTING_DECIDER_PICKED, 'b'],
    ]);
    expect(decodeTurnAttributes(m)).toStrictEqual({
      by: 'decider',
      droppedResume: { reason: 'expired' },
      decider: { provider: 'openai', picked: 'b' },
    });
  });
});
