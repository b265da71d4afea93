/**
 * checkJsonStructure — does a byte range hold exactly one whole JSON object or array, by its brackets?
 *
 * Lines that cannot hold a routing span are not parsed (too slow for a day of traces), but a line cut short
 * by a crash, or glued to the next write, must still be reported. Brackets are counted outside strings;
 * strings are skipped byte by byte, so the check costs a fraction of a parse (about 10x less). It does not
 * validate tokens (numbers, literals): a flipped byte inside a line passes, which is the price of not parsing.
 * Pure.
 */
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../jsonBytes.js';

/** True when `buf` (already trimmed) is one object or array whose brackets balance, with nothing after it. */
export function isWholeJsonContainer(
  buf: Uint8Array & { indexOf(value: number, from: number): number },
): boolean {
  const first = buf[0];
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return false;
  let depth = 0;
  const end = buf.length;
  for (let i = 0; i < end; i++) {
    const b = buf[i]!;
    if (b === QUOTE) {
      // Skip the string: a plain byte loop beats a native indexOf call per (mostly short) string.
      for (i++; i < end; i++) {
        const c = buf[i]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH) i++;
      }
      if (i >= end) return false;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      depth++;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      // Closed the outer value: anything after it (another value glued on) makes this not one value.
      if (depth === 0) return i === end - 1;
    }
  }
  return false;
}
