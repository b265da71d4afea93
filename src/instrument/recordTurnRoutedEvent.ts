/**
 * recordTurnRoutedEvent — one `turn_routed` event as the routing spans the wrapper writes: the tier-2 span when
 * the scorer ran, the turn span always, under the framework's turn span for the event's run, with the metrics.
 *
 * The strategy (routescopeObservability) decides whether an event is recorded at all (stopped, re-entered, no
 * tracer) and counts what was; this is the recording, the table of its module header made spans. Nothing here
 * throws into the host.
 */
import { context as otelContext, SpanKind, trace } from '@opentelemetry/api';
import type { Context, Span, SpanOptions, TracerProvider } from '@opentelemetry/api';
import {
  readTurnRoutedEvent,
  readTurnRoutedEventForRecording,
  TURN_ROUTED_EVENT_TYPE,
} from '../policy/turnRoutedEvent.js';
import type {
  ReadTurnRoutedOptions,
  TurnRoutedDecision,
  TurnRoutedReading,
} from '../policy/turnRoutedEvent.js';
import { putStringWith, writeRoutingContext } from './addRoutingContext.js';
import { writeRoutingAttributes } from './encodeRoutingAttributes.js';
import { writeTurnRoute } from './recordTurnRoute.js';
import { recordRoutingMetrics } from './routingMetrics.js';
import type { RoutingMetrics } from './routingMetrics.js';
import type { RunSpanIndex } from './runSpanIndex.js';
import { endQuietly, logSwallowed, safeExecute, startRecordingSpan, tell } from './safeExecute.js';
import {
  ATTR_ROUTING_POLICY_SEMANTICS,
  ATTR_ROUTING_REBUILT_DIFFERENCES,
  ATTR_ROUTING_REBUILT_VERDICT,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_SCORER_WINDOW,
  ATTR_ROUTING_SOURCE,
  SPAN_ROUTING_TIER2,
  SPAN_ROUTING_TURN,
} from '../semconv/semconv.js';
import type { RoutingContext, Tier2Call, TurnRouteOptions } from './types.js';

/** The value of `agentfootprint.routing.source` on spans this strategy writes. */
export const ROUTING_SOURCE_TURN_ROUTED = 'turn_routed';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const SPAN_OPTIONS_KIND: SpanOptions['kind'] = SpanKind.INTERNAL;

/** The strategy's options, filled (routescopeObservability's resolveConfig). */
export interface Settings {
  readonly routerName: string | undefined;
  readonly ids: RoutingContext;
  readonly read: ReadTurnRoutedOptions;
  readonly maxRecordedCandidates: number;
  readonly recordWitness: boolean;
  readonly redactWitness: (text: string) => string;
  readonly attributesHook: ((span: Span, reading: TurnRoutedReading, spanName: string) => void) | undefined;
}

/** Record one event; the routing spans recorded, or undefined when none was tried (no tracer, an invalid event). */
export function recordEvent(
  event: unknown,
  settings: Settings,
  tracer: ReturnType<TracerProvider['getTracer']> | undefined,
  metrics: RoutingMetrics | undefined,
  index: RunSpanIndex,
): number | undefined {
  if (tracer === undefined && metrics === undefined) return undefined;
  // The hook is handed the public reading; without one, the decision alone is rebuilt (the spans record the
  // event's own ranking and shares either way).
  const reading =
    settings.attributesHook === undefined
      ? readTurnRoutedEventForRecording(event, settings.read)
      : readTurnRoutedEvent(event, settings.read);
  if (reading.kind === 'invalid') {
    tell(`a ${TURN_ROUTED_EVENT_TYPE} event was not recorded: ${reading.reason}`);
    return undefined;
  }
  if (reading.problems.length > 0) {
    tell(`a ${TURN_ROUTED_EVENT_TYPE} event was recorded in part: ${reading.problems.join('; ')}`);
  }
  const decision = reading.decision;
  const call: Tier2Call | undefined =
    decision === undefined
      ? undefined
      : {
          scores: decision.scores,
          incumbentId: decision.incumbentId,
          policy: decision.policy,
          scorer: decision.scorerTraits,
        };
  let recorded: number | undefined;
  if (tracer !== undefined) {
    recorded = 0;
    const parent = parentOf(reading, index);
    const time = reading.meta.wallClockMs;
    const options: SpanOptions =
      time === undefined ? { kind: SPAN_OPTIONS_KIND } : { kind: SPAN_OPTIONS_KIND, startTime: time };
    const ids = conversationOf(reading, settings);
    // Stryker disable next-line LogicalOperator: equivalent — decision and call are defined together.
    if (decision !== undefined && call !== undefined) {
      const span = startRecordingSpan(tracer, SPAN_ROUTING_TIER2, options, parent);
      if (span !== undefined) {
        // Straight onto the span, key by key: an attributes object would only be walked again by the SDK. Plain
        // try blocks, not safeExecute: no closure to allocate on every routed turn.
        try {
          writeRoutingAttributes(span, call, decision.happened, settings.maxRecordedCandidates);
        } catch (err) {
          logSwallowed('setting the tier-2 attributes', err);
        }
        try {
          writeCallAttributes(span, settings, reading, decision, ids);
        } catch (err) {
          logSwallowed('setting the call attributes', err);
        }
        runHook(settings, span, reading, SPAN_ROUTING_TIER2);
        endQuietly(span, time);
        recorded++;
      }
    }
    if (recordTurn(tracer, settings, reading, ids, options, parent, time)) recorded++;
  }
  if (metrics !== undefined && decision !== undefined && call !== undefined) {
    recordRoutingMetrics(metrics, settings.routerName, reading.scorer, call, decision.happened);
  }
  return recorded;
}

function recordTurn(
  tracer: ReturnType<TracerProvider['getTracer']>,
  settings: Settings,
  reading: TurnRoutedReading,
  ids: RoutingContext,
  options: SpanOptions,
  parent: Context,
  time: number | undefined,
): boolean {
  const span = startRecordingSpan(tracer, SPAN_ROUTING_TURN, options, parent);
  if (span === undefined) return false;
  const route: Mutable<TurnRouteOptions> = {
    routerName: settings.routerName,
    recordWitness: settings.recordWitness,
    redactWitness: settings.redactWitness,
    context: ids,
  };
  if (reading.decider !== undefined) route.decider = reading.decider;
  if (reading.droppedResume !== undefined) route.droppedResume = reading.droppedResume;
  try {
    writeTurnRoute(span, reading.turn, route);
    span.setAttribute(ATTR_ROUTING_SOURCE, ROUTING_SOURCE_TURN_ROUTED);
  } catch (err) {
    logSwallowed('setting the turn attributes', err);
  }
  runHook(settings, span, reading, SPAN_ROUTING_TURN);
  endQuietly(span, time);
  return true;
}

/** What the strategy adds to the tier-2 span beyond the wrapper's attributes: the behaviour, the rebuild, the scorer. */
function writeCallAttributes(
  span: Span,
  settings: Settings,
  reading: TurnRoutedReading,
  decision: TurnRoutedDecision,
  ids: RoutingContext,
): void {
  span.setAttribute(ATTR_ROUTING_POLICY_SEMANTICS, decision.semantics);
  span.setAttribute(ATTR_ROUTING_SOURCE, ROUTING_SOURCE_TURN_ROUTED);
  span.setAttribute(ATTR_ROUTING_REBUILT_VERDICT, decision.rebuilt.kind);
  if (decision.differences.length > 0)
    // Stryker disable next-line MethodExpression: equivalent — nothing writes to the reading's list afterwards.
    span.setAttribute(ATTR_ROUTING_REBUILT_DIFFERENCES, decision.differences.slice());
  putStringWith(span, ATTR_ROUTING_ROUTER, settings.routerName);
  putStringWith(span, ATTR_ROUTING_SCORER_NAME, reading.scorer);
  if (reading.window !== undefined && Number.isFinite(reading.window)) {
    span.setAttribute(ATTR_ROUTING_SCORER_WINDOW, reading.window);
  }
  writeRoutingContext(span, ids);
}

/** The framework's turn span for the event's run, when the index saw it start; else the active context. */
function parentOf(reading: TurnRoutedReading, index: RunSpanIndex): Context {
  const active = otelContext.active();
  const runId = reading.meta.runId;
  if (runId === undefined) return active;
  const turn = index.lookup(runId);
  return turn === undefined ? active : trace.setSpanContext(active, turn);
}

function conversationOf(reading: TurnRoutedReading, settings: Settings): RoutingContext {
  const sessionId = reading.meta.sessionId;
  if (sessionId === undefined) return settings.ids;
  const agentName = settings.ids.agentName;
  return agentName === undefined ? { conversationId: sessionId } : { conversationId: sessionId, agentName };
}

function runHook(settings: Settings, span: Span, reading: TurnRoutedReading, name: string): void {
  const hook = settings.attributesHook;
  if (hook !== undefined) safeExecute('the attributesHook', () => hook(span, reading, name));
}
