/**
 * simdNeedles — lineNeedles' searches by the WebAssembly SIMD scanner (assembly/needleScan.ts, built to
 * dist/wasm/needleScan.wasm), when this runtime can run it.
 *
 * A line is copied into the module's memory a window at a time (1 MiB, with the 8 bytes before it for the
 * keys' look-behind and 64 after for the needles' look-ahead; zeros past the line's end), and one pass per
 * window counts the id keys and lists where the scope keys, markers and span openers start. The module
 * allocates nothing and keeps nothing between calls; its memory is fixed at load (about 2.6 MiB), whatever the
 * line's length.
 * Each thread that reads (a `--jobs` worker, serve) loads its own instance on first use. Loading reads one
 * file; scanning does no I/O.
 */
import { join } from 'node:path';
import { findBuiltFile, loadWasmModule, SIMD_PROBE } from '../../../wasm/loadWasmModule.js';
import { findNeedlesByIndexOf, SPAN_OPENER, type FindNeedles, type LineNeedles } from '../lineNeedles.js';

/** The scanner, or why this runtime reads with the JavaScript one. */
export type SimdScanner =
  | { readonly kind: 'simd'; readonly findNeedles: FindNeedles }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** The compiled scanner's file, as `npm run build` writes it under dist/. */
export const SCANNER_FILE = join('wasm', 'needleScan.wasm');

/** The layout of `scan` this file speaks (assembly/needleScan.ts' `abi()`). */
const SCANNER_ABI = 2;

/** Bytes scanned per call: the window the module's memory holds. */
export const SCAN_WINDOW_BYTES = 1 << 20;
const WINDOW = SCAN_WINDOW_BYTES;
const LOOK_BEHIND = 8;
const LOOK_AHEAD = 64;
/** The longest marker the scanner's probes reach past (its look-ahead less a 16-byte lane). */
const MAX_MARKER = LOOK_AHEAD - 16;

// The module's memory, in bytes: results, the marker, the window, the three position lists.
const OUT = 0;
const MARKER = 64;
const WIN = 128;
const LIST_CAPACITY = WINDOW / 8;
const SCOPES = WIN + LOOK_BEHIND + WINDOW + LOOK_AHEAD + 64;
const MARKERS = SCOPES + LIST_CAPACITY * 4;
const OPENERS = MARKERS + LIST_CAPACITY * 4;
const MEMORY_BYTES = OPENERS + LIST_CAPACITY * 4;

// Result slots (i32 each), and why a line is declined, as assembly/needleScan.ts writes them.
const OUT_SPAN_ID_KEYS = 0;
const OUT_TRACE_ID_KEYS = 1;
const OUT_DECLINES = 2;
const OUT_SCOPE_KEYS = 3;
const OUT_MARKERS = 4;
const OUT_OPENERS = 5;
/** A position list filled up: the JavaScript scanner reads the line instead. */
const FULL = 8;

type ScanFunction = (
  win: number,
  from: number,
  to: number,
  base: number,
  marker: number,
  markerLength: number,
  requestKeyAt: number,
  out: number,
  scopes: number,
  markers: number,
  openers: number,
  capacity: number,
) => void;

let loaded: SimdScanner | undefined;

/** The scanner of this thread, loaded on first use; `unavailable` with the reason when it cannot run here. */
export function loadSimdScanner(): SimdScanner {
  loaded ??= loadScannerFrom(findBuiltFile(SCANNER_FILE, import.meta.url));
  return loaded;
}

/** The scanner compiled from `file` (undefined: not built), or why it cannot run here. */
export function loadScannerFrom(file: string | undefined): SimdScanner {
  const loaded = loadWasmModule(
    {
      file: SCANNER_FILE,
      role: 'scanner',
      abi: SCANNER_ABI,
      functions: ['scan'],
      memoryBytes: MEMORY_BYTES,
      probe: SIMD_PROBE,
    },
    file,
  );
  if (loaded.kind === 'unavailable') return loaded;
  const scan = loaded.exports.scan as ScanFunction;
  return { kind: 'simd', findNeedles: scannerOver(new Uint8Array(loaded.memory.buffer), scan) };
}

/** findNeedles over one instance's memory (fixed: the module never grows it after load). */
function scannerOver(bytes: Uint8Array, scan: ScanFunction): FindNeedles {
  const words = new Int32Array(bytes.buffer);
  let markerInMemory: Buffer | undefined;
  return (body, marker, requestKeyAt) => {
    if (marker.length === 0 || marker.length > MAX_MARKER)
      return findNeedlesByIndexOf(body, marker, requestKeyAt);
    if (markerInMemory === undefined || !markerInMemory.equals(marker)) {
      bytes.set(marker, MARKER);
      markerInMemory = Buffer.from(marker);
    }
    let spanIdKeys = 0;
    let traceIdKeys = 0;
    let scopeKeys: ArrayLike<number> | undefined;
    let markers: ArrayLike<number> | undefined;
    let openers: ArrayLike<number> | undefined;
    for (let start = 0; start < body.length; start += WINDOW) {
      const winStart = Math.max(0, start - LOOK_BEHIND);
      const to = Math.min(body.length, start + WINDOW);
      const winEnd = Math.min(body.length, to + LOOK_AHEAD);
      bytes.set(body.subarray(winStart, winEnd), WIN);
      if (winEnd === body.length)
        bytes.fill(0, WIN + winEnd - winStart, WIN + winEnd - winStart + LOOK_AHEAD);
      words.fill(0, OUT / 4, OUT / 4 + 6);
      scan(
        WIN,
        start - winStart,
        to - winStart,
        winStart,
        MARKER,
        marker.length,
        requestKeyAt,
        OUT,
        SCOPES,
        MARKERS,
        OPENERS,
        LIST_CAPACITY,
      );
      const declines = words[OUT / 4 + OUT_DECLINES]!;
      if (declines === FULL) return findNeedlesByIndexOf(body, marker, requestKeyAt);
      if (declines !== 0) return undefined;
      spanIdKeys += words[OUT / 4 + OUT_SPAN_ID_KEYS]!;
      traceIdKeys += words[OUT / 4 + OUT_TRACE_ID_KEYS]!;
      scopeKeys = appendList(scopeKeys, words, SCOPES, words[OUT / 4 + OUT_SCOPE_KEYS]!);
      markers = appendList(markers, words, MARKERS, words[OUT / 4 + OUT_MARKERS]!);
      openers = appendList(openers, words, OPENERS, words[OUT / 4 + OUT_OPENERS]!);
    }
    return needlesFrom(spanIdKeys, traceIdKeys, scopeKeys ?? [], markers ?? [], openers ?? []);
  };
}

/** Positions `count` i32 from byte `at` of the memory, after those of earlier windows (copied: the memory is reused). */
function appendList(
  earlier: ArrayLike<number> | undefined,
  words: Int32Array,
  at: number,
  count: number,
): ArrayLike<number> {
  const these = words.slice(at / 4, at / 4 + count);
  if (earlier === undefined || earlier.length === 0) return these;
  if (count === 0) return earlier;
  const both = new Int32Array(earlier.length + count);
  both.set(earlier);
  both.set(these, earlier.length);
  return both;
}

/** How many of the rising `positions` are below `bound`. */
function countBelow(positions: ArrayLike<number>, bound: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle]! < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A line's needles from the scanner's counts and lists (each rising). */
function needlesFrom(
  spanIdKeys: number,
  traceIdKeys: number,
  scopeKeys: ArrayLike<number>,
  markers: ArrayLike<number>,
  openers: ArrayLike<number>,
): LineNeedles {
  const firstFrom = (positions: ArrayLike<number>, from: number): number => {
    const k = countBelow(positions, from);
    return k < positions.length ? positions[k]! : -1;
  };
  return {
    spanIdKeys,
    traceIdKeys,
    scopeKeys,
    markerFrom: (from) => firstFrom(markers, from),
    spanOpenerFrom: (from) => firstFrom(openers, from),
    spanOpenerBefore(floor, to) {
      // The last opener that ends by `to`, if it starts at `floor` or after.
      const k = countBelow(openers, to - SPAN_OPENER.length + 1);
      return k > 0 && openers[k - 1]! >= Math.max(floor, 0) ? openers[k - 1]! : -1;
    },
  };
}
