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
   * taken out of `tenant 1 unknown` but a status `HTTP 401` stays readable.
   */
  redact(text: string): string {
    const secrets = new Set<string>();
    for (const [name, value] of this.#entries) {
      secrets.add(value);
      const credentials = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ +(\S.*)$/.exec(value)?.[1];
      if (/^(proxy-)?authorization$/i.test(name) && credentials !== undefined) secrets.add(credentials);
    }
    const alternatives = [...secrets]
      .filter((v) => v !== '')
      .sort((a, b) => b.length - a.length)
      .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    if (alternatives.length === 0) return text;
    return text.replace(
      new RegExp(`(?<![A-Za-z0-9])(?:${alternatives.join('|')})(?![A-Za-z0-9])`, 'g'),
      REDACTED,
    );
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
