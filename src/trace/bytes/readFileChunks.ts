/**
 * readFileChunks — the bytes of an open file, read into two buffers that are reused for every chunk.
 *
 * A fresh buffer per chunk (what fs.ReadStream does) makes every byte of the file fresh memory: on 1 GiB that
 * cost 0.75–1.6 s of page faults and external-memory GC against 0.2–0.3 s for reading into reused buffers
 * (docs/performance.md). The chunks are therefore BORROWED: each is valid only until the next one is asked
 * for. Readers that keep bytes across chunks copy them (splitLines, peekStream) or read an owned copy
 * (ownChunks). Reads stop at `end` (exclusive) or at end of file.
 */
import type { FileHandle } from 'node:fs/promises';
import type { ByteStream } from './peekStream.js';

/** Bytes read per chunk. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Chunks of `handle` from byte `start` up to `end` (exclusive; default end of file). Two buffers take turns:
 * the next chunk is read into one while the caller works on the other, so the reader rarely waits on the disk
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
  let filling = Buffer.allocUnsafe(chunkBytes);
  let spare = Buffer.allocUnsafe(chunkBytes);
  let at = start ?? 0;
  const readAhead = (): Promise<{ bytesRead: number }> | undefined =>
    at < end
      ? handle.read(filling, 0, Math.min(chunkBytes, end - at), start === null ? null : at)
      : undefined;
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

/** The same chunks, each copied: for readers that hold chunks (decompressors, whole-document reads). */
export async function* ownChunks(source: ByteStream): AsyncGenerator<Buffer> {
  for await (const chunk of source) yield Buffer.from(chunk);
}
