/**
 * readFileChunks — the bytes of an open file, read into one buffer that is reused for every chunk.
 *
 * A fresh buffer per chunk (what fs.ReadStream does) makes every byte of the file fresh memory: on 1 GiB that
 * cost 0.75–1.6 s of page faults and external-memory GC against 0.2–0.3 s for reading into one reused buffer
 * (docs/performance.md). The chunks are therefore BORROWED: each is valid only until the next one is asked
 * for. Readers that keep bytes across chunks copy them (splitLines, peekStream) or read an owned copy
 * (ownChunks). Reads stop at `end` (exclusive) or at end of file.
 */
import type { FileHandle } from 'node:fs/promises';
import type { ByteStream } from './peekStream.js';

/** Bytes read per chunk. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** Chunks of `handle` from byte `start` up to `end` (exclusive; default end of file), in one reused buffer. */
export async function* readFileChunks(
  handle: FileHandle,
  start = 0,
  end = Infinity,
  chunkBytes = READ_CHUNK_BYTES,
): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(chunkBytes);
  for (let at = start; at < end;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(chunkBytes, end - at), at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** The same chunks, each copied: for readers that hold chunks (decompressors, whole-document reads). */
export async function* ownChunks(source: ByteStream): AsyncGenerator<Buffer> {
  for await (const chunk of source) yield Buffer.from(chunk);
}
