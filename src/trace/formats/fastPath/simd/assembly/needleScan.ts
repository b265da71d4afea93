/**
 * needleScan — the fast path's needle searches in one WebAssembly SIMD pass (AssemblyScript, built to
 * dist/wasm/needleScan.wasm by `npm run build`).
 *
 * skipToRoutingSpans reads a Collector line by a handful of Buffer#indexOf passes, each over the whole line at
 * about 1.5 GB/s. This pass finds the same needles at once: for each 16 bytes, two or three bytes of each
 * needle are compared in v128 lanes (`I` and `:` three apart for `Id":"`, `S` and `[` seven apart for
 * `Spans":[`, and so on), and only where a lane matches every probe is the whole needle compared, byte by
 * byte. What it reports is exactly what those searches give: every occurrence, in order, of each needle.
 *
 * The caller copies a window of the line to `win` with 64 bytes after it that are the line's own bytes or,
 * past its end, zeros (no needle holds a zero byte, so none is found across the line's end), and asks for the
 * needles that start in [from, to). Positions are reported as `base + index`. No I/O; no allocation.
 */

// Result slots at `out` (i32 each).
const OUT_SPAN_ID_KEYS: usize = 0;
const OUT_TRACE_ID_KEYS: usize = 4;
const OUT_DECLINES: usize = 8;
const OUT_SCOPE_KEYS: usize = 12;
const OUT_MARKERS: usize = 16;
const OUT_OPENERS: usize = 20;

// Why the line is declined (bits of OUT_DECLINES), as skipToRoutingSpans declines it.
const LINKS: i32 = 1;
const WORD_ESCAPE: i32 = 2;
const OTHER_SPANS_KEY: i32 = 4;
const FULL: i32 = 8;

/**
 * The layout of `scan`'s arguments and results: raised with every change to them, so that a module from
 * another build is refused (simdNeedles.ts' SCANNER_ABI) instead of read wrongly.
 */
export function abi(): i32 {
  return 2;
}

/** Hex digit's value, or -1. */
function hexValue(c: u32): i32 {
  if (c >= 0x30 && c <= 0x39) return <i32>(c - 0x30);
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return <i32>(lower - 0x61 + 10);
  return -1;
}

/** A letter, digit, `.`, `_` or `-`: the characters of keys and of the marker. */
function isWordCharacter(code: i32): bool {
  if (code >= 0x30 && code <= 0x39) return true;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x7a) return true;
  return code == 0x2e || code == 0x5f || code == 0x2d;
}

/** Do the `n` bytes at `p` equal those at `q`? */
function bytesEqual(p: usize, q: usize, n: i32): bool {
  for (let k = 0; k < n; k++) if (load<u8>(p + <usize>k) != load<u8>(q + <usize>k)) return false;
  return true;
}

/** A `\u` at `p` whose four hex digits are missing or spell a word character (escapesAWordCharacter). */
function escapesAWord(p: usize): bool {
  let code = 0;
  for (let k: usize = 2; k < 6; k++) {
    const digit = hexValue(load<u8>(p + k));
    if (digit == -1) return true;
    code = code * 16 + digit;
  }
  return code < 128 && isWordCharacter(code);
}

/**
 * Find the needles starting in [from, to) of the window at `win` (index `i` is the line's byte `base + i`).
 * `requestKeyAt` is where the request's own `Spans":[` key is (not a scope's). Counts add to what `out`
 * holds; positions go to the lists at `scopes`, `markers` and `openers` (span openers, `{"traceId":"`), up to
 * `capacity` each, past which FULL is set. Stops at the first decline.
 */
export function scan(
  win: usize,
  from: i32,
  to: i32,
  base: i32,
  marker: usize,
  markerLength: i32,
  requestKeyAt: i32,
  out: usize,
  scopes: usize,
  markers: usize,
  openers: usize,
  capacity: i32,
): void {
  let spanIds = load<i32>(out + OUT_SPAN_ID_KEYS);
  let traceIds = load<i32>(out + OUT_TRACE_ID_KEYS);
  let declines = load<i32>(out + OUT_DECLINES);
  let scopeCount = load<i32>(out + OUT_SCOPE_KEYS);
  let markerCount = load<i32>(out + OUT_MARKERS);
  let openerCount = load<i32>(out + OUT_OPENERS);

  const m0 = load<u8>(marker);
  const middle = markerLength >> 1;
  const last = markerLength - 1;
  const splatI = i8x16.splat(0x49);
  const splatK = i8x16.splat(0x6b);
  const splatColon = i8x16.splat(0x3a);
  const splatS = i8x16.splat(0x53);
  const splatBracket = i8x16.splat(0x5b);
  const splatBackslash = i8x16.splat(0x5c);
  const splatU = i8x16.splat(0x75);
  const splatM0 = i8x16.splat(m0);
  const splatMiddle = i8x16.splat(load<u8>(marker + <usize>middle));
  const splatLast = i8x16.splat(load<u8>(marker + <usize>last));

  for (let i = from; i < to && declines == 0; i += 16) {
    const p = win + <usize>i;
    const b0 = v128.load(p);
    const b1 = v128.load(p, 1);
    const b3 = v128.load(p, 3);
    const b7 = v128.load(p, 7);
    const idOrLinks = v128.and(v128.or(i8x16.eq(b0, splatI), i8x16.eq(b0, splatK)), i8x16.eq(b3, splatColon));
    const spansKey = v128.and(i8x16.eq(b0, splatS), i8x16.eq(b7, splatBracket));
    const escape = v128.and(i8x16.eq(b0, splatBackslash), i8x16.eq(b1, splatU));
    const markerLanes = v128.and(
      i8x16.eq(b0, splatM0),
      v128.and(
        i8x16.eq(v128.load(p + <usize>middle), splatMiddle),
        i8x16.eq(v128.load(p + <usize>last), splatLast),
      ),
    );
    let lanes = i8x16.bitmask(v128.or(v128.or(idOrLinks, spansKey), v128.or(escape, markerLanes)));
    while (lanes != 0) {
      const j = i + ctz(lanes);
      lanes &= lanes - 1;
      if (j >= to) break;
      const q = win + <usize>j;
      const c = load<u8>(q);
      if (c == 0x49) {
        // `Id":"`, a span's or trace's when `"span` or `"trace` comes before it (parentSpanId's is neither).
        if (load<u32>(q) == 0x3a226449 && load<u8>(q, 4) == 0x22) {
          if (j >= 5 && load<u8>(q - 5) == 0x22 && load<u32>(q - 4) == 0x6e617073) spanIds++;
          else if (
            j >= 6 &&
            load<u8>(q - 6) == 0x22 &&
            load<u32>(q - 5) == 0x63617274 &&
            load<u8>(q - 1) == 0x65
          ) {
            traceIds++;
            // `{"traceId":"`: a span opens here.
            if (j >= 7 && load<u8>(q - 7) == 0x7b) {
              if (openerCount == capacity) declines |= FULL;
              else {
                store<i32>(openers + ((<usize>openerCount) << 2), base + j - 7);
                openerCount++;
              }
            }
          }
        }
      } else if (c == 0x6b) {
        // `ks":[` (links) not followed by `]`: a span has links, whose own ids would be counted.
        if (load<u32>(q) == 0x3a22736b && load<u8>(q, 4) == 0x5b && load<u8>(q, 5) != 0x5d) declines |= LINKS;
      } else if (c == 0x53) {
        // `Spans":[`: a scope's (`"scope` before it) or the request's own; any other is another shape.
        if (load<u32>(q) == 0x6e617053 && load<u32>(q, 4) == 0x5b3a2273 && base + j != requestKeyAt) {
          if (
            j >= 6 &&
            load<u8>(q - 6) == 0x22 &&
            load<u32>(q - 5) == 0x706f6373 &&
            load<u8>(q - 1) == 0x65
          ) {
            if (scopeCount == capacity) declines |= FULL;
            else {
              store<i32>(scopes + ((<usize>scopeCount) << 2), base + j - 6);
              scopeCount++;
            }
          } else {
            declines |= OTHER_SPANS_KEY;
          }
        }
      } else if (c == 0x5c) {
        if (load<u8>(q, 1) == 0x75 && escapesAWord(q)) declines |= WORD_ESCAPE;
      }
      if (c == m0 && bytesEqual(q, marker, markerLength)) {
        if (markerCount == capacity) declines |= FULL;
        else {
          store<i32>(markers + ((<usize>markerCount) << 2), base + j);
          markerCount++;
        }
      }
    }
  }
  store<i32>(out + OUT_SPAN_ID_KEYS, spanIds);
  store<i32>(out + OUT_TRACE_ID_KEYS, traceIds);
  store<i32>(out + OUT_DECLINES, declines);
  store<i32>(out + OUT_SCOPE_KEYS, scopeCount);
  store<i32>(out + OUT_MARKERS, markerCount);
  store<i32>(out + OUT_OPENERS, openerCount);
}
