/**
 * decompressStream — a gzip or zstd byte stream, decompressed as it is read.
 *
 * gzip goes through node:zlib (concatenated members included); zstd through fzstd's streaming decoder (pure JS,
 * concatenated frames included), so a `.zst` written by the Collector's native compression or by the `zstd`
 * tool never has to fit in memory. A corrupt or truncated stream throws from the iteration, after everything
 * decoded before the corruption; the caller reports where it stopped. `decompressZstdFrame` decodes one legacy per-record frame. The decoder allocates what a
 * frame header declares (window, or content size for a one-shot frame), so headers are checked first: a lying
 * header is an error, not a multi-GB allocation. In a multi-frame stream only the first header is checked.
 */
import { createGunzip } from 'node:zlib';
import { Decompress, decompress } from 'fzstd';
import type { ByteStream } from './peekStream.js';

/** The largest zstd window accepted: the zstd tool's own default limit (windowLog 27). */
export const MAX_ZSTD_WINDOW = 2 ** 27;

/** What a zstd frame header declares, or undefined when the header is incomplete. */
export function readZstdFrameHeader(
  frame: Uint8Array,
): { readonly windowBytes: number; readonly contentBytes: number | undefined } | undefined {
  if (frame.length < 6) return undefined;
  const descriptor = frame[4]!;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryFlag = descriptor & 3;
  const contentFlag = descriptor >> 6;
  const at = 5 + (singleSegment ? 0 : 1) + (dictionaryFlag === 3 ? 4 : dictionaryFlag);
  const contentFieldBytes = contentFlag !== 0 ? 1 << contentFlag : singleSegment;
  if (frame.length < at + contentFieldBytes) return undefined;
  let content: number | undefined;
  if (contentFieldBytes > 0) {
    content = 0;
    for (let i = 0; i < contentFieldBytes; i++) content += frame[at + i]! * 2 ** (8 * i);
    if (contentFlag === 1) content += 256;
  }
  if (singleSegment) return { windowBytes: content ?? 0, contentBytes: content };
  const exponent = 2 ** (10 + (frame[5]! >> 3));
  return { windowBytes: exponent + (exponent / 8) * (frame[5]! & 7), contentBytes: content };
}

/** gzip input is fed to zlib in slices this big, so one slice's output (deflate expands ~1032:1 at most) is bounded. */
const GUNZIP_SLICE = 16 * 1024;
/** The gzip trailer (CRC32 and length), held back until the input ends: see gunzipStream. */
const GZIP_TRAILER_BYTES = 8;

/**
 * Decompress a whole gzip stream. zlib checks a member's trailer in the same step that inflates its last
 * block, and on a mismatch (or a cut inside that block) the stream fails before handing on that block's text;
 * so the last 8 bytes are fed on their own after everything before them has been decoded and handed on, and
 * the error, if any, comes after the text it follows. Output is taken as zlib produces it, one bounded input
 * slice at a time.
 */
export async function* gunzipStream(source: ByteStream): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const ready: Buffer[] = [];
  let failure: { readonly error: unknown } | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  gunzip.on('data', (chunk: Buffer) => ready.push(chunk));
  gunzip.on('error', (error: unknown) => {
    failure ??= { error };
    wake?.();
  });
  gunzip.on('end', () => {
    ended = true;
    wake?.();
  });
  // Resolves when `start` calls back, or when zlib ends or fails (a failed write never calls back).
  const settle = (start: (done: () => void) => void): Promise<void> =>
    new Promise<void>((resolve) => {
      wake = resolve;
      start(resolve);
    }).finally(() => {
      wake = undefined;
    });
  let held: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of source) {
      const data = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
      const upTo = Math.max(0, data.length - GZIP_TRAILER_BYTES);
      held = data.subarray(upTo);
      for (let at = 0; at < upTo && failure === undefined; at += GUNZIP_SLICE) {
        const slice = data.subarray(at, Math.min(at + GUNZIP_SLICE, upTo));
        await settle((done) => gunzip.write(slice, () => done()));
        while (ready.length > 0) yield ready.shift()!;
      }
      if (failure !== undefined) break;
    }
    if (failure === undefined && !ended) {
      await settle((done) => {
        gunzip.end(held);
        if (ended || failure !== undefined) done();
      });
    }
    while (ready.length > 0) yield ready.shift()!;
    if (failure !== undefined) throw failure.error;
  } finally {
    gunzip.destroy();
  }
}

/** The most zstd input fed to the decoder at once. */
const UNZSTD_SLICE_MAX = 64 * 1024;
/** The least: one 4-byte RLE block can stand for 128 KiB, so even this can grow ~32,000-fold. */
const UNZSTD_SLICE_MIN = 1024;
/** Output aimed at per slice: the next slice is sized from the ratio the last one showed. */
const UNZSTD_OUTPUT_PER_SLICE = 4 * 1024 * 1024;

/**
 * Decompress a whole zstd stream (one or more frames). The decoder turns all the input it is given into output
 * at once, and zstd's ratio has no useful bound (repetitive telemetry easily compresses 100-fold; one 1 MiB read
 * held 150 MB of text), so input is fed in slices sized from the ratio seen so far, aiming at ~4 MiB of output
 * each, and that output is handed on before the next slice is fed.
 */
export async function* unzstdStream(source: ByteStream): AsyncGenerator<Buffer> {
  const ready: Buffer[] = [];
  let produced = 0;
  const decoder = new Decompress((data) => {
    // Copy: the decoder may reuse its window buffer for the next block.
    ready.push(Buffer.from(data));
    produced += data.length;
  });
  // Start small: the first slice's ratio is unknown.
  let slice = UNZSTD_SLICE_MIN;
  let sawInput = false;
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    if (!sawInput) {
      const header = readZstdFrameHeader(chunk);
      if (header !== undefined && header.windowBytes > MAX_ZSTD_WINDOW) {
        throw new Error(
          `zstd frame asks for a ${header.windowBytes}-byte window, above the ${MAX_ZSTD_WINDOW} limit (corrupt header, or compressed with --long beyond 27)`,
        );
      }
    }
    sawInput = true;
    for (let at = 0; at < chunk.length;) {
      const piece = chunk.subarray(at, at + slice);
      at += piece.length;
      produced = 0;
      yield* pushThenDrain(decoder, ready, piece, false);
      // A slice inside one large block shows nothing yet: keep the size until a ratio is seen.
      if (produced > 0) {
        const ratio = produced / piece.length;
        slice = Math.max(
          UNZSTD_SLICE_MIN,
          Math.min(UNZSTD_SLICE_MAX, Math.floor(UNZSTD_OUTPUT_PER_SLICE / Math.max(ratio, 1))),
        );
      }
    }
  }
  if (sawInput) yield* pushThenDrain(decoder, ready, new Uint8Array(0), true);
  while (ready.length > 0) yield ready.shift()!;
}

/**
 * Feed one chunk to the decoder and hand on what it produced. Blocks decoded before a corrupt one in the same
 * chunk are handed on before the error is rethrown: they are good data and must not be lost with the rest.
 */
function* pushThenDrain(
  decoder: Decompress,
  ready: Buffer[],
  chunk: Uint8Array,
  final: boolean,
): Generator<Buffer> {
  try {
    decoder.push(chunk, final);
  } catch (error) {
    while (ready.length > 0) yield ready.shift()!;
    throw error;
  }
  while (ready.length > 0) yield ready.shift()!;
}

/** Decompress one zstd frame held in memory (a legacy per-record frame) of at most `maxBytes` output. */
export function decompressZstdFrame(frame: Uint8Array, maxBytes: number): Buffer {
  const header = readZstdFrameHeader(frame);
  if (header === undefined) throw new Error('zstd frame header cut short');
  const declared = Math.max(header.windowBytes, header.contentBytes ?? 0);
  if (declared > maxBytes) {
    throw new Error(`zstd frame declares ${declared} bytes, more than the ${maxBytes} a record may have`);
  }
  const out = decompress(frame);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
