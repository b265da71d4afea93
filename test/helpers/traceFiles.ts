/**
 * traceFiles — write trace files for CLI tests out of real SDK spans.
 *
 * Each routing decision is judged by the real `decideTier2`, its attributes are built by the real
 * `encodeRoutingAttributes`, it is recorded as a span by the real SDK (BasicTracerProvider +
 * SimpleSpanProcessor + InMemorySpanExporter), and the finished spans are serialized by the real
 * `JsonTraceSerializer` into OTLP/JSON lines — the Collector file exporter's `format: json`. Decisions that
 * share a `trace` label are children of one root span, so they share a trace id. Files go to a temp dir.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace, type Attributes, type Span } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { encodeRoutingAttributes } from '../../src/instrument/encodeRoutingAttributes.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_MISROUTE_EXPECTED,
  ATTR_ROUTING_MISROUTE_REASON,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_SERVICE_NAME,
  EVENT_ROUTING_MISROUTED,
  SPAN_ROUTING_TIER2,
} from '../../src/semconv/semconv.js';
import { decideTier2, resolveRoutingPolicy } from '../../src/policy/routingPolicy.js';
import type { IntentScore, RoutingPolicy, ScorerTraits } from '../../src/policy/types.js';

/** One routing decision to record. */
export interface DecisionSpanSpec {
  readonly scores: readonly IntentScore[];
  readonly incumbent?: string;
  readonly policy?: Partial<RoutingPolicy>;
  readonly scorer?: ScorerTraits;
  /** @default 'embedding' */
  readonly scorerName?: string;
  /** @default 'desk' */
  readonly router?: string;
  readonly conversationId?: string;
  /** Decisions with the same label share one trace. @default a fresh trace per decision */
  readonly trace?: string;
  /** Span start, ms since the epoch. @default increasing from a fixed instant */
  readonly timeMs?: number;
  /** Record limit of the instrumentation. @default 50 */
  readonly maxCandidates?: number;
  /** A misroute event on the span. */
  readonly misroute?: { readonly expected: string; readonly reason?: string };
  /** Attributes written over the encoded ones (to record an inconsistent or hostile span). */
  readonly override?: Attributes;
}

/** What `writeTraceFile` wrote. */
export interface WrittenTraceFile {
  readonly path: string;
  /** Trace id per `trace` label (and per decision index for unlabelled ones, as `#i`). */
  readonly traceIds: ReadonlyMap<string, string>;
  readonly lines: number;
}

/** A temp dir for one test, and its removal. */
export function makeTempDir(prefix = 'routescope-cli-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let clockMs = Date.UTC(2026, 0, 15, 9, 0, 0);

/** The real spans of `specs`, one provider per call (nothing global is registered). */
export async function recordDecisionSpans(
  specs: readonly DecisionSpanSpec[],
  service = 'support-desk',
  plainSpans = 0,
): Promise<{ spans: ReturnType<InMemorySpanExporter['getFinishedSpans']>; traceIds: Map<string, string> }> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('routescope-test');
  const roots = new Map<string, Span>();
  const traceIds = new Map<string, string>();
  specs.forEach((spec, i) => {
    const start = spec.timeMs ?? (clockMs += 1000);
    let parent = context.active();
    if (spec.trace !== undefined) {
      let root = roots.get(spec.trace);
      if (root === undefined) {
        root = tracer.startSpan('invoke_agent', { startTime: start - 1 });
        roots.set(spec.trace, root);
        traceIds.set(spec.trace, root.spanContext().traceId);
      }
      parent = trace.setSpan(context.active(), root);
    }
    const policy = resolveRoutingPolicy(spec.policy);
    const scorer = spec.scorer ?? {};
    const verdict = decideTier2(spec.scores, spec.incumbent, policy, scorer);
    const attrs: Attributes = {
      ...encodeRoutingAttributes(
        { scores: spec.scores, incumbentId: spec.incumbent, policy, scorer },
        verdict,
        spec.maxCandidates ?? 50,
      ),
      [ATTR_ROUTING_ROUTER]: spec.router ?? 'desk',
      [ATTR_ROUTING_SCORER_NAME]: spec.scorerName ?? 'embedding',
      ...(spec.conversationId === undefined ? {} : { [ATTR_GEN_AI_CONVERSATION_ID]: spec.conversationId }),
      ...spec.override,
    };
    const span = tracer.startSpan(SPAN_ROUTING_TIER2, { startTime: start, attributes: attrs }, parent);
    if (spec.trace === undefined) traceIds.set(`#${i}`, span.spanContext().traceId);
    if (spec.misroute !== undefined) {
      span.addEvent(
        EVENT_ROUTING_MISROUTED,
        {
          [ATTR_ROUTING_MISROUTE_EXPECTED]: spec.misroute.expected,
          ...(spec.misroute.reason === undefined
            ? {}
            : { [ATTR_ROUTING_MISROUTE_REASON]: spec.misroute.reason }),
        },
        start + 5,
      );
    }
    span.end(start + 2);
  });
  for (let i = 0; i < plainSpans; i++) tracer.startSpan('GET /health', { startTime: (clockMs += 10) }).end();
  for (const root of roots.values()) root.end();
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return { spans, traceIds };
}

/**
 * Record `specs` (plus `plainSpans` non-routing spans) and write them as OTLP/JSON lines, `spansPerLine`
 * spans per export request, followed by `extraLines` verbatim (garbage, truncated JSON…).
 */
export async function writeTraceFile(
  path: string,
  specs: readonly DecisionSpanSpec[],
  options: {
    service?: string;
    spansPerLine?: number;
    extraLines?: readonly string[];
    plainSpans?: number;
  } = {},
): Promise<WrittenTraceFile> {
  const { spans, traceIds } = await recordDecisionSpans(specs, options.service, options.plainSpans);
  const per = Math.max(1, options.spansPerLine ?? 4);
  const lines: string[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < spans.length; i += per) {
    const bytes = JsonTraceSerializer.serializeRequest(spans.slice(i, i + per));
    if (bytes === undefined) throw new Error('JsonTraceSerializer produced nothing');
    lines.push(decoder.decode(bytes));
  }
  lines.push(...(options.extraLines ?? []));
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, traceIds, lines: lines.length };
}
