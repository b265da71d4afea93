/**
 * decompressStream — a gzip or zstd byte stream, decompressed as it is read.
 *
 * gzip goes through node:zlib (concatenated members included); zstd through fzstd's streaming decoder (pure JS,
 * concatenated frames included), so a `.zst` written by the Collector's native compression or by the `zstd`
 * tool never has to fit in memory. A corrupt or truncated stream throws from the iteration; the caller reports
 * where it stopped. `decompressZstdFrame` decodes one legacy per-record frame.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Decompress, decompress } from 'fzstd';
import type { ByteStream } from './peekStream.js';

/** Decompress a whole gzip stream. */
export async function* gunzipStream(source: ByteStream): AsyncGenerator<Buffer> {
  // pipeline destroys both ends on error, so a bad member surfaces as an exception of this iteration.
  const gunzip = pipeline(Readable.from(source, { objectMode: false }), createGunzip(), () => {});
  for await (const chunk of gunzip) yield chunk as Buffer;
}

/** Decompress a whole zstd stream (one or more frames). */
export async function* unzstdStream(source: ByteStream): AsyncGenerator<Buffer> {
  const ready: Buffer[] = [];
  const decoder = new Decompress((data) => {
    // Copy: the decoder may reuse its window buffer for the next block.
    ready.push(Buffer.from(data));
  });
  let sawInput = false;
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    sawInput = true;
    decoder.push(chunk);
    while (ready.length > 0) yield ready.shift()!;
  }
  if (sawInput) decoder.push(new Uint8Array(0), true);
  while (ready.length > 0) yield ready.shift()!;
}

/** Decompress one zstd frame held in memory (a legacy per-record frame). */
export function decompressZstdFrame(frame: Uint8Array): Buffer {
  const out = decompress(frame);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
