/**
 * requestHeaders — headers sent to a trace store whose values are secrets: sent on every request, never shown.
 *
 * A deployed store sits behind credentials (`Authorization: Bearer …` or `Basic …`) and, for multi-tenant Tempo,
 * wants its tenant in `X-Scope-OrgID`. The values live in a private field, so printing, logging or serializing
 * the holder (String, JSON.stringify, util.inspect, a stack trace) shows the header names only; `redact` takes
 * the values out of any text a store sends back before it reaches a message. Names and values are checked by
 * whoever builds one (the CLI); this module assumes they are valid. No I/O.
 */
import { inspect } from 'node:util';

/** What stands in for a header value wherever it would have been shown. */
export const REDACTED = '[redacted]';

/** Request headers for a trace store; the values are never part of any output. */
export class RequestHeaders {
  readonly #entries: ReadonlyArray<readonly [string, string]>;

  /** `entries` as [name, value]; names are unique case-insensitively and values valid field values. */
  constructor(entries: ReadonlyArray<readonly [string, string]>) {
    this.#entries = entries.map(([name, value]) => [name, value] as const);
  }

  /** The header names, as given. */
  get names(): string[] {
    return this.#entries.map(([name]) => name);
  }

  /** The headers to send, for fetch. */
  toHeaders(): Headers {
    return new Headers(this.#entries.map(([name, value]) => [name, value]));
  }

  /**
   * `text` with every header value in it, and the credentials of an `Authorization` value on their own, replaced
   * by REDACTED. A value counts where it is not part of a longer run of letters and digits, so a tenant `1` is
   * taken out of `tenant 1 unknown` but a status `HTTP 401` stays readable. Found by plain search, never by a
   * pattern built from the values: a value of any length (a long JWT) is redacted, and nothing about it can make
   * the redaction itself fail and show it. Where two values overlap, the earlier wins, then the longer.
   */
  redact(text: string): string {
    const secrets = new Set<string>();
    for (const [name, value] of this.#entries) {
      secrets.add(value);
      const credentials = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ +(\S.*)$/.exec(value)?.[1];
      if (/^(proxy-)?authorization$/i.test(name) && credentials !== undefined) secrets.add(credentials);
    }
    const hits: Array<readonly [start: number, end: number]> = [];
    for (const secret of secrets) {
      if (secret === '') continue;
      for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
        const end = at + secret.length;
        if (!isWordChar(text.charCodeAt(at - 1)) && !isWordChar(text.charCodeAt(end))) hits.push([at, end]);
      }
    }
    if (hits.length === 0) return text;
    hits.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let out = '';
    let done = 0;
    for (const [start, end] of hits) {
      if (start < done) continue;
      out += text.slice(done, start) + REDACTED;
      done = end;
    }
    return out + text.slice(done);
  }

  /** Names only. */
  toString(): string {
    return `headers ${this.names.join(', ')} (values not shown)`;
  }

  /** Names only, with the values redacted. */
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.#entries.map(([name]) => [name, REDACTED]));
  }

  [inspect.custom](): string {
    return `RequestHeaders { ${this.names.map((n) => `${n}: ${REDACTED}`).join(', ')} }`;
  }
}

/** An ASCII letter or digit (NaN, off either end of the text, is not). */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}
