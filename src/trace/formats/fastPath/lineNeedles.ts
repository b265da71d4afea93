/**
 * lineNeedles — what skipToRoutingSpans searches a whole line for, found by one of two scanners.
 *
 * skipToRoutingSpans needs six searches over every byte of a line: the `"spanId":"` and `"traceId":"` keys
 * (counted), each `"scopeSpans":[` key, routing marker and span opener `{"traceId":"` (where), and two reasons
 * to decline (a span with links; a `\u` escape spelling a key character). The rest of its work touches only
 * the routing spans and the line's ends. Here are those searches as Buffer#indexOf passes (findNeedlesByIndexOf, the
 * JavaScript scanner); simd/simdNeedles finds the same needles in one WebAssembly SIMD pass. Both give the
 * same answer for every line, which the tests check byte for byte. No I/O.
 */
import { escapesAWordCharacter } from './escapesAWordCharacter.js';
import { CLOSE_BRACKET } from '../jsonBytes.js';

/** The whole-line needles of one line, as skipToRoutingSpans reads them. */
export interface LineNeedles {
  /** How many `"spanId":"` keys (a parent's `"parentSpanId":"` is not one). */
  readonly spanIdKeys: number;
  /** How many `"traceId":"` keys. */
  readonly traceIdKeys: number;
  /** Where each `"scopeSpans":[` key starts (its quote), in order. */
  readonly scopeKeys: ArrayLike<number>;
  /** Where the first routing marker at or after `from` starts; -1 when there is none. */
  markerFrom(from: number): number;
  /** Where the first span opener (`{"traceId":"`) at or after `from` starts; -1 when there is none. */
  spanOpenerFrom(from: number): number;
  /** Where the last span opener lying wholly in [floor, to) starts; -1 when there is none. */
  spanOpenerBefore(floor: number, to: number): number;
}

/**
 * A line's needles, or undefined when the line is declined: a span has links (`"links":[` not followed by
 * `]`), a `\u` escape spells a key character (escapesAWordCharacter), or a `Spans":[` key past the request's
 * own is not a scope's (the legacy `instrumentationLibrarySpans`, another shape). `requestKeyAt` is where the
 * request's own `Spans":[` is (the caller has checked the line opens with `{"resourceSpans":[{`).
 */
export type FindNeedles = (body: Buffer, marker: Buffer, requestKeyAt: number) => LineNeedles | undefined;

/** The tail of `"traceId":"`, `"spanId":"` and `"parentSpanId":"`: one search finds all three. */
const ID_KEY_TAIL = Buffer.from('Id":"');
/** The tail of `"scopeSpans":[`, `"resourceSpans":[` and `"instrumentationLibrarySpans":[`. */
const SPANS_KEY_TAIL = Buffer.from('Spans":[');
const LINKS_KEY_TAIL = Buffer.from('ks":[');
const QUOTE_SPAN = Buffer.from('"span');
const QUOTE_TRACE = Buffer.from('"trace');
const QUOTE_SCOPE = Buffer.from('"scope');
/** How every span object of the Collector's compact JSON opens. */
export const SPAN_OPENER = Buffer.from('{"traceId":"');

/**
 * Do the bytes from `at` spell `word`? (Outside the line a byte reads undefined, which spells nothing.) A byte
 * loop: the words are a few bytes, and Buffer#compare's checks cost more than the comparison.
 */
export function bytesAre(body: Buffer, at: number, word: Buffer): boolean {
  for (let k = 0; k < word.length; k++) if (body[at + k] !== word[k]) return false;
  return true;
}

/** Do the bytes just before `at` spell `word`? */
function endsWith(body: Buffer, at: number, word: Buffer): boolean {
  return bytesAre(body, at - word.length, word);
}

/**
 * The JavaScript scanner: each needle by Buffer#indexOf over the line, the markers and span openers found as
 * they are asked for.
 */
export const findNeedlesByIndexOf: FindNeedles = (body, marker, requestKeyAt) => {
  if (holdsLinks(body) || escapesAWordCharacter(body)) return undefined;
  let spanIdKeys = 0;
  let traceIdKeys = 0;
  for (let at = body.indexOf(ID_KEY_TAIL); at !== -1; at = body.indexOf(ID_KEY_TAIL, at + 5)) {
    if (endsWith(body, at, QUOTE_SPAN)) spanIdKeys++;
    else if (endsWith(body, at, QUOTE_TRACE)) traceIdKeys++;
  }
  const scopeKeys: number[] = [];
  for (let at = body.indexOf(SPANS_KEY_TAIL); at !== -1; at = body.indexOf(SPANS_KEY_TAIL, at + 8)) {
    if (at === requestKeyAt) continue;
    if (!endsWith(body, at, QUOTE_SCOPE)) return undefined;
    scopeKeys.push(at - QUOTE_SCOPE.length);
  }
  return {
    spanIdKeys,
    traceIdKeys,
    scopeKeys,
    markerFrom: (from) => body.indexOf(marker, from),
    spanOpenerFrom: (from) => body.indexOf(SPAN_OPENER, from),
    spanOpenerBefore: (floor, to) => {
      const found = body.subarray(floor, to).lastIndexOf(SPAN_OPENER);
      return found === -1 ? -1 : floor + found;
    },
  };
};

/** Does a span of the line have links? (`"links":[]`, as the JS exporter writes no links, does not count.) */
function holdsLinks(body: Buffer): boolean {
  for (let at = body.indexOf(LINKS_KEY_TAIL); at !== -1; at = body.indexOf(LINKS_KEY_TAIL, at + 5)) {
    if (body[at + 5] !== CLOSE_BRACKET) return true;
  }
  return false;
}
