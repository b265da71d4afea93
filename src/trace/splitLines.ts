/**
 * splitLines — a byte stream cut at `\n` into lines, each at most `maxLineBytes` long.
 *
 * JSON-lines inputs are read one line at a time so memory follows the longest line, not the file. A line
 * longer than the bound is never buffered whole: its bytes are dropped as they arrive and it is yielded as
 * `null` (the caller reports it by number). A final line without a newline (a crash mid-write) is still yielded.
 * Yielded buffers may share memory with the input chunks or with this reader's own assembly buffer: use them
 * before asking for the next line. Input chunks may be borrowed (see ByteStream): the part of a line left at
 * the end of a chunk is copied into the assembly buffer, which is reused for every line that spans chunks
 * (a fresh buffer per such line was measurable: large allocations are fresh memory, page faults included).
 */
import { ByteSink } from './byteSink.js';
import type { ByteStream } from './peekStream.js';

/** Lines without their `\n` (a trailing `\r` is kept; JSON ignores it); `null` for an over-long line. */
export async function* splitLines(source: ByteStream, maxLineBytes: number): AsyncGenerator<Buffer | null> {
  // The start of a line that spans chunks, copied; empty when no line is in progress.
  const part = new ByteSink();
  let skipping = false;
  for await (const chunk of source) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        const tail = chunk.length - start;
        if (!skipping && tail > 0) {
          if (part.length + tail > maxLineBytes) {
            skipping = true;
            part.clear();
          } else {
            part.writeBytes(chunk, start, chunk.length);
          }
        }
        break;
      }
      const segmentLength = nl - start;
      if (skipping || part.length + segmentLength > maxLineBytes) {
        skipping = false;
        part.clear();
        start = nl + 1;
        yield null;
        continue;
      }
      if (part.length === 0) {
        const segment = chunk.subarray(start, nl);
        start = nl + 1;
        yield segment;
      } else {
        part.writeBytes(chunk, start, nl);
        const line = part.bytes.subarray(0, part.length);
        part.clear();
        start = nl + 1;
        yield line;
      }
    }
  }
  if (skipping) yield null;
  else if (part.length > 0) yield part.bytes.subarray(0, part.length);
}
