/**
 * routingRequests — OTLP export requests of real routing spans, as an exporter sends them: each decision judged by
 * the real decideTier2, recorded by the real SDK, serialized by the real OTLP serializers (JSON and protobuf), one
 * request a decision, each with its own trace, so every request holds spans no other request holds.
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
