/**
 * byteSink — a byte buffer written at its end, grown by doubling, and used again from the start.
 *
 * Readers that assemble bytes over and over (a line that spans chunks in splitLines, the packed outcomes of a
 * `--jobs` unit) keep one such buffer instead of allocating per use: large fresh buffers are fresh memory,
 * and on the machines measured the page faults of touching it cost more than the copying itself
 * (docs/performance.md). A sink may start on a buffer used before (a unit's bytes handed back by the main
 * thread). What `bytes` holds is valid until the next write, which may move it. Pure apart from its own state.
 */

/** The least a sink grows to when it first needs room. */
const MIN_BYTES = 64 * 1024;

/** A growing byte buffer: `bytes[0, length)` is what was written. */
export class ByteSink {
  bytes: Buffer;
  length = 0;

  /** Start empty, on `reuse` when given (no allocation until the first write otherwise). */
  constructor(reuse?: Buffer) {
    // Never a slice of Node's shared pool: a sink's bytes may be transferred to another thread.
    this.bytes = reuse ?? Buffer.alloc(0);
  }

  /** Forget what was written; the buffer stays, to be written over. */
  clear(): void {
    this.length = 0;
  }

  /** Room for `more` bytes past `length`. */
  reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.length + more, this.bytes.length * 2, MIN_BYTES));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** Append `from[start, end)`. */
  writeBytes(from: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    this.length += from.copy(this.bytes, this.length, start, end);
  }
}
