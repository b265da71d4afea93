/**
 * readStoreHeaders — `--header 'Name: value'` for the trace stores: credentials, a Tempo tenant.
 *
 * A deployed Tempo or Jaeger sits behind a proxy that wants `Authorization` (bearer or basic), and a
 * multi-tenant Tempo wants `X-Scope-OrgID`. A secret typed on the command line shows in process lists and shell
 * history, so a value may name environment variables instead: `${NAME}` is replaced by that variable's value
 * (`--header 'Authorization: Bearer ${ROUTESCOPE_TOKEN}'`, single-quoted so the shell leaves it alone), and
 * `$$` is a literal `$`. Everything is checked before any request, and a bad header is a usage error that
 * names it by position and says what is wrong, without echoing what was typed: the text may be a secret.
 * The values then travel in a RequestHeaders, which shows names only. See docs/sources.md.
 */
import type { Argv } from 'yargs';
import { RequestHeaders } from '../trace/stores/requestHeaders.js';
import type { CliArgs } from './cliCommand.js';
import { UsageError } from './usageError.js';

/** The environment `${NAME}` references are read from. */
export type HeaderEnvironment = Readonly<Record<string, string | undefined>>;

/** The repeatable `--header` option. */
export function withStoreHeaders(y: Argv): Argv {
  return y.option('header', {
    type: 'string',
    array: true,
    requiresArg: true,
    describe:
      "HTTP header sent to the trace stores, 'Name: value'; ${NAME} in the value reads environment variable NAME; repeatable; values are never printed",
  });
}

// RFC 9110 §5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// RFC 9110 §5.5: a field value is visible characters, spaces, tabs and obs-text; no control characters, the C1
// ones (U+0080–U+009F, which obs-text would let through as bytes) included.
const FIELD_VALUE = /^[\t\x20-\x7e\xa0-\xff]*$/;
// Spaces, tabs and line breaks at either end are not part of a value (docs/sources.md).
const AROUND_VALUE = /^[ \t\r\n]+|[ \t\r\n]+$/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// Framing and connection headers the HTTP client sets itself; sending them by hand breaks the request.
const CLIENT_OWNED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

/** One `--header` as typed, with its value still holding `${NAME}` references. */
interface HeaderOption {
  readonly name: string;
  /** Literal text and variable references, in order. */
  readonly parts: ReadonlyArray<{ readonly text: string } | { readonly variable: string }>;
}

/** `--header #n`: how a header is named in messages, since its text is never echoed. */
function describePosition(index: number, count: number): string {
  return count === 1 ? '--header' : `--header #${index + 1}`;
}

/** Split a value into literal text and `${NAME}` references; undefined when a reference is malformed. */
function splitReferences(value: string): HeaderOption['parts'] | undefined {
  const parts: Array<{ text: string } | { variable: string }> = [];
  let text = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c !== '$') {
      text += c;
    } else if (value[i + 1] === '$') {
      text += '$';
      i++;
    } else if (value[i + 1] === '{') {
      const end = value.indexOf('}', i + 2);
      const variable = end === -1 ? '' : value.slice(i + 2, end);
      if (!VARIABLE_NAME.test(variable)) return undefined;
      if (text !== '') parts.push({ text });
      text = '';
      parts.push({ variable });
      i = end;
    } else {
      text += c;
    }
  }
  if (text !== '') parts.push({ text });
  return parts;
}

/** Parse one `--header` text; a usage error (never quoting the text) when it is not `Name: value`. */
function parseHeaderOption(raw: string, where: string): HeaderOption {
  const colon = raw.indexOf(':');
  if (colon === -1) {
    throw new UsageError(
      `${where} has no ':' between a name and a value; write it as 'Name: value', e.g. 'X-Scope-OrgID: tenant-1' (the text is not shown: it may be a secret)`,
    );
  }
  const name = raw.slice(0, colon);
  if (!TOKEN.test(name)) {
    throw new UsageError(
      `${where}: the name before ':' must be one word of letters, digits and - (such as Authorization or X-Scope-OrgID), with no space before the ':' (the text is not shown: it may be a secret)`,
    );
  }
  if (CLIENT_OWNED.has(name.toLowerCase())) {
    throw new UsageError(
      `${where}: ${name} is set by the HTTP client itself and cannot be sent with --header`,
    );
  }
  // RFC 9110 §5.5: whitespace around a value is not part of it; nor is a line break at its end (a value pasted
  // from a file often ends in one), as the docs say.
  const value = raw.slice(colon + 1).replace(AROUND_VALUE, '');
  if (value === '') throw new UsageError(`${where} (${name}) has an empty value; write it as 'Name: value'`);
  if (!FIELD_VALUE.test(value)) {
    throw new UsageError(
      `${where} (${name}): the value holds a character no HTTP header may carry (a control character such as a line break, or one beyond Latin-1) (the value is not shown)`,
    );
  }
  const parts = splitReferences(value);
  if (parts === undefined) {
    throw new UsageError(
      `${where} (${name}): a '\${' in the value must name an environment variable and close with '}', such as \${ROUTESCOPE_TOKEN}; write $$ for a literal $ (the value is not shown)`,
    );
  }
  return { name, parts };
}

/** The value of a header with its references read from `env`; a usage error naming an unset variable. */
function fillValue(option: HeaderOption, where: string, env: HeaderEnvironment): string {
  let value = '';
  for (const part of option.parts) {
    if ('text' in part) {
      value += part.text;
      continue;
    }
    const found = env[part.variable];
    if (found === undefined || found === '') {
      throw new UsageError(
        `${where} (${option.name}) reads environment variable ${part.variable}, which is ${found === undefined ? 'not set' : 'empty'}`,
      );
    }
    value += found;
  }
  // A variable may end in a line break (`$(cat token)` keeps none, a file read by hand may); trim as the value.
  value = value.replace(AROUND_VALUE, '');
  if (value === '' || !FIELD_VALUE.test(value)) {
    throw new UsageError(
      `${where} (${option.name}): the value read from the environment ${value === '' ? 'is blank' : 'holds a character no HTTP header may carry (a control character such as a line break, or one beyond Latin-1)'} (the value is not shown)`,
    );
  }
  return value;
}

/**
 * The headers of every `--header`, their `${NAME}` references filled from `env`; undefined when there are none.
 * Throws a UsageError for a malformed header, a name given twice, or a variable that is not set.
 */
export function readStoreHeaders(args: CliArgs, env: HeaderEnvironment): RequestHeaders | undefined {
  const raw = args.header;
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  if (list.length === 0) return undefined;
  const seen = new Map<string, string>();
  const entries = list.map((text, index) => {
    const where = describePosition(index, list.length);
    const option = parseHeaderOption(text, where);
    const key = option.name.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new UsageError(
        `${where} (${option.name}) names a header ${earlier} already gives; give each header once (Tempo reads several tenants from one X-Scope-OrgID value, 'a|b')`,
      );
    }
    seen.set(key, where);
    return [option.name, fillValue(option, where, env)] as const;
  });
  return new RequestHeaders(entries);
}
