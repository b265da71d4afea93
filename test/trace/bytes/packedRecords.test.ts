/**
 * packedRecords — the window's packing loses nothing: any JSON-like value (and what JSON cannot hold: undefined
 * properties, -0, NaN, the infinities, lone surrogates, a key named __proto__) and every real record comes back
 * equal in every field, key order included.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTraceRecordBuilder } from '../../../src/trace/buildTraceRecords.js';
import { readJsonTraceValue } from '../../../src/trace/formats/readJsonTraceValue.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import { createRecordPacker, MAX_KEYS } from '../../../src/trace/bytes/packedRecords.js';
import { readPackedValue } from '../../../src/trace/bytes/packedValues.js';
import type { TraceRecord } from '../../../src/record/types.js';
import { propertyRuns } from '../../helpers/propertyRuns.js';
import { recordScenario, toOtlpJson } from '../traceScenario.js';

let real: TraceRecord[];
beforeAll(async () => {
  const scenario = await recordScenario();
  real = [];
  const stats = createReadStats();
  readJsonTraceValue(
    JSON.parse(toOtlpJson(scenario.spans)),
    { file: 'f', line: 1 },
    createTraceRecordBuilder(stats),
    real,
  );
});

function roundTrip(value: unknown, packer = createRecordPacker()): unknown {
  const bytes = Buffer.from(packer.pack(value));
  return packer.unpack(bytes, 0, bytes.length);
}

/** Equal, and with the same keys in the same order at every level (toStrictEqual ignores order). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    expect(Object.keys(actual as object)).toEqual(Object.keys(expected));
    for (const k of Object.keys(expected))
      expectSame((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k]);
  } else if (Array.isArray(expected)) expected.forEach((e, i) => expectSame((actual as unknown[])[i], e));
}

describe('packRecord / unpackRecord', () => {
  it('every real record of a recorded agent (decisions, turns, misroutes) comes back equal', () => {
    const packer = createRecordPacker();
    expect(new Set(real.map((r) => r.kind))).toEqual(new Set(['decision', 'turn', 'misroute']));
    for (const r of real) expectSame(roundTrip(r, packer), r);
  });

  it('law: any JSON-like value comes back equal (fast-check)', () => {
    const packer = createRecordPacker();
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: false, withObjectString: false }), (value) => {
        expectSame(roundTrip(value, packer), value);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('what JSON cannot hold: -0, NaN, infinities, undefined properties, lone surrogates, __proto__ as a key', () => {
    const value = {
      negativeZero: -0,
      nan: NaN,
      up: Infinity,
      down: -Infinity,
      missing: undefined,
      big: 2 ** 53 - 1,
      small: -(2 ** 30) + 1,
      edge: 2 ** 30,
      fraction: 0.1,
      lone: 'a\ud800b',
      pair: '😀',
      text: 'naïve — 日本',
      empty: '',
      nested: [[], {}, [null, true, false]],
    };
    const withProto = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as object;
    expectSame(roundTrip(value), value);
    const back = roundTrip(withProto) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'y']);
    expect(back['__proto__']).toEqual({ x: 1 });
  });

  it('past MAX_KEYS distinct keys the rest are written out in full, and still come back', () => {
    const packer = createRecordPacker();
    const many = Object.fromEntries(Array.from({ length: MAX_KEYS + 50 }, (_, i) => [`k${i}`, i]));
    expectSame(roundTrip(many, packer), many);
    expectSame(roundTrip({ k3: 1, another: 'one' }, packer), { k3: 1, another: 'one' });
  });

  it('an object of 128 keys or more is counted in a wider varint, and what follows it still reads', () => {
    const packer = createRecordPacker();
    for (const size of [127, 128, 300, 2 ** 14 + 3]) {
      const wide = Object.fromEntries(
        Array.from({ length: size }, (_, i) => [`w${i}`, i % 7 === 0 ? 'x' : i]),
      );
      const value = [{ before: true }, wide, { after: [wide, 'tail'] }, -1];
      expectSame(roundTrip(value, packer), value);
    }
  });

  it('shared strings are held while a packed value holds them, and let go with the last one', () => {
    const packer = createRecordPacker();
    const a = Buffer.from(packer.pack({ id: 'billing', to: 'refunds' }));
    const b = Buffer.from(packer.pack({ id: 'billing' }));
    expect(packer.sharedStrings).toBe(2);
    packer.release(a, 0, a.length);
    expect(packer.sharedStrings).toBe(1);
    expect(packer.unpack(b, 0, b.length)).toEqual({ id: 'billing' });
    packer.release(b, 0, b.length);
    expect(packer.sharedStrings).toBe(0);
    // An id let go is used again, for another string, and reads back as that one.
    const c = Buffer.from(packer.pack({ id: 'shipping' }));
    expect(packer.unpack(c, 0, c.length)).toEqual({ id: 'shipping' });
  });

  it('law: read with a copy of its tables elsewhere, all a packer packed comes back, let-go values included (fast-check)', () => {
    // How a --jobs worker hands its records over: the bytes and the tables travel, the packer does not.
    const item = fc.oneof(
      fc.anything({ withNullPrototype: false, withObjectString: false }),
      fc.constantFrom(...real),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(item, fc.boolean()), { maxLength: 20 }), (steps) => {
        const packer = createRecordPacker();
        const kept: Array<{ value: unknown; bytes: Buffer }> = [];
        for (const [value, letGo] of steps) {
          const bytes = Buffer.from(packer.pack(value));
          // A value let go frees its shared strings' ids for later values: the tables then hold holes.
          if (letGo) packer.release(bytes, 0, bytes.length);
          else kept.push({ value, bytes });
        }
        const tables = packer.tables();
        const { keys, shared } = structuredClone(tables);
        for (const { value, bytes } of kept)
          expectSame(readPackedValue(bytes, 0, bytes.length, keys, shared), value);
        expect(shared.filter((s) => s !== undefined)).toHaveLength(packer.sharedStrings);
        // The tables are a copy: what the packer packs next does not reach them.
        const before = structuredClone(tables);
        packer.pack({ anotherKey: 'another string' });
        expect(tables).toEqual(before);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('a value that cannot be packed (a function) throws and leaves no shared string behind', () => {
    const packer = createRecordPacker();
    expect(() => packer.pack({ name: 'new-one', f: () => 1 })).toThrow(TypeError);
    expect(packer.sharedStrings).toBe(0);
  });

  it('hex ids are packed as their bytes, and read back lowercase as they were', () => {
    const packer = createRecordPacker();
    const ids = {
      traceId: '65286fc8d70d20c38201b660c5e3ab21',
      spanId: '52fcf47ad3abd495',
      upper: 'ABCD',
      odd: 'abc',
    };
    const bytes = Buffer.from(packer.pack(ids));
    expect(packer.unpack(bytes, 0, bytes.length)).toEqual(ids);
    expect(bytes.length).toBeLessThan(JSON.stringify(ids).length / 2);
  });

  it('a record packed is far smaller than its JSON', () => {
    const packer = createRecordPacker();
    const decision = real.find((r) => r.kind === 'decision')!;
    expect(packer.pack(decision).length).toBeLessThan(Buffer.byteLength(JSON.stringify(decision)) / 1.5);
  });
});
