/**
 * peekStream — look at the first bytes of a byte stream without losing them.
 *
 * Formats are recognized from content, so every input is peeked before a reader is chosen; the peeked
 * chunks are replayed in front of the rest. Reads at most until `bytes` are buffered (or the stream ends).
 * A stream that fails after yielding some bytes (a truncated gzip or zstd input) still hands those bytes
 * over: the failure is rethrown only once the replay has passed them, so what was read is kept.
 */

/**
 * A byte stream as the readers consume it. A chunk may be borrowed (readFileChunks reuses one buffer): it is
 * valid until the next chunk is asked for, so a reader that keeps bytes across chunks copies them.
 */
export type ByteStream = AsyncIterable<Buffer>;

/** The first `bytes` bytes (fewer at end of stream) and the whole stream, head included. */
export async function peekStream(
  source: ByteStream,
  bytes: number,
): Promise<{ head: Buffer; ended: boolean; stream: ByteStream }> {
  const it = source[Symbol.asyncIterator]();
  const pulled: Buffer[] = [];
  let length = 0;
  let ended = false;
  let failure: { readonly error: unknown } | undefined;
  while (length < bytes) {
    let next: IteratorResult<Buffer>;
    try {
      next = await it.next();
    } catch (error) {
      if (length === 0) throw error;
      failure = { error };
      break;
    }
    if (next.done === true) {
      ended = true;
      break;
    }
    // Copied: the head outlives the chunk it came from when more than one chunk is pulled.
    pulled.push(Buffer.from(next.value));
    length += next.value.length;
  }
  const head = pulled.length === 1 ? pulled[0]! : Buffer.concat(pulled);
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      if (failure !== undefined) throw failure.error;
      if (ended) return;
      for (;;) {
        const next = await it.next();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      if (!ended && failure === undefined) await it.return?.();
    }
  }
  return { head, ended, stream: replay() };
}

/** Chunks from any Node readable (strings from a stream with an encoding set become UTF-8 bytes). */
export async function* toByteStream(source: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    if (Buffer.isBuffer(chunk)) yield chunk;
    else if (typeof chunk === 'string') yield Buffer.from(chunk, 'utf8');
    else if (chunk instanceof Uint8Array) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}
