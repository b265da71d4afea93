/**
 * splitLines — a byte stream cut at `\n` into lines, each at most `maxLineBytes` long.
 *
 * JSON-lines inputs are read one line at a time so memory follows the longest line, not the file. A line
 * longer than the bound is never buffered whole: its bytes are dropped as they arrive and it is yielded as
 * `null` (the caller reports it by number). A final line without a newline (a crash mid-write) is still yielded.
 * Yielded buffers may share memory with the input chunks: use them before asking for the next line. Input
 * chunks may be borrowed (see ByteStream): the part of a line left at the end of a chunk is copied.
 */
import type { ByteStream } from './peekStream.js';

/** Lines without their `\n` (a trailing `\r` is kept; JSON ignores it); `null` for an over-long line. */
export async function* splitLines(source: ByteStream, maxLineBytes: number): AsyncGenerator<Buffer | null> {
  let parts: Buffer[] = [];
  let partLength = 0;
  let skipping = false;
  for await (const chunk of source) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        const tail = chunk.length - start;
        if (!skipping && tail > 0) {
          if (partLength + tail > maxLineBytes) {
            skipping = true;
            parts = [];
            partLength = 0;
          } else {
            parts.push(Buffer.from(chunk.subarray(start)));
            partLength += tail;
          }
        }
        break;
      }
      const segment = chunk.subarray(start, nl);
      start = nl + 1;
      if (skipping || partLength + segment.length > maxLineBytes) {
        skipping = false;
        parts = [];
        partLength = 0;
        yield null;
        continue;
      }
      if (parts.length === 0) yield segment;
      else {
        parts.push(segment);
        const line = Buffer.concat(parts, partLength + segment.length);
        parts = [];
        partLength = 0;
        yield line;
      }
    }
  }
  if (skipping) yield null;
  else if (partLength > 0) yield parts.length === 1 ? parts[0]! : Buffer.concat(parts, partLength);
}
