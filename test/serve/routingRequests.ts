/**
 * routingRequests — OTLP export requests of real routing spans, as an exporter sends them: each decision judged by
 * the real decideTier2, recorded by the real SDK, serialized by the real OTLP serializers (JSON and protobuf), one
 * request a decision, each with its own trace, so every request holds spans no other request holds. And the
 * protobuf pieces the tests build damaged requests from.
 */
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { recordDecisionSpans } from '../helpers/traceFiles.js';

/** One export request, in both encodings, and the ids of its routing span. */
export interface RoutingRequest {
  readonly json: string;
  readonly protobuf: Buffer;
  readonly traceId: string;
  readonly spanId: string;
}

/** `count` requests of one routing span each (plus `plainSpans` other spans in the same request). */
export async function routingRequests(count: number, plainSpans = 0): Promise<RoutingRequest[]> {
  const specs = Array.from({ length: count }, (_, i) => ({
    scores: [
      { id: 'billing', score: 0.9 - (i % 5) * 0.1 },
      { id: 'refunds', score: 0.5 },
      { id: 'shipping', score: 0.1 },
    ],
    conversationId: `conv-${i % 7}`,
  }));
  const { spans } = await recordDecisionSpans(specs, 'serve-test', plainSpans * count);
  const routing = spans.filter((s) => s.name !== 'GET /health');
  const plain = spans.filter((s) => s.name === 'GET /health');
  const decoder = new TextDecoder();
  return routing.map((span, i) => {
    const batch = [...plain.slice(i * plainSpans, (i + 1) * plainSpans), span];
    return {
      json: decoder.decode(JsonTraceSerializer.serializeRequest(batch)),
      protobuf: Buffer.from(ProtobufTraceSerializer.serializeRequest(batch)!),
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
    };
  });
}

/** A protobuf length-delimited field: field number `n`, the bytes. */
export function protoField(n: number, bytes: Buffer): Buffer {
  const varint = (v: number): Buffer => {
    const out: number[] = [];
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.push(v);
    return Buffer.from(out);
  };
  return Buffer.concat([varint((n << 3) | 2), varint(bytes.length), bytes]);
}

/**
 * The request's protobuf with a second ResourceSpans (repeated fields of a message concatenate) holding a plain
 * span whose attribute nests kvlists `depth` deep: deeper than 32, it has no OTLP/JSON line for `--out`.
 */
export function withDeepPlainSpan(request: RoutingRequest, depth: number): Buffer {
  let value = protoField(1, Buffer.from('x'));
  for (let i = 0; i < depth; i++)
    value = protoField(
      6,
      protoField(1, Buffer.concat([protoField(1, Buffer.from('k')), protoField(2, value)])),
    );
  const span = Buffer.concat([
    protoField(1, Buffer.from('5b8efff798038103d269b633813fc60c', 'hex')),
    protoField(2, Buffer.from('eee19b7ec3c1b174', 'hex')),
    protoField(5, Buffer.from('plain')),
    protoField(9, Buffer.concat([protoField(1, Buffer.from('deep')), protoField(2, value)])),
  ]);
  return Buffer.concat([request.protobuf, protoField(1, protoField(2, protoField(2, span)))]);
}
