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
import type { ByteStream } from './peekStream.js';

/** Lines without their `\n` (a trailing `\r` is kept; JSON ignores it); `null` for an over-long line. */
export async function* splitLines(source: ByteStream, maxLineBytes: number): AsyncGenerator<Buffer | null> {
  let assembly: Buffer = Buffer.allocUnsafe(0);
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
            partLength = 0;
          } else {
            assembly = append(assembly, partLength, chunk, start, chunk.length);
            partLength += tail;
          }
        }
        break;
      }
      const segmentLength = nl - start;
      if (skipping || partLength + segmentLength > maxLineBytes) {
        skipping = false;
        partLength = 0;
        start = nl + 1;
        yield null;
        continue;
      }
      if (partLength === 0) {
        const segment = chunk.subarray(start, nl);
        start = nl + 1;
        yield segment;
      } else {
        assembly = append(assembly, partLength, chunk, start, nl);
        const line = assembly.subarray(0, partLength + segmentLength);
        partLength = 0;
        start = nl + 1;
        yield line;
      }
    }
  }
  if (skipping) yield null;
  else if (partLength > 0) yield assembly.subarray(0, partLength);
}

/** `chunk[from, to)` written after the first `used` bytes of `assembly`, grown (doubling) when it must. */
function append(assembly: Buffer, used: number, chunk: Buffer, from: number, to: number): Buffer {
  const need = used + (to - from);
  let out = assembly;
  if (need > assembly.length) {
    out = Buffer.allocUnsafe(Math.max(need, assembly.length * 2, 64 * 1024));
    assembly.copy(out, 0, 0, used);
  }
  chunk.copy(out, used, from, to);
  return out;
}
