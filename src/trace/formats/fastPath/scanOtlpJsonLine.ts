/**
 * scanOtlpJsonLine — read one OTLP/JSON request line by parsing only the spans that carry the routing marker.
 *
 * In agent traces about one span in twenty is a routing span, but nearly every exported batch holds one, so the
 * line-level pre-filter skips little and JSON.parse of whole requests dominated the read. Here the line's
 * bytes are walked once (strings skipped, brackets matched, the bytes between tokens checked to be JSON's) to
 * find each span object; a span whose bytes hold ROUTING_MARKER is sliced out and JSON.parsed on its own, as is
 * the resource of its `resourceSpans` item, and the others are only counted. The result is a request value
 * holding those spans in their order (a skipped span is a `0` placeholder, which readOtlpResourceSpans counts
 * as plain exactly as it counts a span without routing keys), read by the same code as a whole parse, so
 * records, stats and duplicates come out as a whole parse gives them.
 *
 * It only handles the plain shape the Collector writes: `{"resourceSpans":[…]}` with no other top-level key,
 * `scopeSpans` (not the legacy name), no key twice, and no `\u` escape of a character that keys and the marker
 * are made of (letters, digits, `.`, `_`, `-`): such a marker or key would be missed. Escapes of anything else
 * (`\u003c` from HTML-escaping encoders, control characters, non-ASCII from ASCII-only ones) are fine: they are
 * only skipped over, or parsed by JSON.parse with the span that holds them. Anything else — or any doubt: a
 * broken token, brackets that do not match, bytes after the request, a slice that does not parse — returns
 * undefined, nothing recorded, and the caller parses the line whole, with its bad-line reporting unchanged.
 * As for lines without the marker, a byte flipped inside a non-routing span's strings or numbers is not seen:
 * the price of not parsing. No I/O.
 */
import { escapesAWordCharacter } from './escapesAWordCharacter.js';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  JSON_SPACE,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from '../jsonBytes.js';

const FAIL = -1;
/** Bytes of a string skipped one by one before a native search takes over. */
const SHORT_STRING = 48;

const KEY_RESOURCE_SPANS = Buffer.from('resourceSpans');
const KEY_RESOURCE = Buffer.from('resource');
const KEY_SCOPE_SPANS = Buffer.from('scopeSpans');
const KEY_LEGACY_SCOPE_SPANS = Buffer.from('instrumentationLibrarySpans');
const KEY_SPANS = Buffer.from('spans');

/** Bytes that may appear outside strings besides brackets, commas and colons: numbers, literals, space. */
const SCALAR_BYTE = new Uint8Array(256);
for (const c of '0123456789+-.eE') SCALAR_BYTE[c.charCodeAt(0)] = 1;
for (const c of 'truefalsn') SCALAR_BYTE[c.charCodeAt(0)] = 1;

/** What a byte outside strings is, inside a container: one table lookup per byte instead of a chain of tests. */
const BAD = 0;
const PLAIN = 1;
const STRING = 2;
const OPEN_OBJECT = 3;
const OPEN_ARRAY = 4;
const CLOSE_OBJECT = 5;
const CLOSE_ARRAY = 6;
const BYTE_CLASS = new Uint8Array(256).fill(BAD);
for (let c = 0; c < 256; c++) if (SCALAR_BYTE[c] === 1 || JSON_SPACE[c] === 1) BYTE_CLASS[c] = PLAIN;
BYTE_CLASS[COMMA] = PLAIN;
BYTE_CLASS[COLON] = PLAIN;
BYTE_CLASS[QUOTE] = STRING;
BYTE_CLASS[OPEN_BRACE] = OPEN_OBJECT;
BYTE_CLASS[OPEN_BRACKET] = OPEN_ARRAY;
BYTE_CLASS[CLOSE_BRACE] = CLOSE_OBJECT;
BYTE_CLASS[CLOSE_BRACKET] = CLOSE_ARRAY;
/** Levels of nesting inside one value whose bracket kinds are kept as bits; deeper ones go to an array. */
const MAX_DEPTH = 30;

/** A request rebuilt from the parsed slices; skipped spans are `0` (readOtlpResourceSpans counts them as plain). */
interface Rebuilt {
  resource?: unknown;
  scopeSpans: Array<{ spans: unknown[] }>;
}

/** The scanner over one line; positions are byte offsets into `buf`. */
class LineScanner {
  /** The next marker at or after the last range asked about; -2 until first asked. */
  private nextMarker = -2;

  constructor(
    private readonly buf: Buffer,
    private readonly marker: Buffer,
  ) {}

  skipSpace(i: number): number {
    const buf = this.buf;
    while (i < buf.length && JSON_SPACE[buf[i]!] === 1) i++;
    return i;
  }

  /**
   * `i` at an opening quote: the index just past the closing quote, or FAIL. Short strings (keys, ids) are
   * skipped byte by byte; past SHORT_STRING bytes a native search for the quote takes over (prompts and
   * completions run to kilobytes), a quote counting as the end when an even run of backslashes precedes it.
   */
  skipString(i: number): number {
    const buf = this.buf;
    const end = buf.length;
    const stop = Math.min(end, i + SHORT_STRING);
    for (i++; i < stop; i++) {
      const c = buf[i]!;
      if (c === QUOTE) return i + 1;
      if (c === BACKSLASH) i++;
    }
    if (i >= end) return FAIL;
    // Resume at i (never inside an escape: the loop stepped over every escaped byte).
    for (let q = buf.indexOf(QUOTE, i); q !== -1; q = buf.indexOf(QUOTE, q + 1)) {
      let backslashes = 0;
      while (q - 1 - backslashes >= i && buf[q - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return q + 1;
    }
    return FAIL;
  }

  /** `i` at the start of any value: the index just past it, or FAIL. Brackets must match by kind. */
  skipValue(i: number): number {
    const buf = this.buf;
    const end = buf.length;
    const first = buf[i];
    if (first === QUOTE) return this.skipString(i);
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
      const start = i;
      while (i < end && SCALAR_BYTE[buf[i]!] === 1) i++;
      return i === start ? FAIL : i;
    }
    // A container. The kinds of the open brackets (1 = object) are bits of `open` for the first MAX_DEPTH
    // levels, innermost lowest, and an array past that (rare); a closer must match the innermost kind.
    let open = first === OPEN_BRACE ? 1 : 0;
    let deeper: number[] | undefined;
    let depth = 1;
    for (i++; i < end; i++) {
      const byteClass = BYTE_CLASS[buf[i]!];
      switch (byteClass) {
        case PLAIN:
          break;
        case STRING:
          i = this.skipString(i) - 1;
          if (i < 0) return FAIL;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY: {
          const kind = byteClass === OPEN_OBJECT ? 1 : 0;
          if (depth < MAX_DEPTH) open = open * 2 + kind;
          else (deeper ??= []).push(kind);
          depth++;
          break;
        }
        case CLOSE_OBJECT:
        case CLOSE_ARRAY: {
          const kind = depth > MAX_DEPTH ? deeper!.pop()! : open % 2;
          if (kind !== (byteClass === CLOSE_OBJECT ? 1 : 0)) return FAIL;
          if (depth <= MAX_DEPTH) open = (open - kind) / 2;
          if (--depth === 0) return i + 1;
          break;
        }
        default:
          return FAIL;
      }
    }
    return FAIL;
  }

  /** Is the key string at `i` (its opening quote) exactly `name`, written without escapes? */
  keyIs(i: number, keyEnd: number, name: Buffer): boolean {
    return keyEnd - i - 2 === name.length && this.buf.compare(name, 0, name.length, i + 1, keyEnd - 1) === 0;
  }

  /** Does the byte range [start, end) contain the marker? (Ranges are asked in increasing order.) */
  holdsMarker(start: number, end: number): boolean {
    if (this.nextMarker === -2 || (this.nextMarker !== -1 && this.nextMarker < start))
      this.nextMarker = this.buf.indexOf(this.marker, start);
    return this.nextMarker !== -1 && this.nextMarker + this.marker.length <= end;
  }

  /**
   * Walk the members of the object at `i` (its `{`), calling `member(keyStart, keyEnd, valueStart)` for each,
   * which returns the index past the value or FAIL. Returns the index past the object, or FAIL.
   */
  eachMember(i: number, member: (keyStart: number, keyEnd: number, valueStart: number) => number): number {
    const buf = this.buf;
    if (buf[i] !== OPEN_BRACE) return FAIL;
    i = this.skipSpace(i + 1);
    if (buf[i] === CLOSE_BRACE) return i + 1;
    for (;;) {
      if (buf[i] !== QUOTE) return FAIL;
      const keyEnd = this.skipString(i);
      if (keyEnd === FAIL) return FAIL;
      const colon = this.skipSpace(keyEnd);
      if (buf[colon] !== COLON) return FAIL;
      const after = member(i, keyEnd, this.skipSpace(colon + 1));
      if (after === FAIL) return FAIL;
      i = this.skipSpace(after);
      if (buf[i] === CLOSE_BRACE) return i + 1;
      if (buf[i] !== COMMA) return FAIL;
      i = this.skipSpace(i + 1);
    }
  }

  /** Walk the items of the array at `i` (its `[`); `item(start)` returns the index past it or FAIL. */
  eachItem(i: number, item: (start: number) => number): number {
    const buf = this.buf;
    if (buf[i] !== OPEN_BRACKET) return FAIL;
    i = this.skipSpace(i + 1);
    if (buf[i] === CLOSE_BRACKET) return i + 1;
    for (;;) {
      const after = item(i);
      if (after === FAIL) return FAIL;
      i = this.skipSpace(after);
      if (buf[i] === CLOSE_BRACKET) return i + 1;
      if (buf[i] !== COMMA) return FAIL;
      i = this.skipSpace(i + 1);
    }
  }

  /** JSON.parse of the byte range, or FAILED_PARSE. */
  parse(start: number, end: number): unknown {
    try {
      return JSON.parse(this.buf.toString('utf8', start, end)) as unknown;
    } catch {
      return FAILED_PARSE;
    }
  }
}

const FAILED_PARSE: unique symbol = Symbol('failed parse');

/** The spans of one `scopeSpans` item: marker spans parsed, others `0`. Returns the index past it or FAIL. */
function scanScope(scanner: LineScanner, start: number, scopes: Rebuilt['scopeSpans']): number {
  let seenSpans = false;
  const spans: unknown[] = [];
  const after = scanner.eachMember(start, (keyStart, keyEnd, valueStart) => {
    if (!scanner.keyIs(keyStart, keyEnd, KEY_SPANS)) return scanner.skipValue(valueStart);
    if (seenSpans) return FAIL;
    seenSpans = true;
    return scanner.eachItem(valueStart, (spanStart) => {
      const spanEnd = scanner.skipValue(spanStart);
      if (spanEnd === FAIL) return FAIL;
      if (!scanner.holdsMarker(spanStart, spanEnd)) {
        spans.push(0);
        return spanEnd;
      }
      const span = scanner.parse(spanStart, spanEnd);
      if (span === FAILED_PARSE) return FAIL;
      spans.push(span);
      return spanEnd;
    });
  });
  // No `spans` (or not an array) reads as an empty scope; only an array is handled here.
  if (!seenSpans) return FAIL;
  scopes.push({ spans });
  return after;
}

/** One `resourceSpans` item. Returns the index past it or FAIL. */
function scanResourceSpans(scanner: LineScanner, start: number, out: Rebuilt[]): number {
  const rebuilt: Rebuilt = { scopeSpans: [] };
  let resourceStart = FAIL;
  let resourceEnd = FAIL;
  let seenScopes = false;
  const after = scanner.eachMember(start, (keyStart, keyEnd, valueStart) => {
    if (scanner.keyIs(keyStart, keyEnd, KEY_LEGACY_SCOPE_SPANS)) return FAIL;
    if (scanner.keyIs(keyStart, keyEnd, KEY_RESOURCE)) {
      if (resourceStart !== FAIL) return FAIL;
      resourceStart = valueStart;
      resourceEnd = scanner.skipValue(valueStart);
      return resourceEnd;
    }
    if (scanner.keyIs(keyStart, keyEnd, KEY_SCOPE_SPANS)) {
      if (seenScopes) return FAIL;
      seenScopes = true;
      return scanner.eachItem(valueStart, (scopeStart) => scanScope(scanner, scopeStart, rebuilt.scopeSpans));
    }
    return scanner.skipValue(valueStart);
  });
  if (after === FAIL || !seenScopes) return FAIL;
  const hasCandidate = rebuilt.scopeSpans.some((scope) => scope.spans.some((span) => span !== 0));
  if (hasCandidate && resourceStart !== FAIL) {
    const resource = scanner.parse(resourceStart, resourceEnd);
    if (resource === FAILED_PARSE) return FAIL;
    rebuilt.resource = resource;
  }
  out.push(rebuilt);
  return after;
}

/**
 * An OTLP/JSON request line (trimmed) as `{resourceSpans:[…]}` with only its `marker`-holding spans (and their
 * resources) parsed, or undefined when the line is not in the plain shape handled here.
 */
export function scanOtlpJsonLine(body: Buffer, marker: Buffer): { resourceSpans: unknown[] } | undefined {
  const list = scanRequest(body, marker);
  return list === undefined ? undefined : { resourceSpans: list };
}

/** Where a span or resource is: a byte range [start, end) of the line (skipToRoutingSpans). */
export interface Slice {
  readonly start: number;
  readonly end: number;
}

function scanRequest(body: Buffer, marker: Buffer): Rebuilt[] | undefined {
  if (escapesAWordCharacter(body)) return undefined;
  const scanner = new LineScanner(body, marker);
  const list: Rebuilt[] = [];
  let seenList = false;
  const end = scanner.eachMember(scanner.skipSpace(0), (keyStart, keyEnd, valueStart) => {
    if (!scanner.keyIs(keyStart, keyEnd, KEY_RESOURCE_SPANS) || seenList) return FAIL;
    seenList = true;
    return scanner.eachItem(valueStart, (itemStart) => scanResourceSpans(scanner, itemStart, list));
  });
  if (end === FAIL || !seenList || scanner.skipSpace(end) !== body.length) return undefined;
  return list;
}

/**
 * `start` at the first byte of a JSON value in `buf`: the index just past it, or -1 when it is not one (its
 * brackets do not match by kind, a string is not closed, a byte between tokens is not JSON's). Tokens are
 * checked as the scan checks them, not parsed: for finding one span's bytes (skipToRoutingSpans).
 */
export function endOfJsonValue(buf: Buffer, start: number): number {
  return new LineScanner(buf, NO_MARKER).skipValue(start);
}

/** The marker of a scanner that only skips values (never searched: holdsMarker is not asked). */
const NO_MARKER = Buffer.alloc(0);

/**
 * How many spans a request line holds, by the same walk with nothing parsed: every item of every `spans` list,
 * exactly as a whole parse counts them; undefined when the line is not in the plain shape handled here (the
 * caller parses it, so a line that is not a trace is reported). For lines without the marker.
 */
export function countOtlpJsonLineSpans(body: Buffer, marker: Buffer): number | undefined {
  const list = scanRequest(body, marker);
  if (list === undefined) return undefined;
  let spans = 0;
  for (const item of list) for (const scope of item.scopeSpans) spans += scope.spans.length;
  return spans;
}
