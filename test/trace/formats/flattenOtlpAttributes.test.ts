/**
 * flattenOtlpAttributes.test — OTLP/JSON `KeyValue[]` into the plain map the decoder reads.
 *
 * Every AnyValue kind, both spellings of 64-bit integers (JS exporter: number, Go collector: decimal string),
 * the non-finite doubles ("NaN" strings from Go, null from the JS exporter), nested arrays, and garbage that is
 * skipped or kept as null — never turned into a plausible-looking value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toNumber } from '../../../src/trace/decodeRoutingAttributes.js';
import { type AttributeValue } from '../../../src/trace/internal-types.js';
import { flattenOtlpAttributes, unwrapOtlpValue } from '../../../src/trace/formats/flattenOtlpAttributes.js';

const kv = (key: string, value: unknown): unknown => ({ key, value });

describe('unwrapOtlpValue', () => {
  it('stringValue → the string', () => {
    expect(unwrapOtlpValue({ stringValue: 'menu' })).toBe('menu');
    expect(unwrapOtlpValue({ stringValue: '' })).toBe('');
  });

  it('boolValue → the boolean, also from its "true"/"false" spelling', () => {
    expect(unwrapOtlpValue({ boolValue: true })).toBe(true);
    expect(unwrapOtlpValue({ boolValue: false })).toBe(false);
    expect(unwrapOtlpValue({ boolValue: 'true' })).toBe(true);
    expect(unwrapOtlpValue({ boolValue: 'false' })).toBe(false);
  });

  it('intValue as a JSON number (JS exporter)', () => {
    expect(unwrapOtlpValue({ intValue: 3 })).toBe(3);
    expect(unwrapOtlpValue({ intValue: -7 })).toBe(-7);
    expect(unwrapOtlpValue({ intValue: 0 })).toBe(0);
  });

  it('intValue as a decimal string (Go collector, protobuf JSON)', () => {
    expect(unwrapOtlpValue({ intValue: '3' })).toBe(3);
    expect(unwrapOtlpValue({ intValue: '-42' })).toBe(-42);
    expect(unwrapOtlpValue({ intValue: '9007199254740991' })).toBe(9007199254740991);
  });

  it('doubleValue as a number', () => {
    expect(unwrapOtlpValue({ doubleValue: 0.15 })).toBe(0.15);
    expect(unwrapOtlpValue({ doubleValue: -0.5 })).toBe(-0.5);
  });

  it('doubleValue "NaN", "Infinity", "-Infinity" (Go collector) read back as those numbers', () => {
    expect(toNumber(unwrapOtlpValue({ doubleValue: 'NaN' }))).toBeNaN();
    expect(toNumber(unwrapOtlpValue({ doubleValue: 'Infinity' }))).toBe(Infinity);
    expect(toNumber(unwrapOtlpValue({ doubleValue: '-Infinity' }))).toBe(-Infinity);
  });

  it("doubleValue null (JS exporter's non-finite double) → null", () => {
    expect(unwrapOtlpValue({ doubleValue: null })).toBeNull();
  });

  it('arrayValue → a plain array of unwrapped values, kinds mixed', () => {
    expect(
      unwrapOtlpValue({
        arrayValue: {
          values: [{ stringValue: 'a' }, { intValue: '2' }, { doubleValue: 0.5 }, { boolValue: true }],
        },
      }),
    ).toEqual(['a', 2, 0.5, true]);
  });

  it('arrayValue of doubles with null inside keeps the null in place (the decoder reads it as NaN)', () => {
    expect(
      unwrapOtlpValue({
        arrayValue: { values: [{ doubleValue: 0.9 }, { doubleValue: null }, { intValue: 0 }] },
      }),
    ).toEqual([0.9, null, 0]);
  });

  it('nested arrays stay nested', () => {
    expect(
      unwrapOtlpValue({
        arrayValue: {
          values: [
            { arrayValue: { values: [{ intValue: 1 }, { intValue: '2' }] } },
            { arrayValue: { values: [] } },
            { stringValue: 'x' },
          ],
        },
      }),
    ).toEqual([[1, 2], [], 'x']);
  });

  it('an empty arrayValue (values omitted, as protobuf JSON does) → []', () => {
    expect(unwrapOtlpValue({ arrayValue: {} })).toEqual([]);
    expect(unwrapOtlpValue({ arrayValue: null })).toEqual([]);
  });

  it('garbage items inside an array become null in place, never dropped (indexes stay aligned)', () => {
    expect(
      unwrapOtlpValue({ arrayValue: { values: [{ stringValue: 'a' }, 7, null, { stringValue: 'b' }] } }),
    ).toEqual(['a', null, null, 'b']);
  });

  it('bytesValue → its base64 text', () => {
    expect(unwrapOtlpValue({ bytesValue: 'AQID' })).toBe('AQID');
    expect(unwrapOtlpValue({ bytesValue: 5 })).toBeNull();
  });

  it('kvlistValue → null (no routing attribute is a map)', () => {
    expect(
      unwrapOtlpValue({ kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } }),
    ).toBeNull();
  });

  it('an empty AnyValue ({}) is an unset value → null', () => {
    expect(unwrapOtlpValue({})).toBeNull();
  });

  it('not an object → undefined', () => {
    for (const v of [undefined, null, 'x', 3, true]) expect(unwrapOtlpValue(v)).toBeUndefined();
  });

  it('several kinds in one AnyValue: stringValue, then boolValue, intValue, doubleValue, whatever their order', () => {
    const kinds: Array<[string, unknown, AttributeValue]> = [
      ['stringValue', 's', 's'],
      ['boolValue', true, true],
      ['intValue', '7', 7],
      ['doubleValue', 0.5, 0.5],
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(kinds, { minLength: 1 }), (chosen) => {
        const value = Object.fromEntries(chosen.map(([key, raw]) => [key, raw]));
        const first = kinds.find(([key]) => chosen.some(([k]) => k === key))!;
        expect(unwrapOtlpValue(value)).toEqual(first[2]);
      }),
    );
    // One kind of the wrong type is judged as its kind, not passed over.
    expect(unwrapOtlpValue({ stringValue: 5 })).toBe('5');
    expect(unwrapOtlpValue({ doubleValue: 'NaN' })).toBe('NaN');
    expect(unwrapOtlpValue({ boolValue: 'true' })).toBe(true);
  });

  it('unknown extra fields beside a known kind are ignored', () => {
    expect(unwrapOtlpValue({ stringValue: 'a', somethingNew: 1 })).toBe('a');
    expect(unwrapOtlpValue({ doubleValue: 2.5, somethingNew: 1 })).toBe(2.5);
  });

  it('intValue that is null, empty, blank, boolean or not a number → null, never 0 or 1', () => {
    for (const bad of [null, '', '  ', true, 'twelve', {}])
      expect(unwrapOtlpValue({ intValue: bad })).toBeNull();
  });

  it('boolValue that is null or not a boolean → null, never false', () => {
    for (const bad of [null, 1, 'yes', {}]) expect(unwrapOtlpValue({ boolValue: bad })).toBeNull();
  });

  it('a stringValue written as a number or a boolean is read as its text', () => {
    expect(unwrapOtlpValue({ stringValue: 5 })).toBe('5');
    expect(unwrapOtlpValue({ stringValue: false })).toBe('false');
    expect(unwrapOtlpValue({ stringValue: {} })).toBeNull();
  });

  it('stringValue null → null, never the text "null"', () => {
    expect(unwrapOtlpValue({ stringValue: null })).toBeNull();
    expect(unwrapOtlpValue({ stringValue: { a: 1 } })).toBeNull();
  });

  it('doubleValue that is a non-numeric string or an object → null', () => {
    expect(unwrapOtlpValue({ doubleValue: 'high' })).toBeNull();
    expect(unwrapOtlpValue({ doubleValue: {} })).toBeNull();
  });
});

describe('flattenOtlpAttributes', () => {
  it('flattens every kind into one map', () => {
    const m = flattenOtlpAttributes([
      kv('s', { stringValue: 'menu' }),
      kv('b', { boolValue: false }),
      kv('i', { intValue: '3' }),
      kv('d', { doubleValue: 0.25 }),
      kv('a', { arrayValue: { values: [{ stringValue: 'x' }] } }),
    ]);
    expect([...m.entries()]).toEqual([
      ['s', 'menu'],
      ['b', false],
      ['i', 3],
      ['d', 0.25],
      ['a', ['x']],
    ]);
  });

  it('garbage entries are skipped: non-objects, missing or non-string keys', () => {
    const m = flattenOtlpAttributes([
      null,
      42,
      'key',
      [],
      {},
      { key: 5, value: { stringValue: 'x' } },
      { value: { stringValue: 'no key' } },
      kv('good', { stringValue: 'kept' }),
    ]);
    expect([...m.entries()]).toEqual([['good', 'kept']]);
  });

  it('an entry with a key but no value (or a non-object value) is kept as null', () => {
    const m = flattenOtlpAttributes([{ key: 'unset' }, kv('scalar', 7)]);
    expect(m.get('unset')).toBeNull();
    expect(m.get('scalar')).toBeNull();
    expect(m.has('unset')).toBe(true);
  });

  it('not a list → the map unchanged', () => {
    for (const v of [undefined, null, {}, 'x']) expect(flattenOtlpAttributes(v).size).toBe(0);
  });

  it('fills the map it is given (resource, then span), later keys win, and returns it', () => {
    const into = new Map<string, AttributeValue>();
    flattenOtlpAttributes([kv('service.name', { stringValue: 'svc' }), kv('x', { intValue: 1 })], into);
    const out = flattenOtlpAttributes([kv('x', { intValue: 2 }), kv('x', { intValue: 3 })], into);
    expect(out).toBe(into);
    expect(into.get('service.name')).toBe('svc');
    expect(into.get('x')).toBe(3);
  });

  it('`__proto__` and `constructor` are plain keys: no prototype is touched', () => {
    const m = flattenOtlpAttributes([
      kv('__proto__', { stringValue: 'polluted' }),
      kv('constructor', { arrayValue: { values: [{ stringValue: 'x' }] } }),
      kv('toString', { intValue: 1 }),
    ]);
    expect(m.get('__proto__')).toBe('polluted');
    expect(m.get('constructor')).toEqual(['x']);
    expect(m.get('toString')).toBe(1);
    expect(m.size).toBe(3);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('a key that would be inherited on a plain object is absent until set', () => {
    expect(flattenOtlpAttributes([]).get('constructor')).toBeUndefined();
    expect(flattenOtlpAttributes([]).has('__proto__')).toBe(false);
  });
});
