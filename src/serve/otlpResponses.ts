/**
 * otlpResponses — the bodies OTLP/HTTP answers with, in the encoding the request came in.
 *
 * Success is an `Export…ServiceResponse`: empty when everything was taken, else its `partial_success`
 * (`rejected_spans`, field 1; `error_message`, field 2), which an exporter logs and does not retry. A failure
 * is a `google.rpc.Status` (`code`, field 1; `message`, field 2) with the HTTP status saying whether to retry
 * (429, 502, 503, 504 are retryable). JSON bodies follow the OTLP/JSON encoding (64-bit counts as strings).
 * Pure. No I/O.
 */

/** The encoding of a request, and so of its answer. */
export type OtlpEncoding = 'json' | 'protobuf';

/** The Content-Type of each encoding. */
export const OTLP_CONTENT_TYPES: Readonly<Record<OtlpEncoding, string>> = Object.freeze({
  json: 'application/json',
  protobuf: 'application/x-protobuf',
});

/** google.rpc.Code values used in a Status. */
export const RPC_CODE = Object.freeze({
  invalidArgument: 3,
  permissionDenied: 7,
  resourceExhausted: 8,
  unimplemented: 12,
  unavailable: 14,
  unauthenticated: 16,
});

/** An ExportTraceServiceResponse; partial success when `rejected` > 0. */
export function exportResponse(encoding: OtlpEncoding, rejected: number, message?: string): Buffer {
  if (encoding === 'json') {
    if (rejected === 0) return Buffer.from('{}');
    return Buffer.from(
      JSON.stringify({
        partialSuccess: { rejectedSpans: String(rejected), errorMessage: message ?? '' },
      }),
    );
  }
  if (rejected === 0) return Buffer.alloc(0);
  const partial = Buffer.concat([
    Buffer.from([0x08]),
    varint(rejected),
    ...(message === undefined ? [] : [lengthDelimited(2, Buffer.from(message, 'utf8'))]),
  ]);
  return lengthDelimited(1, partial);
}

/** A google.rpc.Status. */
export function statusResponse(encoding: OtlpEncoding, code: number, message: string): Buffer {
  if (encoding === 'json') return Buffer.from(JSON.stringify({ code, message }));
  return Buffer.concat([Buffer.from([0x08]), varint(code), lengthDelimited(2, Buffer.from(message, 'utf8'))]);
}

function lengthDelimited(field: number, bytes: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(bytes.length), bytes]);
}

function varint(value: number): Buffer {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Buffer.from(out);
}
