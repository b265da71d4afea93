/**
 * checkJsonStructure — does a byte range hold exactly one whole JSON object or array, by its brackets?
 *
 * Lines that cannot hold a routing span are not parsed (too slow for a day of traces), but a line cut short
 * by a crash, or glued to the next write, must still be reported. Brackets are counted outside strings;
 * strings are skipped with the native `indexOf`, so the check costs a fraction of a parse. It does not
 * validate tokens (numbers, literals): a flipped byte inside a line passes, which is the price of not parsing.
 * Pure.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

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
      // Jump to the closing quote: one preceded by an even number of backslashes.
      let close = buf.indexOf(QUOTE, i + 1);
      for (;;) {
        if (close === -1) return false;
        let slashes = 0;
        while (buf[close - 1 - slashes] === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        close = buf.indexOf(QUOTE, close + 1);
      }
      i = close;
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
