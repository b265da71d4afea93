/**
 * readLengthFramed — records framed by a 4-byte big-endian length, as the Collector file exporter writes them
 * for `format: proto` and for `compression: zstd` (legacy framing: one zstd frame per record).
 *
 * A length above `maxRecordBytes` cannot be trusted (a corrupt or lying header) and there is no way to find
 * the next record after it, so reading stops there with a `broken` item; so does a record cut short at end of
 * file. Only one record is buffered at a time.
 */
import type { ByteStream } from '../bytes/peekStream.js';

/** One framed record, or where and why the framing broke (nothing after it can be read). */
export type FramedItem =
  { readonly kind: 'record'; readonly bytes: Buffer } | { readonly kind: 'broken'; readonly reason: string };

/** The records of a length-framed stream, in order. */
export async function* readLengthFramed(
  source: ByteStream,
  maxRecordBytes: number,
): AsyncGenerator<FramedItem> {
  let pending: Buffer[] = [];
  let available = 0;
  let need = -1; // -1: waiting for a header

  const take = (n: number): Buffer => {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, available);
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    pending = rest.length > 0 ? [rest] : [];
    available = rest.length;
    return taken;
  };

  for await (const chunk of source) {
    pending.push(chunk);
    available += chunk.length;
    for (;;) {
      if (need < 0) {
        if (available < 4) break;
        need = take(4).readUInt32BE(0);
        if (need > maxRecordBytes) {
          yield {
            kind: 'broken',
            reason: `record header says ${need} bytes, more than the ${maxRecordBytes} a record may have (corrupt framing); the rest of the file cannot be read`,
          };
          return;
        }
      }
      if (available < need) break;
      const bytes = take(need);
      need = -1;
      yield { kind: 'record', bytes };
    }
  }
  if (need >= 0 || available > 0) {
    yield {
      kind: 'broken',
      reason:
        need >= 0
          ? `record cut short: header says ${need} bytes, only ${available} remain (truncated file)`
          : `record header cut short: ${available} of 4 bytes (truncated file)`,
    };
  }
}
