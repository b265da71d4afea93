/**
 * isJsonValue — held to JSON.parse: for any text, and for any bytes (bad UTF-8 included), it says "one JSON
 * value" exactly when JSON.parse of the UTF-8 decoding succeeds. The `--jobs` workers rely on it to hand the
 * main thread routing spans that parse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonValue } from '../../../../src/trace/formats/fastPath/isJsonValue.js';
import { propertyRuns } from '../../../helpers/propertyRuns.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function check(bytes: Uint8Array): void {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  expect(isJsonValue(bytes, 0, bytes.length), JSON.stringify(text)).toBe(parses(text));
}

/** Pieces JSON is made of, and near misses of them. */
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '\\',
  ' ',
  '\t',
  '\n',
  '\r',
  '\f',
  '\v',
  '0',
  '1',
  '9',
  '-',
  '+',
  '.',
  'e',
  'E',
  'true',
  'false',
  'null',
  'tru',
  'nul',
  'u',
  '\\u',
  '\\u00e9',
  '\\uD83D',
  'ab',
  'é',
  '😀',
  '\u0000',
  '\u001f',
  '\u007f',
  '"k":',
  '"s"',
  '01',
  '1.5',
  '-0',
  '1e5',
  '1E+5',
  '.5',
  '5.',
  '\\"',
  '\\/',
  '\\x',
];

describe('isJsonValue', () => {
  it('law: any JSON text, laid out any way JSON.stringify can', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, '\t'), (value, space) => {
        const text = JSON.stringify(value, null, space);
        expect(isJsonValue(Buffer.from(text), 0, Buffer.byteLength(text))).toBe(true);
      }),
    );
  });

  it('law: agrees with JSON.parse on texts made of JSON pieces and near misses', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 24 }), (pieces) => {
        check(Buffer.from(pieces.join('')));
      }),
      { numRuns: propertyRuns(5000) },
    );
  });

  it('law: agrees with JSON.parse on valid JSON with one piece inserted, removed or replaced', () => {
    fc.assert(
      fc.property(
        fc.json(),
        fc.nat(),
        fc.constantFrom('insert', 'remove', 'replace'),
        fc.constantFrom(...TOKENS),
        (text, where, edit, piece) => {
          const at = text.length === 0 ? 0 : where % text.length;
          const edited =
            edit === 'insert'
              ? text.slice(0, at) + piece + text.slice(at)
              : edit === 'remove'
                ? text.slice(0, at) + text.slice(at + 1)
                : text.slice(0, at) + piece + text.slice(at + 1);
          check(Buffer.from(edited));
        },
      ),
      { numRuns: propertyRuns(5000) },
    );
  });

  it('law: agrees with JSON.parse of the decoding on any bytes, bad UTF-8 included', () => {
    const byte = fc.oneof(
      fc.constantFrom(...Buffer.from('{}[],:"\\ 0-1.eE+tfnrlsau"')),
      fc.integer({ min: 0, max: 255 }),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 32 }), (bytes) => {
        check(Uint8Array.from(bytes));
        check(Buffer.from(`["${Buffer.from(bytes).toString('latin1')}"]`, 'latin1'));
      }),
      { numRuns: propertyRuns(5000) },
    );
  });

  it('reads a range inside a larger buffer, and nesting as deep as JSON.parse takes', () => {
    const text = Buffer.from('xx{"a":[1,{"b":null}]}yy');
    expect(isJsonValue(text, 2, text.length - 2)).toBe(true);
    expect(isJsonValue(text, 2, text.length - 1)).toBe(false);
    expect(isJsonValue(text, 3, text.length - 2)).toBe(false);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    check(Buffer.from(deep));
    check(Buffer.from(deep.slice(1)));
    check(Buffer.from('{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)));
  });
});
