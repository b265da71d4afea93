/**
 * recordTurnRoute — put the turn-level route (tiers 1 and 3 included) on a span.
 *
 * A misroute that never reached tier 2 — a tier-1 rule that fired on the wrong words, a decider that picked
 * badly, a dropped resume — leaves no tier-2 span, so the turn's own verdict must be on the record too. It
 * goes on the caller's span (the turn's `invoke_agent` span, say; never a tier-2 span, whose `to` and
 * `offered` it would overwrite) or on a new `agentfootprint.routing.turn` span. Witness text is user text:
 * recorded only when asked, and then redacted first. Never throws; builds nothing for a span not recording.
 */
import { SpanKind, trace } from '@opentelemetry/api';
import type { Attributes, SpanContext, SpanOptions } from '@opentelemetry/api';
import type { TurnRoute } from '../policy/types.js';
import { sinkInto, putStringWith, writeRoutingContext } from './addRoutingContext.js';
import type { AttributeSink } from './addRoutingContext.js';
import { DEFAULT_INSTRUMENTATION_CONFIG } from './resolveInstrumentationConfig.js';
import { endQuietly, INSTRUMENTATION_SCOPE_NAME, safeExecute, startRecordingSpan } from './safeExecute.js';
import {
  ATTR_ROUTING_BY,
  ATTR_ROUTING_DECIDER_MODEL,
  ATTR_ROUTING_DECIDER_PICKED,
  ATTR_ROUTING_DECIDER_PROVIDER,
  ATTR_ROUTING_DROPPED_RESUME_ID,
  ATTR_ROUTING_DROPPED_RESUME_REASON,
  ATTR_ROUTING_FROM,
  ATTR_ROUTING_OFFERED,
  ATTR_ROUTING_RECORD_VERSION,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_STAY_OFFERED,
  ATTR_ROUTING_TO,
  ATTR_ROUTING_WITNESS_KEYWORD,
  ATTR_ROUTING_WITNESS_TEXT,
  ROUTING_RECORD_VERSION,
  SPAN_ROUTING_TURN,
} from '../semconv/semconv.js';
import type { TurnRouteOptions } from './types.js';

// Stryker disable next-line ObjectLiteral: equivalent for the OpenTelemetry SDK, whose default span kind is INTERNAL.
const TURN_SPAN_OPTIONS: SpanOptions = Object.freeze({ kind: SpanKind.INTERNAL });

/**
 * Record `turnRoute` on `options.span`, or on a new turn span (child of the active context, ended here).
 * Returns the span context it recorded on, for a later `markMisrouted`; undefined when nothing recorded.
 */
export function recordTurnRoute(
  turnRoute: TurnRoute,
  options: TurnRouteOptions = {},
): SpanContext | undefined {
  if (turnRoute === null || typeof turnRoute !== 'object') return undefined;
  const given = options.span;
  if (given !== undefined) {
    const recording = safeExecute('checking the caller span', () => given.isRecording());
    if (recording !== true) return undefined;
    const attrs = safeExecute('encoding the turn route', () => encodeTurnRoute(turnRoute, options));
    if (attrs === undefined) return undefined;
    safeExecute('setting the turn attributes', () => given.setAttributes(attrs));
    return safeExecute('reading the span context', () => given.spanContext());
  }
  const tracer = safeExecute('getting a tracer', () =>
    (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE_NAME),
  );
  if (tracer === undefined) return undefined;
  const span = startRecordingSpan(tracer, SPAN_ROUTING_TURN, TURN_SPAN_OPTIONS);
  if (span === undefined) return undefined;
  const attrs = safeExecute('encoding the turn route', () => encodeTurnRoute(turnRoute, options));
  if (attrs !== undefined) safeExecute('setting the turn attributes', () => span.setAttributes(attrs));
  const spanContext = safeExecute('reading the span context', () => span.spanContext());
  endQuietly(span);
  return spanContext;
}

/** The attributes of one turn route. Pure apart from the caller's redaction function. */
export function encodeTurnRoute(turnRoute: TurnRoute, options: TurnRouteOptions = {}): Attributes {
  const attrs: Attributes = {};
  writeTurnRoute(sinkInto(attrs), turnRoute, options);
  return attrs;
}

/**
 * The same attributes, in the same order, handed to `sink` one by one: the strategy passes its span itself,
 * which spares an object the SDK would only walk key by key.
 */
export function writeTurnRoute(
  sink: AttributeSink,
  turnRoute: TurnRoute,
  options: TurnRouteOptions = {},
): void {
  sink.setAttribute(ATTR_ROUTING_RECORD_VERSION, ROUTING_RECORD_VERSION);
  sink.setAttribute(ATTR_ROUTING_BY, turnRoute.by);
  putStringWith(sink, ATTR_ROUTING_ROUTER, options.routerName);
  putStringWith(sink, ATTR_ROUTING_FROM, turnRoute.from);
  putStringWith(sink, ATTR_ROUTING_TO, turnRoute.to);
  if (Array.isArray(turnRoute.offered)) sink.setAttribute(ATTR_ROUTING_OFFERED, stringsOf(turnRoute.offered));
  if (typeof turnRoute.stayOffered === 'boolean')
    sink.setAttribute(ATTR_ROUTING_STAY_OFFERED, turnRoute.stayOffered);

  const witness = turnRoute.witness;
  if (witness !== undefined && witness !== null) {
    putStringWith(sink, ATTR_ROUTING_WITNESS_KEYWORD, witness.keyword);
    if (options.recordWitness === true && typeof witness.text === 'string') {
      const redact = options.redactWitness ?? DEFAULT_INSTRUMENTATION_CONFIG.redactWitness;
      // A redaction that fails leaves the text out: an unredacted fallback would leak what it was meant to hide.
      putStringWith(
        sink,
        ATTR_ROUTING_WITNESS_TEXT,
        safeExecute('the redactWitness function', () => redact(witness.text)),
      );
    }
  }
  const decider = options.decider;
  if (decider !== undefined) {
    putStringWith(sink, ATTR_ROUTING_DECIDER_PROVIDER, decider.provider);
    putStringWith(sink, ATTR_ROUTING_DECIDER_MODEL, decider.model);
    putStringWith(sink, ATTR_ROUTING_DECIDER_PICKED, decider.picked);
  }
  const dropped = options.droppedResume;
  if (dropped !== undefined) {
    putStringWith(sink, ATTR_ROUTING_DROPPED_RESUME_ID, dropped.id);
    putStringWith(sink, ATTR_ROUTING_DROPPED_RESUME_REASON, dropped.reason);
  }
  if (options.context !== undefined) writeRoutingContext(sink, options.context);
}

/** A copy of `ids` as strings: sliced when they all are already (the common case), else each one converted. */
function stringsOf(ids: readonly unknown[]): string[] {
  // Stryker disable next-line ConditionalExpression: equivalent when false — String() of a string is that string; only the cost differs.
  return ids.every(isString) ? (ids.slice() as string[]) : ids.map(String);
}

// Stryker disable next-line BlockStatement: equivalent — no answer reads as false, which only takes map(String): the same strings.
function isString(value: unknown): value is string {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent when false — map(String) gives the same strings.
  return typeof value === 'string';
}
