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
