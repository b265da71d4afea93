/**
 * normalizeSpanFields — ids in every spelling become one lower-case hex form; times keep their precision;
 * text from a trace is quoted inert.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  normalizeId,
  quoteForProblem,
  sanitizeMessage,
  unixMicrosToMs,
  unixNanosToMs,
} from '../../src/trace/normalizeSpanFields.js';

describe('normalizeId', () => {
  it('law: hex in either case, base64 and base64url of the id bytes all give the same lower-case hex', () => {
    fc.assert(
      fc.property(fc.constantFrom(8, 16), fc.uint8Array({ minLength: 16, maxLength: 16 }), (size, raw) => {
        const bytes = Buffer.from(raw.subarray(0, size));
        const hex = bytes.toString('hex');
        expect(normalizeId(hex, size)).toBe(hex);
        expect(normalizeId(hex.toUpperCase(), size)).toBe(hex);
        expect(normalizeId(bytes.toString('base64'), size)).toBe(hex);
        expect(normalizeId(bytes.toString('base64url'), size)).toBe(hex);
      }),
    );
  });

  it('short hex (Jaeger) is padded on the left', () => {
    expect(normalizeId('2', 8)).toBe('0000000000000002');
    expect(normalizeId('0000000000000001', 16)).toBe('00000000000000000000000000000001');
    expect(normalizeId('FF', 8)).toBe('00000000000000ff');
  });

  it('anything else is not an id', () => {
    for (const bad of [
      '',
      'zz',
      'a'.repeat(17),
      '\u001b[31m',
      'abc def',
      'AAAAAAAAAAAAAAAAAAAAAA==',
      42,
      null,
      undefined,
    ]) {
      expect(normalizeId(bad, 8), JSON.stringify(bad)).toBeUndefined();
    }
    expect(normalizeId('a'.repeat(33), 16)).toBeUndefined();
  });
});

describe('times', () => {
  it('nanosecond strings keep sub-millisecond precision beyond 2^53', () => {
    expect(unixNanosToMs('1544712660123456789')).toBeCloseTo(1544712660123.4568, 3);
    expect(unixNanosToMs(1544712660000000000)).toBe(1544712660000);
    expect(unixNanosToMs('999')).toBeCloseTo(0.000999, 9);
    expect(unixNanosToMs('12a')).toBeUndefined();
    expect(unixNanosToMs(undefined)).toBeUndefined();
  });

  it('Jaeger microseconds', () => {
    expect(unixMicrosToMs(1485467191639875)).toBe(1485467191639.875);
    expect(unixMicrosToMs('1485467191639875')).toBe(1485467191639.875);
    expect(unixMicrosToMs('x')).toBeUndefined();
  });
});

describe('problem text', () => {
  it('control, C1 and bidi characters are escaped, long values cut', () => {
    const quoted = quoteForProblem('\u001b]8;;x\u0007\n\u0085\u202e' + 'y'.repeat(200));
    // eslint-disable-next-line no-control-regex -- the point: none survive
    expect(quoted).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(quoted).toContain('\\u001b');
    expect(quoted).toContain('\\u202e');
    expect(quoted.length).toBeLessThan(120);
    // eslint-disable-next-line no-control-regex -- the point: none survive
    expect(sanitizeMessage('bad \u0000 \u2066 text')).not.toMatch(/[\u0000\u2066]/);
  });
});

describe('normalizeId: the edges', () => {
  it('a character outside base64 makes a string no id, even when the rest decodes to the right length', () => {
    expect(normalizeId('QUJDREVGR0g', 8)).toBe('4142434445464748');
    expect(normalizeId('!QUJDREVGR0g', 8)).toBeUndefined();
    expect(normalizeId('QUJDREVGR0g!', 8)).toBeUndefined();
  });
});

describe('times: the edges', () => {
  it('nanoseconds: up to 6 digits is a fraction of a millisecond, then whole milliseconds lead', () => {
    expect(unixNanosToMs('123456')).toBe(0.123456);
    expect(unixNanosToMs('1234567')).toBe(1.234567);
    expect(unixNanosToMs('12345678901234567890')).toBe(12345678901234 + 0.56789);
  });

  it('nanoseconds: digits only, 1 to 20 of them; a non-finite number is no time', () => {
    for (const bad of ['', ' 123', '123 ', '-5', '1e9', '1'.repeat(21), Infinity, NaN]) {
      expect(unixNanosToMs(bad), String(bad)).toBeUndefined();
    }
  });

  it('microseconds: a number or a non-empty numeric string; anything else is no time', () => {
    for (const bad of ['', '   ', '\t\n', null, true, [], Infinity, 'x']) {
      expect(unixMicrosToMs(bad), JSON.stringify(bad)).toBeUndefined();
    }
    expect(unixMicrosToMs('1500')).toBe(1.5);
  });
});

describe('problem text: the edges', () => {
  it('quoteForProblem: nothing for undefined; JSON for values; the string form when JSON has none or fails', () => {
    expect(quoteForProblem(undefined)).toBe('nothing');
    expect(quoteForProblem({ a: 1 })).toBe(JSON.stringify('{"a":1}'));
    expect(quoteForProblem(10n)).toBe('"10"');
    expect(quoteForProblem(Symbol('s'))).toBe('"Symbol(s)"');
  });

  it('quoteForProblem: up to 80 characters kept whole, past that cut with an ellipsis', () => {
    expect(quoteForProblem('x'.repeat(80))).toBe(JSON.stringify('x'.repeat(80)));
    expect(quoteForProblem('x'.repeat(81))).toBe(JSON.stringify(`${'x'.repeat(80)}…`));
  });

  it('C1 and bidi controls are written as \\u escapes of their code', () => {
    expect(quoteForProblem('a\u0085b\u202ec')).toBe('"a\\u0085b\\u202ec"');
    expect(sanitizeMessage('a\u0000b\u2066c')).toBe('a\\u0000b\\u2066c');
  });

  it('sanitizeMessage: up to max characters kept whole (200 unless given), past that cut with an ellipsis', () => {
    expect(sanitizeMessage('y'.repeat(200))).toBe('y'.repeat(200));
    expect(sanitizeMessage('y'.repeat(201))).toBe(`${'y'.repeat(200)}…`);
    expect(sanitizeMessage('abcdef', 3)).toBe('abc…');
    expect(sanitizeMessage('abc', 3)).toBe('abc');
  });
});
