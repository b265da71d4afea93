/**
 * routingApp — a real app sending routing traces to a Collector, and keeping the same spans in files as the
 * oracle the tests compare the engines' answers with.
 *
 * Two parts, both on the real OpenTelemetry SDK and the real OTLP/HTTP exporter:
 * - the demo's support-desk agent (src/demo/runDemoAgent.ts): agentfootprint `turn_routed` events through the
 *   `routescopeObservability` strategy, one trace per conversation with the framework's spans around the
 *   routing spans, misroute marks from `markMisrouted`, a floorless embedding scorer; sent as OTLP/JSON;
 * - a hand-written router wrapped with `instrumentDecideTier2` (router `wrapped-desk`, scorer `rules` with a
 *   floor): one trace per turn (an `agent.turn` root, the routing span, a `chat` span), a near-tie every third
 *   turn, every seventh turn unmatched.
 * Trace and span ids come from seeded generators, so which traces a sampler keeps is the same on every run; a
 * run with another seed makes the same decisions under new ids. A run reaches the Collector as ONE OTLP/JSON
 * export request (the batch processor exports only when the run ends), so the Collector takes it in one step:
 * every span-metrics series of a run appears in the same flush, and two runs make every series go 0 → N → 2N, so
 * that a rate over any of them is exactly a ratio of counts.
 */
import path from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import { runDemoAgent, type DemoRunSummary } from '../../../src/demo/runDemoAgent.js';
import { OtlpJsonLinesFileExporter } from '../../../src/demo/otlpJsonLinesFileExporter.js';
import { createSeededIdGenerator } from '../../../src/demo/seededIdGenerator.js';
import { instrumentDecideTier2 } from '../../../src/instrument/instrumentDecideTier2.js';
import { decideTier2 } from '../../../src/policy/routingPolicy.js';

/** The router name of the wrapped part. */
export const WRAPPED_ROUTER = 'wrapped-desk';
/** The seed of the wrapped part's ids. */
const WRAPPED_SEED = 46_046;
/** The demo's seed, for a first run. */
export const APP_SEED = 20_261_207;

/**
 * A span processor that hands spans on to `target` but leaves flushing and shutting down to target's owner: the
 * wrapped router's provider feeds the demo's one-request processor without exporting it early.
 */
function feeding(target: SpanProcessor): SpanProcessor {
  return {
    onStart: (span, parent) => target.onStart(span, parent),
    onEnd: (span) => target.onEnd(span),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

/** One span processor handing every call to each of `processors`. */
function fanOut(processors: readonly SpanProcessor[]): SpanProcessor {
  return {
    onStart: (span, parent) => processors.forEach((p) => p.onStart(span, parent)),
    onEnd: (span) => processors.forEach((p) => p.onEnd(span)),
    forceFlush: async () => void (await Promise.all(processors.map((p) => p.forceFlush()))),
    shutdown: async () => void (await Promise.all(processors.map((p) => p.shutdown()))),
  };
}

/** What the app sent. */
export interface AppRun {
  /** The trace files holding exactly what was sent (the oracle). */
  readonly files: readonly string[];
  readonly demo: DemoRunSummary;
  /** Routing decisions the wrapped router made. */
  readonly wrappedDecisions: number;
}

/** What one wrapped turn is. */
export type TurnKind = 'unmatched' | 'near-tie' | 'decisive';

/** Wrapped turns: which are near-ties and which unmatched. */
export const wrappedTurnKind = (i: number): TurnKind =>
  i % 7 === 6 ? 'unmatched' : i % 3 === 0 ? 'near-tie' : 'decisive';

/** Run the hand-written router once per kind in `kinds`, its spans to `send` and to `file`. */
async function runWrappedRouter(
  send: SpanProcessor,
  file: string,
  kinds: readonly TurnKind[],
  seed: number,
  router = WRAPPED_ROUTER,
  meterProvider?: MeterProvider,
): Promise<number> {
  // A context manager for the turn's spans to nest in (the one already registered, when there is one).
  const manager = new AsyncLocalStorageContextManager().enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
  const provider = new BasicTracerProvider({
    idGenerator: createSeededIdGenerator(seed),
    resource: resourceFromAttributes({
      'service.name': 'wrapped-agent',
      'deployment.environment.name': 'e2e',
    }),
    spanProcessors: [
      feeding(send),
      new SimpleSpanProcessor(new OtlpJsonLinesFileExporter({ path: file, append: false })),
    ],
  });
  const tracer = provider.getTracer('wrapped-agent');
  const decide = instrumentDecideTier2(decideTier2, {
    tracerProvider: provider,
    routerName: router,
    scorerName: 'rules',
    ...(meterProvider === undefined ? {} : { meterProvider }),
  });
  try {
    for (const kind of kinds) {
      const root = tracer.startSpan('agent.turn');
      context.with(trace.setSpan(context.active(), root), () => {
        const top = kind === 'unmatched' ? -0.2 : 0.9;
        const gap = kind === 'near-tie' ? 0.02 : 0.4;
        decide(
          [
            { id: 'orders', score: top },
            { id: 'returns', score: top - gap },
            { id: 'account', score: top - 0.6 },
          ],
          'returns',
          { nearTieMargin: 0.05, menuSize: 2, floor: 0 },
        );
        tracer.startSpan('chat').end();
      });
      root.end();
    }
    await provider.forceFlush();
  } finally {
    await provider.shutdown();
  }
  return kinds.length;
}

/** One OTLP request's processor per endpoint: exported only when the run ends. */
function oneRequestEach(otlpHttp: string | readonly string[]): SpanProcessor {
  return fanOut(
    (typeof otlpHttp === 'string' ? [otlpHttp] : otlpHttp).map(
      (endpoint) =>
        new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }), {
          maxExportBatchSize: 16_384,
          maxQueueSize: 16_384,
          scheduledDelayMillis: 600_000,
        }),
    ),
  );
}

/**
 * Only the hand-written router, named `router`: one turn per kind, sent to `otlpHttp` in one request; the
 * oracle file in `dir`. For a burst of near-ties, say.
 */
export async function runRouterTurns(
  otlpHttp: string,
  dir: string,
  router: string,
  kinds: readonly TurnKind[],
  seed: number,
): Promise<string> {
  const file = path.join(dir, `${router}-${seed}.jsonl`);
  const send = oneRequestEach(otlpHttp);
  await runWrappedRouter(send, file, kinds, seed, router);
  await send.shutdown();
  return file;
}

/**
 * Send the demo agent's traces and `wrappedTurns` wrapped turns to `otlpHttp` (each of them, when several), ids
 * seeded with `seed`; the oracle files go in `dir` (named after the seed).
 */
export async function runRoutingApp(
  otlpHttp: string | readonly string[],
  dir: string,
  seed = APP_SEED,
  options: {
    readonly wrappedTurns?: number;
    /** The wrapped router's direct metrics go here too (flushed at the end of the run). */
    readonly meterProvider?: MeterProvider;
  } = {},
): Promise<AppRun> {
  const wrappedTurns = options.wrappedTurns ?? 120;
  const demoFile = path.join(dir, `demo-${seed}.jsonl`);
  const wrappedFile = path.join(dir, `wrapped-${seed}.jsonl`);
  // One request for the whole run to each endpoint: exported only when the demo's run shuts its provider down.
  const send = oneRequestEach(otlpHttp);
  const kinds = Array.from({ length: wrappedTurns }, (_, i) => wrappedTurnKind(i));
  const wrappedDecisions = await runWrappedRouter(
    send,
    wrappedFile,
    kinds,
    seed + WRAPPED_SEED,
    WRAPPED_ROUTER,
    options.meterProvider,
  );
  await options.meterProvider?.forceFlush();
  const demo = await runDemoAgent({ path: demoFile, seed, alsoTo: send });
  return { files: [demoFile, wrappedFile], demo, wrappedDecisions };
}
