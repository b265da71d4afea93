/**
 * simdNeedles — the WebAssembly SIMD scanner finds exactly what the JavaScript scanner's Buffer#indexOf
 * searches find, on any bytes.
 *
 * Laws (fast-check): on bytes built from the needles' own pieces, their near misses, escapes, multi-byte
 * characters and raw bytes, both scanners decline the same lines, count the same id keys, and list the same
 * scope keys and markers; the same holds for lines longer than the scanner's window with needles across its
 * edges, and for any marker length (one past the scanner's reach goes to the JavaScript scanner). Named cases:
 * the scanner loads on this runtime (npm run build compiles it); a window with more markers than its list
 * holds; needles at the line's first and last bytes; the reasons it cannot run.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findNeedlesByIndexOf,
  type LineNeedles,
} from '../../../../../src/trace/formats/fastPath/lineNeedles.js';
import {
  loadScannerFrom,
  loadSimdScanner,
  SCAN_WINDOW_BYTES,
} from '../../../../../src/trace/formats/fastPath/simd/simdNeedles.js';
import { ROUTING_MARKER } from '../../../../../src/trace/formats/readLimits.js';
import { propertyRuns } from '../../../../helpers/propertyRuns.js';

const MARKER = Buffer.from(ROUTING_MARKER);
/** Where `Spans":[` is in `{"resourceSpans":[{`, as skipToRoutingSpans passes it. */
const REQUEST_KEY_AT = 10;

function simdScanner(): (body: Buffer, marker: Buffer, requestKeyAt: number) => LineNeedles | undefined {
  const loaded = loadSimdScanner();
  if (loaded.kind !== 'simd') throw new Error(`the SIMD scanner did not load: ${loaded.reason}`);
  return loaded.findNeedles;
}

/** Every position a scanner lists, by asking from 0 and then from one past each. */
function allFrom(firstFrom: (from: number) => number): number[] {
  const found: number[] = [];
  for (let at = firstFrom(0); at !== -1; at = firstFrom(at + 1)) found.push(at);
  return found;
}

function allMarkers(needles: LineNeedles): number[] {
  return allFrom((from) => needles.markerFrom(from));
}

/** What a scanner says of a line, in a form to compare. */
function describe_(needles: LineNeedles | undefined, probes: readonly number[]): unknown {
  if (needles === undefined) return 'declined';
  return {
    spanIdKeys: needles.spanIdKeys,
    traceIdKeys: needles.traceIdKeys,
    scopeKeys: Array.from(needles.scopeKeys),
    markers: allMarkers(needles),
    openers: allFrom((from) => needles.spanOpenerFrom(from)),
    // Asked out of order too: each answer is the first marker or opener at or after the probe, and the last
    // opener wholly inside [floor, to) for every pair of probes.
    probes: probes.map((p) => [needles.markerFrom(p), needles.spanOpenerFrom(p)]),
    before: probes.flatMap((floor) => probes.map((to) => needles.spanOpenerBefore(floor, to))),
  };
}

function expectSameNeedles(body: Buffer, marker: Buffer = MARKER, requestKeyAt = REQUEST_KEY_AT): void {
  const probes = [
    body.length,
    0,
    Math.floor(body.length / 2),
    1,
    body.length + 5,
    12,
    body.length - 1,
  ].filter((p) => p >= 0);
  // Around each span opener too: at it, one past it, and where it ends.
  for (
    let at = body.indexOf('{"traceId":"');
    at !== -1 && probes.length < 40;
    at = body.indexOf('{"traceId":"', at + 1)
  )
    probes.push(at, at + 1, at + 11, at + 12);
  const expected = describe_(findNeedlesByIndexOf(body, marker, requestKeyAt), probes);
  const actual = describe_(simdScanner()(body, marker, requestKeyAt), probes);
  expect(actual).toEqual(expected);
}

/** The needles' pieces, their near misses, escapes and characters of several byte lengths. */
const PIECES = [
  'Id":"',
  '"spanId":"',
  '"traceId":"',
  '{"traceId":"',
  '},{"traceId":"',
  '{"trace',
  '"parentSpanId":"',
  '"span',
  '"trace',
  'Id":',
  'I',
  'd":"',
  'Spans":[',
  '"scopeSpans":[',
  '"resourceSpans":[',
  '"instrumentationLibrarySpans":[',
  '"scope',
  'Spans":',
  'S',
  '"links":[',
  '"links":[]',
  'ks":[',
  'k',
  ']',
  '[',
  '\\u',
  '\\u0041',
  '\\u002e',
  '\\u00e9',
  '\\u003c',
  '\\u00',
  '\\\\u0041',
  '\\',
  'u',
  ROUTING_MARKER,
  `${ROUTING_MARKER}.verdict`,
  'agentfootprint.',
  'agentfootprint.routin',
  'routing',
  'a',
  'g',
  '"',
  ':',
  '{',
  '}',
  ',',
  '0',
  'f',
  'F',
  'é',
  '日本',
  '🙂',
  '\u0000',
];

const pieceArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PIECES).map((p) => Buffer.from(p)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 24 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fc.nat(300).map((n) => Buffer.alloc(n, 0x78)) },
);
const bytesArb = fc.array(pieceArb, { maxLength: 120 }).map((parts) => Buffer.concat(parts));

/**
 * A WebAssembly module exporting a memory (of at most `maxPages` when given), a `scan` that does nothing and an
 * `abi` answering `abi`, written byte by byte (the binary format's sections: types, functions, memory, exports,
 * code).
 */
function moduleWithAbi(abi: number, maxPages?: number): Buffer {
  const section = (id: number, body: number[]): number[] => [id, body.length, ...body];
  const name = (text: string): number[] => [text.length, ...Buffer.from(text)];
  return Buffer.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    // Types: 0 = () -> (), 1 = () -> i32.
    ...section(1, [2, 0x60, 0, 0, 0x60, 0, 1, 0x7f]),
    ...section(3, [2, 0, 1]),
    ...section(5, maxPages === undefined ? [1, 0, 1] : [1, 1, 1, maxPages]),
    ...section(7, [3, ...name('memory'), 2, 0, ...name('scan'), 0, 0, ...name('abi'), 0, 1]),
    ...section(10, [2, 2, 0, 0x0b, 4, 0, 0x41, abi, 0x0b]),
  ]);
}

describe('simdNeedles', () => {
  it('loads on this runtime (Node has WebAssembly SIMD; npm run build compiles the scanner)', () => {
    const loaded = loadSimdScanner();
    expect(loaded.kind === 'unavailable' ? loaded.reason : loaded.kind).toBe('simd');
  });

  it('law: on any bytes, the same declines, id-key counts, scope keys and markers as the indexOf searches', () => {
    fc.assert(
      fc.property(bytesArb, (body) => expectSameNeedles(body)),
      { numRuns: propertyRuns(1500) },
    );
  });

  it('law: the same when the line opens as a request (its own resourceSpans key is not a scope key)', () => {
    const opener = Buffer.from('{"resourceSpans":[{');
    fc.assert(
      fc.property(bytesArb, (body) => expectSameNeedles(Buffer.concat([opener, body]))),
      { numRuns: propertyRuns(500) },
    );
  });

  it('law: any marker from 1 to 60 bytes (past 48 the JavaScript scanner answers), overlapping ones too', () => {
    const markerArb = fc.oneof(
      fc.constantFrom(...PIECES).filter((p) => p.length > 0),
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.constantFrom('aa', 'aba', 'x', 'Id":"'),
    );
    fc.assert(
      fc.property(bytesArb, markerArb, fc.nat(40), (body, marker, at) => {
        const m = Buffer.from(marker);
        if (m.length === 0 || m.length > 60) return;
        const line = Buffer.concat([body.subarray(0, at), m, body.subarray(at), m]);
        expectSameNeedles(line, m);
      }),
      { numRuns: propertyRuns(600) },
    );
  });

  it('law: a line longer than the window, needles across its edges, gives the same', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -40, max: 40 }), fc.constantFrom(...PIECES)), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.constantFrom(1, 2),
        (placed, windows) => {
          const body = Buffer.alloc(windows * SCAN_WINDOW_BYTES + 100, 0x78);
          for (const [offset, piece] of placed) {
            const edge = SCAN_WINDOW_BYTES * (1 + (Math.abs(offset) % windows));
            Buffer.from(piece).copy(body, Math.max(0, edge + offset));
          }
          expectSameNeedles(body.subarray(0, Math.min(body.length, windows * SCAN_WINDOW_BYTES + 60)));
          expectSameNeedles(body);
        },
      ),
      { numRuns: propertyRuns(40) },
    );
  });

  it('each needle starting at every byte from 30 before the window edge to 2 after it', () => {
    const needles = [
      'Id":"',
      '"spanId":"',
      '"traceId":"',
      '{"traceId":"',
      '"scopeSpans":[',
      '"links":[',
      '\\u0041',
      ROUTING_MARKER,
    ];
    const body = Buffer.alloc(SCAN_WINDOW_BYTES + 64, 0x78);
    for (const needle of needles) {
      for (let at = SCAN_WINDOW_BYTES - 30; at <= SCAN_WINDOW_BYTES + 2; at++) {
        body.fill(0x78);
        Buffer.from(needle).copy(body, at);
        expectSameNeedles(body);
        // The line ending inside the look-ahead, and just after the needle.
        expectSameNeedles(body.subarray(0, at + needle.length));
      }
    }
  });

  it('needles at the first and last bytes of a line, and a line of one byte', () => {
    for (const piece of PIECES) {
      expectSameNeedles(Buffer.from(piece));
      expectSameNeedles(Buffer.from(`${piece}x${piece}`));
    }
    expectSameNeedles(Buffer.from('\\u004'));
    expectSameNeedles(Buffer.from('x"links":['));
  });

  it('a window holding more markers than its list goes to the JavaScript scanner, with the same answer', () => {
    const marker = Buffer.from('aa');
    const body = Buffer.alloc(SCAN_WINDOW_BYTES, 0x61);
    expectSameNeedles(body, marker);
    expect(allMarkers(simdScanner()(body, marker, REQUEST_KEY_AT)!)).toHaveLength(SCAN_WINDOW_BYTES - 1);
  });

  it('a real Collector line: every span and routing marker found', () => {
    const span = (name: string): string =>
      `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","parentSpanId":"00f067aa0ba902b7","name":"${name}","attributes":[{"key":"k","value":{"stringValue":"v"}}]}`;
    const line = `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"s"},"spans":[${span('chat')},${span(`${ROUTING_MARKER}.tier2`)}]}]}]}`;
    const needles = simdScanner()(Buffer.from(line), MARKER, REQUEST_KEY_AT)!;
    expect([needles.spanIdKeys, needles.traceIdKeys]).toEqual([2, 2]);
    expect(Array.from(needles.scopeKeys)).toEqual([line.indexOf('"scopeSpans"')]);
    expect(allMarkers(needles)).toEqual([line.indexOf(ROUTING_MARKER)]);
    expect(allFrom((from) => needles.spanOpenerFrom(from))).toEqual([
      line.indexOf(`{"traceId"`),
      line.lastIndexOf(`{"traceId"`),
    ]);
    expectSameNeedles(Buffer.from(line));
  });

  it('says why it cannot run: not built, or a file that is not the scanner', () => {
    const notBuilt = loadScannerFrom(undefined);
    expect(notBuilt).toEqual({
      kind: 'unavailable',
      reason: expect.stringMatching(/is not built \(npm run build/),
    });
    const notWasm = loadScannerFrom(new URL(import.meta.url).pathname);
    expect(notWasm).toEqual({
      kind: 'unavailable',
      reason: expect.stringMatching(/not a WebAssembly module/),
    });
    // A module of another build: the same exports, another layout.
    const dir = mkdtempSync(join(tmpdir(), 'routescope-wasm-'));
    try {
      const other = join(dir, 'needleScan.wasm');
      writeFileSync(other, moduleWithAbi(1));
      expect(loadScannerFrom(other)).toEqual({
        kind: 'unavailable',
        reason: expect.stringMatching(/from another build \(layout 1, this code reads 2\): npm run build/),
      });
      // This build's layout, but a memory that may not grow to the windows and lists: refused, not thrown.
      const small = join(dir, 'small.wasm');
      writeFileSync(small, moduleWithAbi(2, 1));
      expect(loadScannerFrom(small)).toEqual({
        kind: 'unavailable',
        reason: expect.stringMatching(/memory cannot grow to \d+ bytes: /),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
