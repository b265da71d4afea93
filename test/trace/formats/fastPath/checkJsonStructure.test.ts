/**
 * checkJsonStructure — the cheap bracket check agrees with JSON.parse on what matters for skipped lines:
 * a whole object or array passes, a truncated one or two glued together never does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWholeJsonContainer } from '../../../../src/trace/formats/fastPath/checkJsonStructure.js';

const container = fc.oneof(
  fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()),
  fc.array(fc.jsonValue()),
);
const bytes = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));

function endsInsideString(b: Buffer): boolean {
  let inside = false;
  for (let i = 0; i < b.length; i++) {
    if (inside && b[i] === 0x5c) i++;
    else if (b[i] === 0x22) inside = !inside;
  }
  return inside;
}

describe('isWholeJsonContainer', () => {
  it('law: every serialized object or array passes', () => {
    fc.assert(
      fc.property(container, (v) => {
        expect(isWholeJsonContainer(bytes(v))).toBe(true);
      }),
    );
  });

  it('law: every strict prefix (a truncated line) fails', () => {
    fc.assert(
      fc.property(container, fc.nat(), (v, cut) => {
        const b = bytes(v);
        const prefix = b.subarray(0, cut % b.length);
        expect(isWholeJsonContainer(prefix)).toBe(false);
      }),
    );
  });

  it('law: a value cut outside a string and glued to a whole one (a crash, then the next write) fails', () => {
    fc.assert(
      fc.property(container, container, fc.nat(), (a, b, cut) => {
        const first = bytes(a);
        const prefix = first.subarray(0, 1 + (cut % (first.length - 1)));
        // Cut inside a string, the next write's quotes can re-pair by chance: readTraceInputs adds a request
        // count for that case; the bracket check alone makes no promise there.
        fc.pre(!endsInsideString(prefix));
        expect(isWholeJsonContainer(Buffer.concat([prefix, bytes(b)]))).toBe(false);
      }),
    );
  });

  it('escaped quotes and brackets inside strings do not count', () => {
    expect(isWholeJsonContainer(Buffer.from('{"a":"}\\"]\\\\","b":["[{"]}'))).toBe(true);
    expect(isWholeJsonContainer(Buffer.from('{"a":"\\"}'))).toBe(false);
    expect(isWholeJsonContainer(Buffer.from('"just a string"'))).toBe(false);
  });
});
