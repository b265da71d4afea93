/**
 * traceScenario — real routing spans from the real SDK and instrumentation, and the files a collector makes
 * of them.
 *
 * `recordScenario` routes a few turns through `instrumentDecideTier2` (menu, move, unmatched with a NaN score,
 * a floorless stay), records tier-1/3 turns with `recordTurnRoute`, marks misroutes with `markMisrouted` (on
 * a live span and, later, by ids → a feedback span) and adds plain application spans. The writers below turn
 * those spans into each input format exactly as the producers do: the OTLP transformer's JSON and protobuf
 * serializers, 4-byte length framing, the `zstd` tool, gzip, and a Jaeger v1 converter following OTEL.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanStatusCode, type Attributes, type HrTime } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { recordTurnRoute } from '../../src/instrument/recordTurnRoute.js';
import type { Tier2Call } from '../../src/instrument/types.js';
import { DEFAULT_ROUTING_POLICY, decideTier2 } from '../../src/policy/routingPolicy.js';
import type { Tier2Verdict, TurnRoute } from '../../src/policy/types.js';

/** One tier-2 call as the instrumentation saw it. */
export interface RecordedCall {
  readonly spanId: string;
  readonly traceId: string;
  readonly call: Tier2Call;
  readonly verdict: Tier2Verdict;
  readonly scorerName: string;
}

/** The spans of one scenario run and what a reader must find in them. */
export interface Scenario {
  readonly spans: ReadableSpan[];
  readonly calls: readonly RecordedCall[];
  readonly turns: ReadonlyArray<{
    readonly spanId: string;
    readonly route: TurnRoute;
    readonly error: boolean;
  }>;
  /** Misroute marks on feedback spans: [routing span id it points at, expected skill]. */
  readonly feedback: ReadonlyArray<{ readonly parentSpanId: string; readonly expected: string }>;
  /** The routing span that carries a misroute event of its own. */
  readonly markedSpanId: string;
  readonly plainSpans: number;
}

export const SERVICE = 'support-desk';
export const AGENT = 'helpdesk-agent';

/** Route a few turns with the real SDK and instrumentation; every id is fresh on each run. */
export async function recordScenario(): Promise<Scenario> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': SERVICE, 'gen_ai.agent.name': AGENT }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const calls: RecordedCall[] = [];
  let markNext = false;
  let markedSpanId = '';
  const instrument = (scorerName: string) =>
    instrumentDecideTier2(decideTier2, {
      tracerProvider: provider,
      routerName: 'support',
      scorerName,
      context: (call) => ({ conversationId: `conv-${call.incumbentId ?? 'cold'}` }),
      attributesHook: (span, call, verdict) => {
        const { spanId, traceId } = span.spanContext();
        calls.push({ spanId, traceId, call, verdict, scorerName });
        if (markNext) {
          markMisrouted(span, { expected: 'refunds', reason: 'user said so', source: 'user-feedback' });
          markedSpanId = spanId;
          markNext = false;
        }
      },
    });
  const keyword = instrument('keyword');
  const embedding = instrument('embedding');
  const app = provider.getTracer('support-app');

  // Cold-start near tie → menu of the tied pair.
  keyword(
    [
      { id: 'billing', score: 0.62 },
      { id: 'refunds', score: 0.6 },
      { id: 'shipping', score: 0.1 },
    ],
    undefined,
    DEFAULT_ROUTING_POLICY,
    { floor: 0 },
  );
  // Decisive move away from the incumbent, marked misrouted while its span is live.
  markNext = true;
  keyword(
    [
      { id: 'billing', score: 0.9 },
      { id: 'refunds', score: 0.1 },
    ],
    'shipping',
    DEFAULT_ROUTING_POLICY,
    { floor: 0 },
  );
  // Nothing alive: a NaN score and one at the floor → unmatched, NaN recorded exactly.
  keyword(
    [
      { id: 'returns', score: NaN },
      { id: 'billing', score: 0 },
    ],
    undefined,
    { ...DEFAULT_ROUTING_POLICY, floor: 0 },
    { floor: 0 },
  );
  // A floorless scorer, near tie mid-conversation → stay.
  embedding(
    [
      { id: 'shipping', score: 0.81 },
      { id: 'returns', score: 0.8 },
      { id: 'billing', score: -Infinity },
    ],
    'shipping',
    DEFAULT_ROUTING_POLICY,
  );

  const turns: Array<{ spanId: string; route: TurnRoute; error: boolean }> = [];
  const entry: TurnRoute = {
    by: 'entry',
    to: 'billing',
    witness: { text: 'my invoice', keyword: 'invoice' },
  };
  const entryCtx = recordTurnRoute(entry, {
    tracerProvider: provider,
    routerName: 'support',
    context: { conversationId: 'conv-entry' },
  });
  turns.push({ spanId: entryCtx!.spanId, route: entry, error: false });
  // A turn recorded on the caller's own span, which then fails.
  const agentSpan = app.startSpan('invoke_agent helpdesk', {
    attributes: { 'gen_ai.operation.name': 'invoke_agent' },
  });
  const decided: TurnRoute = { by: 'decider', offered: ['billing', 'refunds'], from: 'shipping' };
  recordTurnRoute(decided, {
    span: agentSpan,
    routerName: 'support',
    decider: { provider: 'openai', model: 'gpt-4o-mini', picked: 'refunds' },
  });
  agentSpan.setStatus({ code: SpanStatusCode.ERROR, message: 'tool failed' });
  agentSpan.end();
  turns.push({ spanId: agentSpan.spanContext().spanId, route: decided, error: true });

  // Plain application spans: an LLM call and a tool call.
  for (let i = 0; i < 3; i++) {
    const chat = app.startSpan('chat gpt-4o-mini', {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.usage.input_tokens': 120 + i,
        'llm.temperature': 0.2,
      },
    });
    chat.addEvent('gen_ai.choice', { index: 0 });
    chat.end();
    app.startSpan('execute_tool lookup_order', { attributes: { 'tool.args': ['a', 'b'] } }).end();
  }

  // A mark that arrives after the menu's span ended: a feedback span in the same trace.
  const menuCall = calls[0]!;
  markMisrouted(
    { traceId: menuCall.traceId, spanId: menuCall.spanId },
    { expected: 'refunds', reason: 'picked the wrong menu item', source: 'eval' },
    { tracerProvider: provider },
  );

  const spans = exporter.getFinishedSpans().slice();
  await provider.shutdown();
  return {
    spans,
    calls,
    turns,
    feedback: [{ parentSpanId: menuCall.spanId, expected: 'refunds' }],
    markedSpanId,
    plainSpans: 6,
  };
}

/** Plain application spans only (no routing), `count` of them, from the real SDK. */
export async function recordPlainSpans(count: number): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': SERVICE }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const app = provider.getTracer('support-app');
  for (let i = 0; i < count; i++) {
    app
      .startSpan(i % 2 === 0 ? 'chat gpt-4o-mini' : 'execute_tool lookup_order', {
        attributes: { 'gen_ai.operation.name': i % 2 === 0 ? 'chat' : 'execute_tool', 'app.index': i },
      })
      .end();
  }
  const spans = exporter.getFinishedSpans().slice();
  await provider.shutdown();
  return spans;
}

/** One OTLP/JSON export request, as the JS exporter (and the file exporter's `format: json`) writes it. */
export function toOtlpJson(spans: ReadableSpan[]): string {
  return Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8');
}

/** One protobuf ExportTraceServiceRequest. */
export function toOtlpProto(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
}

/** Records framed by a 4-byte big-endian length, as the file exporter frames proto and legacy zstd. */
export function frameRecords(records: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const r of records) {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(r.length, 0);
    parts.push(header, r);
  }
  return Buffer.concat(parts);
}

/** Compress with the real `zstd` tool (one frame). */
export function zstdCompress(data: Buffer): Buffer {
  return execFileSync('zstd', ['-q', '-c'], { input: data, maxBuffer: 1024 * 1024 * 1024 });
}

function hrToMicros(t: HrTime): number {
  return t[0] * 1e6 + Math.round(t[1] / 1e3);
}

function jaegerTags(attrs: Attributes): Array<{ key: string; type: string; value: unknown }> {
  const tags: Array<{ key: string; type: string; value: unknown }> = [];
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) tags.push({ key, type: 'string', value: JSON.stringify(value) });
    else if (typeof value === 'boolean') tags.push({ key, type: 'bool', value });
    else if (typeof value === 'number')
      tags.push({ key, type: Number.isInteger(value) ? 'int64' : 'float64', value });
    else tags.push({ key, type: 'string', value });
  }
  return tags;
}

const SPAN_KINDS = ['internal', 'server', 'client', 'producer', 'consumer'];

/**
 * A Jaeger v1 `{data:[…]}` document of `spans`, following the OTel → Jaeger mapping: arrays as JSON text in
 * string tags, events as logs with an `event` field, service.name moved to the process, `span.kind`,
 * `otel.status_code` and `otel.scope.name` added; span ids written without leading zeros.
 */
export function toJaegerV1(spans: ReadableSpan[]): { data: unknown[] } {
  const byTrace = new Map<string, ReadableSpan[]>();
  for (const s of spans) {
    const id = s.spanContext().traceId;
    byTrace.set(id, [...(byTrace.get(id) ?? []), s]);
  }
  const data: unknown[] = [];
  for (const [traceId, group] of byTrace) {
    const resource = group[0]!.resource.attributes;
    const { ['service.name']: serviceName, ...processAttrs } = resource;
    data.push({
      traceID: traceId,
      spans: group.map((s) => ({
        traceID: traceId,
        spanID: s.spanContext().spanId.replace(/^0+/, ''),
        operationName: s.name,
        references:
          s.parentSpanContext === undefined
            ? []
            : [{ refType: 'CHILD_OF', traceID: traceId, spanID: s.parentSpanContext.spanId }],
        startTime: hrToMicros(s.startTime),
        duration: hrToMicros(s.duration),
        tags: [
          ...jaegerTags(s.attributes),
          { key: 'span.kind', type: 'string', value: SPAN_KINDS[s.kind] },
          { key: 'otel.scope.name', type: 'string', value: s.instrumentationScope.name },
          ...(s.status.code === SpanStatusCode.ERROR
            ? [
                { key: 'otel.status_code', type: 'string', value: 'ERROR' },
                { key: 'error', type: 'bool', value: true },
              ]
            : []),
        ],
        logs: s.events.map((e) => ({
          timestamp: hrToMicros(e.time),
          fields: [{ key: 'event', type: 'string', value: e.name }, ...jaegerTags(e.attributes ?? {})],
        })),
        processID: 'p1',
        warnings: null,
      })),
      processes: { p1: { serviceName, tags: jaegerTags(processAttrs) } },
      warnings: null,
    });
  }
  return { data };
}

/** A fresh temp folder, removed after `fn`. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'routescope-trace-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
