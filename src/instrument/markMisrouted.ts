/**
 * markMisrouted — attach a correctness signal to a routed turn: "this one went to the wrong skill".
 *
 * Rates can be tuned without labels, but whether a tuning catches real misroutes needs some; they arrive
 * late (user feedback, an eval, a review) and often in another process. A live span gets the event
 * `agentfootprint.routing.misrouted`; an ended span, or bare ids, get a short `agentfootprint.routing.feedback`
 * span in the same trace (child of the routing span when its id is known) carrying that event, so readers
 * join the mark by trace id. Never throws.
 */
import {
  context,
  isSpanContextValid,
  isValidSpanId,
  isValidTraceId,
  SpanKind,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import type { Attributes, Span, SpanContext, SpanOptions } from '@opentelemetry/api';
import { putString } from './addRoutingContext.js';
import {
  endQuietly,
  INSTRUMENTATION_SCOPE_NAME,
  logSwallowed,
  safeExecute,
  startRecordingSpan,
} from './safeExecute.js';
import {
  ATTR_ROUTING_MISROUTE_EXPECTED,
  ATTR_ROUTING_MISROUTE_REASON,
  ATTR_ROUTING_MISROUTE_SOURCE,
  EVENT_ROUTING_MISROUTED,
  SPAN_ROUTING_FEEDBACK,
} from '../semconv/semconv.js';
import type { MarkMisroutedOptions, MisrouteMarkInput, MisrouteTarget } from './types.js';

// Stryker disable next-line ObjectLiteral: equivalent for the OpenTelemetry SDK, whose default span kind is INTERNAL.
const FEEDBACK_SPAN_OPTIONS: SpanOptions = Object.freeze({ kind: SpanKind.INTERNAL });

/**
 * Mark a routed turn as misrouted. `target` is the routing (or turn) span itself, or its ids; without a
 * span id the feedback span hangs off a synthetic parent id inside the trace (the trace gains one orphan).
 */
export function markMisrouted(
  target: Span | MisrouteTarget,
  mark: MisrouteMarkInput = {},
  options: MarkMisroutedOptions = {},
): void {
  try {
    const attrs = encodeMisrouteMark(mark);
    if (isSpan(target)) {
      if (target.isRecording()) {
        target.addEvent(EVENT_ROUTING_MISROUTED, attrs);
        return;
      }
      // An ended span drops events silently; its trace can still take a feedback span.
      const spanContext = target.spanContext();
      // A no-op span has no trace to join: a feedback span would start a new, unjoinable one.
      if (isSpanContextValid(spanContext)) recordFeedbackSpan(spanContext, attrs, options);
      return;
    }
    const parent = toParentSpanContext(target);
    if (parent === undefined) {
      const traceId = target === null || typeof target !== 'object' ? target : target.traceId;
      logSwallowed('markMisrouted', new Error(`not a valid trace id: ${JSON.stringify(traceId)}`));
      return;
    }
    recordFeedbackSpan(parent, attrs, options);
  } catch (err) {
    logSwallowed('markMisrouted', err);
  }
}

/** The event attributes of a misroute mark (strings only). Pure. */
export function encodeMisrouteMark(mark: MisrouteMarkInput): Attributes {
  const attrs: Attributes = {};
  putString(attrs, ATTR_ROUTING_MISROUTE_EXPECTED, mark.expected);
  putString(attrs, ATTR_ROUTING_MISROUTE_REASON, mark.reason);
  putString(attrs, ATTR_ROUTING_MISROUTE_SOURCE, mark.source);
  return attrs;
}

function isSpan(target: Span | MisrouteTarget): target is Span {
  if (target === null || typeof target !== 'object') return false;
  const t = target as Partial<Span>;
  return typeof t.spanContext === 'function' && typeof t.addEvent === 'function';
}

function toParentSpanContext(target: MisrouteTarget): SpanContext | undefined {
  if (target === null || typeof target !== 'object' || typeof target.traceId !== 'string') return undefined;
  const traceId = target.traceId.toLowerCase();
  if (!isValidTraceId(traceId)) return undefined;
  const given = typeof target.spanId === 'string' ? target.spanId.toLowerCase() : undefined;
  const spanId = given !== undefined && isValidSpanId(given) ? given : syntheticSpanId();
  return { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true };
}

/** A random non-zero 16-hex-digit id (no crypto: the instrumentation depends on the API alone). */
function syntheticSpanId(): string {
  let id = '';
  while (id.length < 16)
    id += Math.floor(Math.random() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  // Stryker disable next-line StringLiteral: unreachable in practice — only when four random 16-bit draws are all zero.
  return isValidSpanId(id) ? id : '0000000000000001';
}

function recordFeedbackSpan(parent: SpanContext, attrs: Attributes, options: MarkMisroutedOptions): void {
  const tracer = safeExecute('getting a tracer', () =>
    (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE_NAME),
  );
  if (tracer === undefined) return;
  const parentContext = trace.setSpan(context.active(), trace.wrapSpanContext(parent));
  const span = startRecordingSpan(tracer, SPAN_ROUTING_FEEDBACK, FEEDBACK_SPAN_OPTIONS, parentContext);
  if (span === undefined) return;
  safeExecute('adding the misroute event', () => span.addEvent(EVENT_ROUTING_MISROUTED, attrs));
  endQuietly(span);
}
