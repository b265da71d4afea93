/**
 * routescopeObservability — plug routescope into a real agentfootprint agent in one line.
 *
 * The framework's RouteTurn stage calls decideTier2 itself, so wrapping that function changes nothing an agent
 * runs; what the framework does tell observers is one `agentfootprint.skill.turn_routed` event per routed turn.
 * This strategy (agentfootprint's `ObservabilityStrategy`, typed structurally: the framework is not imported)
 * turns each such event into the spans the wrapper writes, so analyzer, dashboards and alerts cannot tell the
 * paths apart:
 *
 * event                             span (kind INTERNAL, at meta.wallClockMs)  attributes (docs/semconv.md)
 * --------------------------------  -----------------------------------------  ------------------------------
 * turn_routed with `scores`         agentfootprint.routing.tier2               what happened (verdict, to,
 *                                                                              offered, candidates, runner-up,
 *                                                                              policy …), policy.semantics,
 *                                                                              source, rebuilt.*, scorer.*
 * every turn_routed                 agentfootprint.routing.turn                by, from, to, offered,
 *                                                                              stay_offered, witness.*,
 *                                                                              decider.*, dropped_resume.*
 *
 * Parent: the framework's turn span for `meta.runId` when `spanProcessor` is on the tracer provider, else the
 * active context. PII rule: witness text only with `recordWitness: true`, through `redactWitness`. It never
 * throws, never touches the event, stays synchronous, and any other event type costs a comparison or two (it is
 * counted: strategyStatus.ts). The global provider is looked up at the first routed turn, not when the strategy
 * is built, and again while it has no SDK (tracerSource.ts: two copies of @opentelemetry/api); `status()` says
 * what was seen and recorded and, while nothing was, why.
 */
import type { MeterProvider, Span, TracerProvider } from '@opentelemetry/api';
import {
  DEFAULT_CATEGORICAL_SCORERS,
  DEFAULT_MAX_JUDGED_CANDIDATES,
  TURN_ROUTED_EVENT_TYPE,
} from '../policy/turnRoutedEvent.js';
import type { TurnRoutedReading } from '../policy/turnRoutedEvent.js';
import type { PolicySemantics } from '../policy/types.js';
import { resolveInstrumentationConfig } from './resolveInstrumentationConfig.js';
import { createRoutingMetrics } from './routingMetrics.js';
import { createRunSpanIndex } from './runSpanIndex.js';
import type { RunSpanIndex } from './runSpanIndex.js';
import { logSwallowed, safeExecute, tell } from './safeExecute.js';
import { createStrategyTally, STRATEGY_EVENT_TYPES } from './strategyStatus.js';
import type { RoutescopeObservabilityStatus } from './strategyStatus.js';
import { createTracerSource } from './tracerSource.js';
import { recordEvent, type Settings } from './recordTurnRoutedEvent.js';

export { ROUTING_SOURCE_TURN_ROUTED } from './recordTurnRoutedEvent.js';

/** User options of `routescopeObservability`. Every field is optional. */
export interface RoutescopeObservabilityConfig {
  /**
   * Where spans go, used as given. @default the global provider (`trace.getTracerProvider()`), read at the first
   * routed turn and again while it has no SDK, so an SDK registered after the strategy is built is found
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Longest wait of `flush()` for each provider's `forceFlush`, in milliseconds; past it flush() resolves with a
   * diag warning instead of hanging the agent's shutdown. @default FLUSH_TIMEOUT_MS (10 s)
   */
  readonly flushTimeoutMs?: number;
  /** Also record the routing metrics, exactly as `instrumentDecideTier2` records them. @default undefined (none) */
  readonly meterProvider?: MeterProvider;
  /** Which routing graph the agent routes through, written as `agentfootprint.routing.router`. @default none */
  readonly routerName?: string;
  /** Written as `gen_ai.agent.name`. @default none */
  readonly agentName?: string;
  /** The policy behaviour the agent runs, which judges each event's numbers. @default 'agentfootprint-9.62' */
  readonly policySemantics?: PolicySemantics;
  /** Scorer names judged as categorical (the event does not carry the trait). @default ['llm-classifier'] */
  readonly categoricalScorers?: readonly string[];
  /** Record tier-1 witness text (user text: PII); the keyword always is. @default false */
  readonly recordWitness?: boolean;
  /** Applied to witness text before it is recorded; a throw drops the text. @default the identity */
  readonly redactWitness?: (text: string) => string;
  /** How many ranked candidates to record, best first; the count left out is recorded. @default 20 */
  readonly maxRecordedCandidates?: number;
  /** Events with more candidates are not judged (their turn route still is). @default 1000 */
  readonly maxJudgedCandidates?: number;
  /** Adds attributes to each recording span after routescope's own; a throw is logged and ignored. @default none */
  readonly attributesHook?: (span: Span, reading: TurnRoutedReading, spanName: string) => void;
  /**
   * The run-span index to join turns through, when the tracer provider is built before the strategy (several
   * agents may share one: `createRunSpanIndex()`). @default a new one, exposed as `spanProcessor`
   */
  readonly runSpanIndex?: RunSpanIndex;
}

/** The strategy: agentfootprint's `ObservabilityStrategy` shape, plus the span processor that joins turns. */
export interface RoutescopeObservability {
  readonly name: 'routescope';
  readonly capabilities: { readonly traces: true; readonly metrics: boolean };
  /** The framework calls `exportEvent` only for these (it filters again itself). */
  readonly relevantEventTypes: readonly string[];
  /**
   * Record one event: a `turn_routed` event becomes its spans (and metrics); any other value is ignored.
   * Bound: it also works as `agent.on('agentfootprint.skill.turn_routed', routescope.exportEvent)`.
   */
  readonly exportEvent: (event: unknown) => void;
  /**
   * Drain what was recorded: `forceFlush()` on the tracer provider (its processors export the spans this
   * strategy ended) and on the meter provider, when they have one. Never rejects; safe twice, and after stop.
   */
  readonly flush: () => Promise<void>;
  /** Stop recording: later events are ignored and its own open-run index is cleared. Drains nothing (flush does). Safe twice. */
  readonly stop: () => void;
  /** Add this to your tracer provider's `spanProcessors` so routing spans become children of the framework's turn spans. */
  readonly spanProcessor: RunSpanIndex;
  /**
   * What it has seen and recorded, and while it has recorded nothing, why (a snapshot: call it again for news).
   * docs/instrumentation.md, "Nothing shows up?".
   */
  readonly status: () => RoutescopeObservabilityStatus;
}

/**
 * Create the strategy. Setup is `agent.enable.observability({ strategy: routescopeObservability() })`; with the
 * framework's own `otelObservability` running too, add `strategy.spanProcessor` to the SDK's span processors.
 */
export function routescopeObservability(config: RoutescopeObservabilityConfig = {}): RoutescopeObservability {
  const settings = resolveConfig(config);
  const tracers = createTracerSource(config.tracerProvider);
  const meterProvider = config.meterProvider;
  const metrics =
    meterProvider === undefined
      ? undefined
      : safeExecute('creating the routing metrics', () => createRoutingMetrics(meterProvider));
  const index = config.runSpanIndex ?? createRunSpanIndex();
  const tally = createStrategyTally(tracers);
  const flushTimeoutMs =
    typeof config.flushTimeoutMs === 'number' && config.flushTimeoutMs >= 0
      ? config.flushTimeoutMs
      : FLUSH_TIMEOUT_MS;
  let stopped = false;
  // True while an event is being recorded: a call from inside (an attributesHook, a span processor or a diag
  // logger that hands events back) is dropped, not recorded again and again (depth 15 was 131,070 spans).
  let recording = false;

  const exportEvent = (event: unknown): void => {
    if (stopped) return;
    if (recording) {
      tally.reentered();
      return;
    }
    recording = true;
    // Everything inside the guard, reading `type` too: a Proxy or a getter may throw on any read.
    try {
      const type =
        typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
      if (type !== TURN_ROUTED_EVENT_TYPE) {
        tally.otherEvent(type);
        return;
      }
      tally.turnRouted();
      const recorded = recordEvent(event, settings, tracers.tracerForTurn(), metrics, index);
      if (recorded !== undefined) tally.recorded(recorded);
    } catch (err) {
      logSwallowed('recording a turn_routed event', err);
    } finally {
      recording = false;
    }
  };
  const flush = async (): Promise<void> => {
    await flushQuietly(tracers.providerToFlush(), 'the tracer provider', flushTimeoutMs);
    if (meterProvider !== undefined) await flushQuietly(meterProvider, 'the meter provider', flushTimeoutMs);
  };
  const stop = (): void => {
    stopped = true;
    // A shared index belongs to whoever made it: the other strategies still join through it.
    if (config.runSpanIndex === undefined) void index.shutdown();
  };
  return {
    name: 'routescope',
    capabilities: { traces: true, metrics: metrics !== undefined },
    relevantEventTypes: STRATEGY_EVENT_TYPES,
    exportEvent,
    flush,
    stop,
    spanProcessor: index,
    status: tally.status,
  };
}

/**
 * Fill the defaults; the options the wrapper shares are filled by the wrapper's own resolver. The tracer provider
 * is not among them: the wrapper's resolver reads the global one now, the strategy at its first routed turn.
 */
function resolveConfig(config: RoutescopeObservabilityConfig): Settings {
  const shared = resolveInstrumentationConfig({
    maxRecordedCandidates: config.maxRecordedCandidates,
    recordWitness: config.recordWitness,
    redactWitness: config.redactWitness,
  });
  const judged = config.maxJudgedCandidates;
  return {
    routerName: config.routerName,
    ids: config.agentName === undefined ? {} : { agentName: config.agentName },
    read: {
      semantics: config.policySemantics ?? 'agentfootprint-9.62',
      categoricalScorers: config.categoricalScorers ?? DEFAULT_CATEGORICAL_SCORERS,
      maxJudgedCandidates: typeof judged === 'number' && judged >= 0 ? judged : DEFAULT_MAX_JUDGED_CANDIDATES,
    },
    maxRecordedCandidates: shared.maxRecordedCandidates,
    recordWitness: shared.recordWitness,
    redactWitness: shared.redactWitness,
    attributesHook: config.attributesHook,
  };
}

/** How long `flush()` waits for each provider's `forceFlush` before it gives up on it (with a diag warning). */
export const FLUSH_TIMEOUT_MS = 10_000;

/**
 * `forceFlush()` on a provider that has one (an SDK's, or the global proxy's delegate); never rejects, and
 * never waits past `timeoutMs`: a provider whose flush never settles (an exporter stuck on a dead collector) is
 * one diag warning, and the agent's shutdown goes on.
 */
async function flushQuietly(provider: unknown, what: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    let target = provider as { forceFlush?: () => unknown; getDelegate?: () => unknown };
    if (typeof target.forceFlush !== 'function' && typeof target.getDelegate === 'function') {
      target = target.getDelegate() as typeof target;
    }
    if (typeof target?.forceFlush !== 'function') return;
    const flushing = Promise.resolve(target.forceFlush()).then(() => 'flushed' as const);
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
      timer.unref?.();
    });
    if ((await Promise.race([flushing, late])) === 'late') {
      flushing.catch((err: unknown) => logSwallowed(`flushing ${what}`, err));
      tell(
        `flushing ${what} did not finish within ${timeoutMs} ms; flush() stopped waiting (spans still queued may be lost)`,
      );
    }
  } catch (err) {
    logSwallowed(`flushing ${what}`, err);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
