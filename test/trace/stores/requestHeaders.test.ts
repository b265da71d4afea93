// RequestHeaders: the values are sent and never shown — not by String, JSON.stringify or util.inspect of the
// holder or of anything holding it — and redact takes them out of text a store sends back.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../helpers/propertyRuns.js';
import { REDACTED, RequestHeaders } from '../../../src/trace/stores/requestHeaders.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.x-9_Q';
const headers = new RequestHeaders([
  ['Authorization', `Bearer ${TOKEN}`],
  ['X-Scope-OrgID', '1'],
]);

describe('RequestHeaders', () => {
  it('toHeaders gives every header to send', () => {
    expect(Object.fromEntries(headers.toHeaders().entries())).toEqual({
      authorization: `Bearer ${TOKEN}`,
      'x-scope-orgid': '1',
    });
  });

  it('String, JSON.stringify and util.inspect show the names only, also inside a config object', () => {
    const config = { kind: 'tempo', url: 'http://tempo:3200', http: { headers } };
    for (const text of [
      String(headers),
      `${headers}`,
      JSON.stringify(config),
      inspect(config, { depth: 10, showHidden: true }),
      inspect(headers),
    ]) {
      expect(text).toContain('Authorization');
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('Bearer');
    }
    expect(JSON.parse(JSON.stringify(config)).http.headers).toEqual({
      Authorization: REDACTED,
      'X-Scope-OrgID': REDACTED,
    });
  });

  it('redact takes out a whole value and the credentials of an Authorization value on their own', () => {
    expect(headers.redact(`rejected 'Bearer ${TOKEN}' for tenant 1`)).toBe(
      `rejected '${REDACTED}' for tenant ${REDACTED}`,
    );
    expect(headers.redact(`token ${TOKEN} expired`)).toBe(`token ${REDACTED} expired`);
  });

  it('redact leaves a value that is only part of a longer word or number (HTTP 401, tenant 12)', () => {
    expect(headers.redact('HTTP 401 for tenant 12')).toBe('HTTP 401 for tenant 12');
  });

  it('redact treats regular-expression characters in a value as text', () => {
    const odd = new RequestHeaders([['X-Key', 'a.b*(c)']]);
    expect(odd.redact('got a.b*(c) not aXb')).toBe(`got ${REDACTED} not aXb`);
  });

  it('redacts a value of any length: a 40,000-character bearer token, which no pattern of it could hold', () => {
    const jwt = `eyJ${'a1B2'.repeat(10_000)}.sig`;
    const long = new RequestHeaders([['Authorization', `Bearer ${jwt}`]]);
    const text = long.redact(`401 for 'Bearer ${jwt}', token ${jwt}.`);
    expect(text).toBe(`401 for '${REDACTED}', token ${REDACTED}.`);
  });

  it('law: the same text as the pattern it replaced (alternatives longest first, bounded by non-alphanumerics)', () => {
    const piece = fc.constantFrom('a', 'b', '1', '.', ' ', '-', '(', 'ab', 'a.b');
    const value = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join('').trim() || 'x');
    // Texts made of the values themselves and the pieces they are made of, so values overlap and abut.
    const case_ = fc
      .array(value, { minLength: 1, maxLength: 3 })
      .chain((values) =>
        fc.tuple(
          fc.constant(values),
          fc.array(fc.oneof(piece, fc.constantFrom(...values)), { maxLength: 12 }),
        ),
      );
    fc.assert(
      fc.property(case_, ([values, parts]) => {
        const unique = [...new Set(values)];
        const h = new RequestHeaders(unique.map((v, i) => [`X-H${i}`, v] as const));
        const text = parts.join('');
        const alternatives = [...unique]
          .sort((a, b) => b.length - a.length)
          .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
        const oracle = text.replace(
          new RegExp(`(?<![A-Za-z0-9])(?:${alternatives.join('|')})(?![A-Za-z0-9])`, 'g'),
          REDACTED,
        );
        expect(h.redact(text)).toBe(oracle);
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
