/**
 * readFramed — the Collector file exporter's length-framed files: each record a protobuf request, or a zstd
 * frame of JSON or protobuf.
 *
 * Protobuf and zstd are loaded when a framed file is met: most runs read JSON lines and need neither. A record
 * without ROUTING_MARKER is only counted; a broken framing ends the file with a problem at that record.
 */
import type { ByteStream } from '../bytes/peekStream.js';
import { sanitizeMessage } from '../normalizeSpanFields.js';
import type { TraceRecord } from '../../record/types.js';
import { badLine, type FileContext } from './fileContext.js';
import { isJsonSpace } from './jsonBytes.js';
import { readJsonBody } from './readJsonLines.js';
import { MAX_LINE_BYTES, MAX_RECORD_BYTES, ROUTING_MARKER_BYTES } from './readLimits.js';
import { ZSTD_MAGIC } from './sniffFormat.js';

/** The Collector's length-framed files: each record is a protobuf request, or a zstd frame of JSON or protobuf. */
export async function* readFramed(ctx: FileContext, stream: ByteStream): AsyncGenerator<TraceRecord> {
  // Loaded when a framed file is met: most runs read JSON lines and need neither protobuf nor zstd.
  const { readLengthFramed } = await import('./readLengthFramed.js');
  const { countOtlpProtoSpans, decodeOtlpProtoRequest } = await import('./decodeOtlpProto.js');
  const { decompressZstdFrame } = await import('../bytes/decompressStream.js');
  const out: TraceRecord[] = [];
  for await (const item of readLengthFramed(stream, MAX_RECORD_BYTES)) {
    const record = ++ctx.line;
    ctx.stats.lines++;
    if (item.kind === 'broken') {
      badLine(ctx, record, item.reason);
      return;
    }
    let payload = item.bytes;
    if (payload.length >= 4 && payload.readUInt32LE(0) === ZSTD_MAGIC) {
      try {
        payload = decompressZstdFrame(payload, MAX_LINE_BYTES);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        badLine(ctx, record, `record is not a valid zstd frame: ${sanitizeMessage(message, 120)}`);
        continue;
      }
    }
    let first = 0;
    let last = payload.length;
    while (first < last && isJsonSpace(payload[first])) first++;
    while (last > first && isJsonSpace(payload[last - 1])) last--;
    if (payload[first] === 0x7b || payload[first] === 0x5b) {
      readJsonBody(ctx, payload.subarray(first, last), record, out, false);
    } else {
      try {
        // Protobuf keeps strings as raw UTF-8, so the marker test holds here too; the rest are only counted.
        if (payload.indexOf(ROUTING_MARKER_BYTES) === -1)
          ctx.builder.countPlainSpans(countOtlpProtoSpans(payload));
        else decodeOtlpProtoRequest(payload, { file: ctx.file, line: record }, ctx.builder, out);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        badLine(
          ctx,
          record,
          `record is not a valid protobuf ExportTraceServiceRequest: ${sanitizeMessage(message, 120)}`,
        );
      }
    }
    if (out.length > 0) {
      yield* out;
      out.length = 0;
    }
  }
}
