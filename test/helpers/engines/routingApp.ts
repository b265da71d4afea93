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

/** What the app sent. */
export interface AppRun {
  /** The trace files holding exactly what was sent (the oracle). */
  readonly files: readonly string[];
  readonly demo: DemoRunSummary;
  /** Routing decisions the wrapped router made. */
  readonly wrappedDecisions: number;
}

/** Wrapped turns: which are near-ties and which unmatched. */
export const wrappedTurnKind = (i: number): 'unmatched' | 'near-tie' | 'decisive' =>
  i % 7 === 6 ? 'unmatched' : i % 3 === 0 ? 'near-tie' : 'decisive';

/** Run the hand-written router `turns` times, its spans to `send` and to `file`. */
async function runWrappedRouter(
  send: SpanProcessor,
  file: string,
  turns: number,
  seed: number,
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
    routerName: WRAPPED_ROUTER,
    scorerName: 'rules',
  });
  try {
    for (let i = 0; i < turns; i++) {
      const kind = wrappedTurnKind(i);
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
  return turns;
}

/**
 * Send the demo agent's traces and `wrappedTurns` wrapped turns to `otlpHttp`, ids seeded with `seed`; the oracle
 * files go in `dir` (named after the seed).
 */
export async function runRoutingApp(
  otlpHttp: string,
  dir: string,
  seed = APP_SEED,
  wrappedTurns = 120,
): Promise<AppRun> {
  const demoFile = path.join(dir, `demo-${seed}.jsonl`);
  const wrappedFile = path.join(dir, `wrapped-${seed}.jsonl`);
  // One request for the whole run: exported only when the demo's run shuts its provider down, at the end.
  const send = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpHttp}/v1/traces` }), {
    maxExportBatchSize: 16_384,
    maxQueueSize: 16_384,
    scheduledDelayMillis: 600_000,
  });
  const wrappedDecisions = await runWrappedRouter(send, wrappedFile, wrappedTurns, seed + WRAPPED_SEED);
  const demo = await runDemoAgent({ path: demoFile, seed, alsoTo: send });
  return { files: [demoFile, wrappedFile], demo, wrappedDecisions };
}
