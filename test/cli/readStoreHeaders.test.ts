// readStoreHeaders: `--header 'Name: value'` parsed and checked before any request, `${NAME}` read from the
// environment, every malformed header a usage error that never quotes what was typed.
import { describe, expect, it } from 'vitest';
import { readStoreHeaders } from '../../src/cli/readStoreHeaders.js';
import { UsageError } from '../../src/cli/usageError.js';
import type { RequestHeaders } from '../../src/trace/stores/requestHeaders.js';

const SECRET = 'sk-live-4f9a2c71d0';

/** The headers as fetch would send them, by lowercased name. */
function sent(headers: RequestHeaders | undefined): Record<string, string> {
  return Object.fromEntries(headers?.toHeaders().entries() ?? []);
}

/** The UsageError `--header texts` give; anything else fails the test. */
function refusal(texts: string[], env: Record<string, string | undefined> = {}): string {
  try {
    readStoreHeaders({ header: texts }, env);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('--header', () => {
  it('no --header: no headers', () => {
    expect(readStoreHeaders({}, {})).toBeUndefined();
  });

  it("'Name: value', repeatable; whitespace around the value is not part of it", () => {
    const headers = readStoreHeaders(
      { header: ['Authorization:   Bearer abc.def  ', 'X-Scope-OrgID:tenant-1'] },
      {},
    );
    expect(sent(headers)).toEqual({ authorization: 'Bearer abc.def', 'x-scope-orgid': 'tenant-1' });
    expect(headers!.names).toEqual(['Authorization', 'X-Scope-OrgID']);
  });

  it('a colon inside the value is kept (only the first one splits)', () => {
    expect(sent(readStoreHeaders({ header: 'X-Token: a:b:c' }, {}))).toEqual({ 'x-token': 'a:b:c' });
  });

  it('${NAME} is replaced by the environment variable, with text around it', () => {
    const headers = readStoreHeaders(
      { header: ['Authorization: Bearer ${ROUTESCOPE_TOKEN}', 'X-Scope-OrgID: ${TENANT}|ops'] },
      { ROUTESCOPE_TOKEN: SECRET, TENANT: 'team-a' },
    );
    expect(sent(headers)).toEqual({ authorization: `Bearer ${SECRET}`, 'x-scope-orgid': 'team-a|ops' });
  });

  it('a line break at the end of a variable (a token read from a file) is dropped', () => {
    const headers = readStoreHeaders({ header: 'Authorization: ${T}' }, { T: `Bearer ${SECRET}\n` });
    expect(sent(headers)).toEqual({ authorization: `Bearer ${SECRET}` });
  });

  it('a line break at the end of a typed value is dropped, as the docs say; one inside it is refused', () => {
    expect(sent(readStoreHeaders({ header: [`Authorization: Bearer ${SECRET}\n`] }, {}))).toEqual({
      authorization: `Bearer ${SECRET}`,
    });
    expect(sent(readStoreHeaders({ header: [`X-Scope-OrgID: tenant-1\r\n`] }, {}))).toEqual({
      'x-scope-orgid': 'tenant-1',
    });
    expect(refusal([`Authorization: Bearer\n${SECRET}`])).toContain('no HTTP header may carry');
  });

  it('Latin-1 letters past the C1 block are a value like any other', () => {
    expect(sent(readStoreHeaders({ header: ['X-Team: caf\u00e9'] }, {}))).toEqual({ 'x-team': 'caf\u00e9' });
  });

  it('$$ is a literal $, and a $ before anything but { or $ stays as it is', () => {
    expect(sent(readStoreHeaders({ header: 'X-Price: $$${A} $5' }, { A: 'x' }))).toEqual({
      'x-price': '$x $5',
    });
    expect(sent(readStoreHeaders({ header: 'X-Literal: $${NOT_READ}' }, {}))).toEqual({
      'x-literal': '${NOT_READ}',
    });
  });

  it('an unset or empty variable is a usage error naming the variable and the header', () => {
    expect(refusal(['Authorization: Bearer ${ROUTESCOPE_TOKEN}'])).toBe(
      '--header (Authorization) reads environment variable ROUTESCOPE_TOKEN, which is not set',
    );
    expect(refusal(['Authorization: ${T}'], { T: '' })).toContain('T, which is empty');
  });

  it('a variable holding a line break inside it is refused without showing it', () => {
    const message = refusal(['Authorization: ${T}'], { T: `Bearer ${SECRET}\r\nX-Evil: 1` });
    expect(message).toContain('holds a character no HTTP header may carry');
    expect(message).not.toContain(SECRET);
  });

  it('no colon: a usage error that says how to write it and does not echo the text', () => {
    const message = refusal(['X-Scope-OrgID: t', `Bearer ${SECRET}`]);
    expect(message).toContain("--header #2 has no ':' between a name and a value");
    expect(message).not.toContain(SECRET);
  });

  it('a name that is not one token (a space, an empty name) is refused without echoing it', () => {
    for (const text of [`Bearer ${SECRET}: x`, `: ${SECRET}`, `Authorization : ${SECRET}`]) {
      const message = refusal([text]);
      expect(message, text).toContain('the name before');
      expect(message, text).not.toContain(SECRET);
    }
  });

  it('an empty value is refused', () => {
    expect(refusal(['X-Scope-OrgID:   '])).toContain('(X-Scope-OrgID) has an empty value');
  });

  it('a control character or a character beyond Latin-1 in the value is refused without showing it', () => {
    for (const text of [
      `Authorization: ${SECRET}\u0000`,
      `Authorization: ${SECRET}\u20ac`,
      `Authorization: ${SECRET}\u0085tail`, // NEL, a C1 control
      `Authorization: ${SECRET}\u009b[31m`, // CSI, a C1 control
      `Authorization: ${SECRET}\u007f`,
    ]) {
      const message = refusal([text]);
      expect(message).toContain('no HTTP header may carry');
      expect(message).not.toContain(SECRET);
    }
  });

  it('a malformed ${…} reference is refused without showing the value', () => {
    for (const text of [`X-Token: ${SECRET}\${`, `X-Token: \${${SECRET}-x}`, `X-Token: \${} ${SECRET}`]) {
      const message = refusal([text]);
      expect(message, text).toContain("a '${' in the value must name an environment variable");
      expect(message, text).not.toContain(SECRET);
    }
  });

  it('the same header twice, in any case, is refused', () => {
    expect(refusal(['X-Scope-OrgID: a', 'x-scope-orgid: b'])).toContain(
      '--header #2 (x-scope-orgid) names a header --header #1 already gives',
    );
  });

  it('headers the HTTP client sets itself are refused', () => {
    for (const name of ['Host', 'content-length', 'Transfer-Encoding', 'Connection']) {
      expect(refusal([`${name}: x`])).toContain(`${name} is set by the HTTP client itself`);
    }
  });
});
