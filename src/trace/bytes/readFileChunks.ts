/**
 * readFileChunks — the bytes of an open file, read into buffers that are reused for every chunk.
 *
 * A fresh buffer per chunk (what fs.ReadStream does) makes every byte of the file fresh memory: on 1 GiB that
 * cost 0.75–1.6 s of page faults and external-memory GC against 0.2–0.3 s for reading into reused buffers
 * (docs/performance.md). A regular file is read synchronously in chunks small enough to stay in cache; a pipe
 * or device, which may wait, through the thread pool with one read ahead. The chunks are BORROWED: each is
 * valid only until the next one is asked for. Readers that keep bytes across chunks copy them (splitLines,
 * peekStream) or read an owned copy (ownChunks). Reads stop at `end` (exclusive) or at end of file.
 */
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { ByteStream } from './peekStream.js';

/** Bytes read per chunk from a pipe or device (asynchronously: each read is a trip to libuv's thread pool). */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes read per chunk from a regular file, synchronously. Small enough to stay in the core's cache while the
 * reader works on it; read so, 1 GiB from the page cache took 0.18 s against 0.65 s in 1 MiB chunks read through
 * the thread pool (where small chunks cost more: 0.87 s at 128 KiB, each read a round trip). docs/performance.md.
 */
export const FILE_CHUNK_BYTES = 128 * 1024;

/**
 * Chunks of `handle` from byte `start` up to `end` (exclusive; default end of file); a seekable file's are read
 * as they are asked for (readSeekableChunks). From a pipe or device (`start` null) two buffers take turns: the
 * next chunk is read into one while the caller works on the other, so the reader rarely waits on the disk
 * (or the page cache); asking for a chunk is what lets the previous one be overwritten. `start` null reads
 * from where the handle is, in order, to its end: for what cannot seek (a pipe such as `<(zcat f.gz)`, a
 * device); there is still only one read in flight, so the order holds.
 */
export async function* readFileChunks(
  handle: FileHandle,
  start: number | null = 0,
  end = Infinity,
  chunkBytes = READ_CHUNK_BYTES,
): AsyncGenerator<Buffer> {
  if (start !== null) {
    yield* readSeekableChunks(handle.fd, start, end, Math.min(chunkBytes, FILE_CHUNK_BYTES));
    return;
  }
  let filling = Buffer.allocUnsafe(chunkBytes);
  let spare = Buffer.allocUnsafe(chunkBytes);
  let at = 0;
  const readAhead = (): Promise<{ bytesRead: number }> | undefined =>
    at < end ? handle.read(filling, 0, Math.min(chunkBytes, end - at), null) : undefined;
  let pending = readAhead();
  try {
    while (pending !== undefined) {
      const { bytesRead } = await pending;
      pending = undefined;
      if (bytesRead === 0) return;
      const chunk = filling.subarray(0, bytesRead);
      at += bytesRead;
      [filling, spare] = [spare, filling];
      pending = readAhead();
      yield chunk;
    }
  } finally {
    // Stopped early (the caller broke off or failed): let a read in flight settle before the handle closes.
    await pending?.catch(() => {});
  }
}

/**
 * A seekable file's chunks, each read synchronously into one reused buffer when it is asked for: a file read
 * from the page cache never waits long, and the thread pool's round trip per read cost more than the read.
 * The event loop still turns between chunks whenever the caller awaits something else.
 */
async function* readSeekableChunks(
  fd: number,
  start: number,
  end: number,
  chunkBytes: number,
): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(chunkBytes);
  let at = start;
  while (at < end) {
    const bytesRead = readSync(fd, buffer, 0, Math.min(chunkBytes, end - at), at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** The same chunks, each copied: for readers that hold chunks (decompressors, whole-document reads). */
export async function* ownChunks(source: ByteStream): AsyncGenerator<Buffer> {
  for await (const chunk of source) yield Buffer.from(chunk);
}
