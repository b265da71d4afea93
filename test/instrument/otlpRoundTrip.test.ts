/**
 * The whole path a decision takes in production: wrapped router → real SDK → BatchSpanProcessor → the real
 * OTLP/HTTP JSON exporter → a loopback HTTP server standing in for the collector. Every decision must come
 * back out of the received bodies, exactly, with non-finite scores restored and no body a collector would
 * reject.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { gunzipSync } from 'node:zlib';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { ATTR_GEN_AI_CONVERSATION_ID, SPAN_ROUTING_TIER2 } from '../../src/semconv/semconv.js';
import type { Tier2Call } from '../../src/instrument/types.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import type { Tier2Verdict } from '../../src/policy/types.js';
import { decodeRoutingAttributes } from '../../src/trace/decodeRoutingAttributes.js';
import { flattenOtlpAttributes } from '../../src/trace/formats/flattenOtlpAttributes.js';
import { expectDecodedDecision } from '../helpers/otelSdk.js';
import { tier2CallArb } from './tier2Call.arbitrary.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const DECISIONS = propertyRuns(1_200);
const CASE_KEY = 'test.case.index';
const OTLP_SPAN_KIND_INTERNAL = 1;

interface Received {
  readonly bodies: string[];
  readonly malformed: string[];
}

interface OtlpSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly attributes: unknown;
}

/** A collector stand-in: keeps every body, counts the ones that are not an OTLP/JSON trace request. */
function startCollector(received: Received): Promise<Server> {
  const server = createServer((req, res) => {
    void buffer(req).then((raw) => {
      const gzip = req.headers['content-encoding'] === 'gzip';
      const text = (gzip ? gunzipSync(raw) : raw).toString('utf8');
      let ok = req.method === 'POST' && req.url === '/v1/traces';
      try {
        const parsed = JSON.parse(text) as { resourceSpans?: unknown };
        ok &&= Array.isArray(parsed.resourceSpans);
      } catch {
        ok = false;
      }
      if (ok) received.bodies.push(text);
      else received.malformed.push(text.slice(0, 200));
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
      res.end(ok ? '{}' : '{"error":"malformed"}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function spansOf(body: string): OtlpSpan[] {
  const parsed = JSON.parse(body) as {
    resourceSpans: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
  };
  return parsed.resourceSpans.flatMap((rs) => (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? []));
}

/** Every `doubleValue` anywhere in a parsed body. */
function collectDoubleValues(node: unknown, out: unknown[]): unknown[] {
  if (Array.isArray(node)) {
    for (const item of node) collectDoubleValues(item, out);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'doubleValue') out.push(value);
      else collectDoubleValues(value, out);
    }
  }
  return out;
}

describe('round trip through the real OTLP/HTTP exporter', () => {
  const received: Received = { bodies: [], malformed: [] };
  const calls: Tier2Call[] = [];
  const verdicts: Tier2Verdict[] = [];
  let server: Server;

  beforeAll(async () => {
    server = await startCollector(received);
    const { port } = server.address() as AddressInfo;
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }), {
          maxQueueSize: 4 * DECISIONS,
          // Scaled with the runs: the same six batches, within the exporter's 30 concurrent requests.
          maxExportBatchSize: propertyRuns(200),
          scheduledDelayMillis: 20,
        }),
      ],
    });
    let current = -1;
    const wrapped = instrumentDecideTier2(decideTier2, {
      tracerProvider: provider,
      routerName: 'round-trip',
      context: () => ({ conversationId: `conv-${current}` }),
      attributesHook: (span) => span.setAttribute(CASE_KEY, current),
    });
    fc.assert(
      fc.property(tier2CallArb(16), (call) => {
        current = calls.length;
        const verdict = wrapped(call.scores, call.incumbentId, call.policy, call.scorer);
        expect(verdict).toStrictEqual(decideTier2(call.scores, call.incumbentId, call.policy, call.scorer));
        calls.push(call);
        verdicts.push(verdict);
      }),
      { numRuns: DECISIONS },
    );
    await provider.forceFlush();
    await provider.shutdown();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('the collector saw zero malformed bodies and every span, once', () => {
    expect(received.malformed).toEqual([]);
    expect(received.bodies.length).toBeGreaterThan(1);
    const indexes = received.bodies
      .flatMap(spansOf)
      .map((span) => flattenOtlpAttributes(span.attributes).get(CASE_KEY));
    expect(indexes).toHaveLength(DECISIONS);
    expect(new Set(indexes).size).toBe(DECISIONS);
  });

  it('every decision is rebuilt from the OTLP/JSON bodies: verdict, ranking, scores, thresholds', () => {
    let rebuilt = 0;
    for (const span of received.bodies.flatMap(spansOf)) {
      expect(span.name).toBe(SPAN_ROUTING_TIER2);
      expect(span.kind).toBe(OTLP_SPAN_KIND_INTERNAL);
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      const attrs = flattenOtlpAttributes(span.attributes);
      const index = attrs.get(CASE_KEY) as number;
      const decoded = decodeRoutingAttributes(attrs);
      if (decoded.kind !== 'ok') throw new Error(`case ${index} did not decode: ${decoded.reason}`);
      expectDecodedDecision(decoded.value, calls[index]!, verdicts[index]!);
      expect(attrs.get(ATTR_GEN_AI_CONVERSATION_ID)).toBe(`conv-${index}`);
      rebuilt++;
    }
    expect(rebuilt).toBe(DECISIONS);
  });

  it('the random decisions did include non-finite scores and odd policies', () => {
    const scores = calls.flatMap((c) => c.scores.map((s) => s.score));
    expect(scores.some(Number.isNaN)).toBe(true);
    expect(scores.includes(Infinity) && scores.includes(-Infinity)).toBe(true);
    expect(calls.some((c) => Number.isNaN(c.policy.nearTieMargin))).toBe(true);
    expect(new Set(verdicts.map((v) => v.kind))).toEqual(new Set(['move', 'stay', 'menu', 'unmatched']));
  });

  it('no exported body holds a null doubleValue (the collector would reject the whole batch)', () => {
    expect(received.bodies.length).toBeGreaterThan(0);
    for (const body of received.bodies) {
      expect(body).not.toMatch(/"doubleValue"\s*:\s*null/);
      const doubles = collectDoubleValues(JSON.parse(body), []);
      expect(doubles.every((d) => typeof d === 'number' && Number.isFinite(d))).toBe(true);
    }
  });
});
