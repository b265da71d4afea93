/**
 * buildTraceRecords — one span view in, its decision / turn / misroute records out.
 *
 * Every format reader ends here, so the routing layout is decoded, ids normalized and duplicates dropped in one
 * place. Exporters retry, so the same span can appear twice: routing, turn and feedback spans are keyed by
 * trace id + span id and a repeat is counted, not yielded. The seen-set holds only those keys and is bounded
 * in two generations (a repeat further back than `DEDUPE_GENERATION` routing spans is not caught), so memory
 * stays flat on any input. A routing span that cannot be decoded is reported as `incomplete`, never guessed.
 * A misroute event becomes a MisrouteRecord on any span that carries no decision or turn (the feedback span
 * is the designated carrier); on a routing or turn span it goes into that record's `misroutes`. A turn routed
 * both as spans and in an event log counts once too (crossSourceFilter: the outcomes carry the records' keys).
 * No I/O.
 */
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_BY,
  ATTR_ROUTING_MISROUTE_EXPECTED,
  ATTR_ROUTING_MISROUTE_REASON,
  ATTR_ROUTING_MISROUTE_SOURCE,
  ATTR_ROUTING_RECORD_VERSION,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_SOURCE,
  ATTR_ROUTING_VERDICT,
  ATTR_SERVICE_NAME,
  EVENT_ROUTING_MISROUTED,
  ROUTING_RECORD_VERSION,
  SPAN_ROUTING_FEEDBACK,
  SPAN_ROUTING_TIER2,
} from '../semconv/semconv.js';
import { createCrossSourceFilter, type RecordArrival } from './crossSourceFilter.js';
import { crossSourceKeyOf } from './crossSourceKey.js';
import { decodeRoutingAttributes, decodeTurnAttributes, toNumber } from './decodeRoutingAttributes.js';
import { type AttributeValue } from './internal-types.js';
import type { EventView, ResourceView, SpanView } from './internal-types.js';
import { normalizeId, quoteForProblem } from './normalizeSpanFields.js';
import { reportProblem } from './readStats.js';
import type {
  MisrouteMark,
  RecordedBy,
  RecordSource,
  SpanContextFields,
  TraceRecord,
} from '../record/types.js';
import type { ReadProblem, ReadStats } from './types.js';

/** `agentfootprint.routing.source` on the spans routescopeObservability writes from `turn_routed` events. */
const FROM_TURN_ROUTED: RecordedBy = 'turn_routed';

/** How many routing-span keys one generation of the duplicate filter holds (two generations are kept). */
export const DEDUPE_GENERATION = 250_000;

/** Turns span views into records, filling `stats`; one per read. */
export interface TraceRecordBuilder {
  /** Count spans that cannot hold a routing record (the reader looked, or pre-filtered, and skipped them). */
  countPlainSpans(count: number): void;
  /** Read one span view: push its records to `out` (nothing for a plain span, counted as such). */
  addSpan(span: SpanView, resource: ResourceView, source: RecordSource, out: TraceRecord[]): void;
  /** Apply what classifySpan worked out for a span elsewhere (addSpan is classify, then this). */
  applySpanOutcome?(outcome: SpanOutcome, out: TraceRecord[]): void;
  /**
   * Push the event-log records held back for a span twin (crossSourceFilter) to `out`: called once, when
   * every input has been read, by whoever made a builder that holds (`BuilderOptions.holdEventRecords`).
   */
  releaseHeld?(out: TraceRecord[]): void;
}

/** Options of a record builder beyond its duplicate filter's size. */
export interface BuilderOptions {
  /**
   * Event-log records held back until the end of the read, so that a span of the same turn read later
   * replaces them (the span has the real ids); past this many the oldest is released. Whoever sets it calls
   * `releaseHeld` at the end. @default 0 (none held: the first of the two is kept)
   */
  readonly holdEventRecords?: number;
}

/** Could a span with these traits hold a routing record? (Readers ask before they build a full view.) */
export function isRoutingCandidate(
  name: string,
  hasAttribute: (key: string) => boolean,
  hasEvent: (name: string) => boolean,
): boolean {
  return (
    name === SPAN_ROUTING_FEEDBACK ||
    name === SPAN_ROUTING_TIER2 ||
    hasAttribute(ATTR_ROUTING_VERDICT) ||
    hasAttribute(ATTR_ROUTING_BY) ||
    hasEvent(EVENT_ROUTING_MISROUTED)
  );
}

function str(value: AttributeValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function toMark(event: EventView): MisrouteMark {
  const expected = str(event.attributes.get(ATTR_ROUTING_MISROUTE_EXPECTED));
  const reason = str(event.attributes.get(ATTR_ROUTING_MISROUTE_REASON));
  const source = str(event.attributes.get(ATTR_ROUTING_MISROUTE_SOURCE));
  return {
    ...(expected === undefined ? {} : { expected }),
    ...(reason === undefined ? {} : { reason }),
    ...(source === undefined ? {} : { source }),
    ...(event.timeUnixMs === undefined ? {} : { timeUnixMs: event.timeUnixMs }),
  };
}

/**
 * What one span view amounts to, worked out without the builder's state: everything but the duplicate check.
 * `--jobs` threads classify; the main thread applies the outcomes in input order (applySpanOutcome), so the
 * duplicate filter sees the keys in the order a single reader would.
 */
export type SpanOutcome =
  | { readonly kind: 'plain' }
  | { readonly kind: 'problem'; readonly problem: ReadProblem }
  | {
      readonly kind: 'keyed';
      /** trace id + span id: a repeat of an earlier key is a duplicate and has no other effect. */
      readonly key: string;
      readonly routingSpans: number;
      readonly turnSpans: number;
      readonly problems: readonly ReadProblem[];
      readonly records: readonly TraceRecord[];
      /** Per record, its crossSourceKey when a `turn_routed` event wrote the span; absent for any other span. */
      readonly crossKeys?: readonly (string | undefined)[];
    }
  | {
      /** Records read from an agentfootprint event log line (no span): counted as events, not spans. */
      readonly kind: 'event';
      /** The event's identity; a repeat is a duplicate event. Absent: nothing to de-duplicate (a bad event). */
      readonly key?: string;
      readonly problems: readonly ReadProblem[];
      readonly records: readonly TraceRecord[];
      /** Per record, its crossSourceKey (the same turn's spans have the same keys). */
      readonly crossKeys?: readonly (string | undefined)[];
    };

/** Work out what `span` gives (see SpanOutcome). Pure. */
export function classifySpan(span: SpanView, resource: ResourceView, source: RecordSource): SpanOutcome {
  const attrs = span.attributes;
  // A tier-2 span that lost its verdict key is damaged routing data, reported as incomplete, not passed
  // off as a plain span; one that ended in error never had a verdict (the policy threw).
  const isDecision = attrs.has(ATTR_ROUTING_VERDICT) || (span.name === SPAN_ROUTING_TIER2 && !span.error);
  const isTurn = attrs.has(ATTR_ROUTING_BY);
  const misrouteEvents = span.events.filter((e) => e.name === EVENT_ROUTING_MISROUTED);
  if (!isDecision && !isTurn && misrouteEvents.length === 0) {
    // A feedback span without a mark, or a span that only looked like a candidate: nothing to record.
    return { kind: 'plain' };
  }
  const traceId = normalizeId(span.traceId, 16);
  const spanId = normalizeId(span.spanId, 8);
  const what = isDecision ? 'routing span' : isTurn ? 'turn span' : 'feedback span';
  if (traceId === undefined || spanId === undefined) {
    return {
      kind: 'problem',
      problem: {
        file: source.file,
        line: source.line,
        kind: 'incomplete',
        reason:
          traceId === undefined
            ? `${what} has no usable trace id (got ${quoteForProblem(span.traceId)}; expected 32 hex digits)`
            : `${what} has no usable span id (got ${quoteForProblem(span.spanId)}; expected 16 hex digits)`,
      },
    };
  }
  // The 24 id bytes as a 24-character one-byte string: the filter holds up to 2 × DEDUPE_GENERATION keys, and
  // this is a quarter of the 48 hex digits joined (exact: both ids are fixed-length lowercase hex here).
  const key = Buffer.from(traceId + spanId, 'hex').toString('latin1');
  const problems: ReadProblem[] = [];
  const records: TraceRecord[] = [];
  const where = `${what} ${spanId} in trace ${traceId}`;
  const version = toNumber(attrs.get(ATTR_ROUTING_RECORD_VERSION));
  if (version !== undefined && version > ROUTING_RECORD_VERSION) {
    problems.push({
      file: source.file,
      line: source.line,
      kind: 'unsupported',
      reason: `${where} uses record layout ${version}, newer than the ${ROUTING_RECORD_VERSION} this routescope reads; upgrade routescope`,
    });
    return {
      kind: 'keyed',
      key,
      routingSpans: isDecision ? 1 : 0,
      turnSpans: isTurn ? 1 : 0,
      problems,
      records,
    };
  }

  const parentSpanId = normalizeId(span.parentSpanId, 8);
  const service = resource.service ?? str(resource.attributes.get(ATTR_SERVICE_NAME));
  const router = str(attrs.get(ATTR_ROUTING_ROUTER));
  const scorer = str(attrs.get(ATTR_ROUTING_SCORER_NAME));
  const conversationId =
    str(attrs.get(ATTR_GEN_AI_CONVERSATION_ID)) ?? str(resource.attributes.get(ATTR_GEN_AI_CONVERSATION_ID));
  const agentName =
    str(attrs.get(ATTR_GEN_AI_AGENT_NAME)) ?? str(resource.attributes.get(ATTR_GEN_AI_AGENT_NAME));
  const marks = misrouteEvents.map(toMark);
  const context: SpanContextFields = {
    traceId,
    spanId,
    ...(parentSpanId === undefined ? {} : { parentSpanId }),
    ...(service === undefined ? {} : { service }),
    ...(router === undefined ? {} : { router }),
    ...(scorer === undefined ? {} : { scorer }),
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(agentName === undefined ? {} : { agentName }),
    timeUnixMs: span.timeUnixMs,
    error: span.error,
    misroutes: isDecision || isTurn ? marks : [],
    source,
  };

  if (isDecision) {
    const decoded = decodeRoutingAttributes(attrs);
    if (decoded.kind === 'ok') records.push({ kind: 'decision', ...decoded.value, ...context });
    else {
      problems.push({
        file: source.file,
        line: source.line,
        kind: 'incomplete',
        reason: `${where}: ${decoded.reason}`,
      });
    }
  }
  if (isTurn) {
    const turn = decodeTurnAttributes(attrs);
    if (turn !== undefined) records.push({ kind: 'turn', ...turn, ...context });
    else {
      problems.push({
        file: source.file,
        line: source.line,
        kind: 'incomplete',
        reason: `turn span ${spanId} in trace ${traceId}: ${ATTR_ROUTING_BY} is ${quoteForProblem(attrs.get(ATTR_ROUTING_BY))}, not one of entry, intent, continuity, menu, decider, none`,
      });
    }
  }
  if (!isDecision && !isTurn) {
    for (const mark of marks) records.push({ kind: 'misroute', mark, ...context });
  }
  const outcome = {
    kind: 'keyed',
    key,
    routingSpans: isDecision ? 1 : 0,
    turnSpans: isTurn ? 1 : 0,
    problems,
    records,
  } as const;
  // Only the strategy's spans have an event-log twin; the wrapper's and anyone else's are keyed by ids alone.
  if (str(attrs.get(ATTR_ROUTING_SOURCE)) !== FROM_TURN_ROUTED || records.length === 0) return outcome;
  return { ...outcome, crossKeys: records.map(crossSourceKeyOf) };
}

/** A fresh builder writing into `stats`; `dedupeGeneration` sizes the duplicate filters (tests shrink it). */
export function createTraceRecordBuilder(
  stats: ReadStats,
  dedupeGeneration: number = DEDUPE_GENERATION,
  options: BuilderOptions = {},
): TraceRecordBuilder {
  let current = new Set<string>();
  let previous = new Set<string>();
  const crossSource = createCrossSourceFilter(stats, dedupeGeneration, options.holdEventRecords ?? 0);
  const push = (
    records: readonly TraceRecord[],
    keys: readonly (string | undefined)[] | undefined,
    arrival: RecordArrival,
    out: TraceRecord[],
  ): void => {
    for (let i = 0; i < records.length; i++) {
      const key = keys?.[i];
      if (key === undefined) out.push(records[i]!);
      else crossSource.offer(records[i]!, key, arrival, out);
    }
  };

  const seenBefore = (key: string): boolean => {
    if (current.has(key) || previous.has(key)) return true;
    if (current.size >= dedupeGeneration) {
      previous = current;
      current = new Set();
    }
    current.add(key);
    return false;
  };

  const applySpanOutcome = (outcome: SpanOutcome, out: TraceRecord[]): void => {
    if (outcome.kind === 'event') {
      if (outcome.key !== undefined && seenBefore(outcome.key)) {
        stats.duplicateEvents++;
        return;
      }
      for (const problem of outcome.problems) reportProblem(stats, problem);
      push(outcome.records, outcome.crossKeys, 'event', out);
      return;
    }
    stats.spans++;
    if (outcome.kind === 'plain') {
      stats.nonRoutingSpans++;
      return;
    }
    if (outcome.kind === 'problem') {
      reportProblem(stats, outcome.problem);
      return;
    }
    if (seenBefore(outcome.key)) {
      stats.duplicates++;
      return;
    }
    stats.routingSpans += outcome.routingSpans;
    stats.turnSpans += outcome.turnSpans;
    for (const problem of outcome.problems) reportProblem(stats, problem);
    push(outcome.records, outcome.crossKeys, 'span', out);
  };

  return {
    countPlainSpans(count) {
      stats.spans += count;
      stats.nonRoutingSpans += count;
    },
    addSpan(span, resource, source, out) {
      applySpanOutcome(classifySpan(span, resource, source), out);
    },
    applySpanOutcome,
    releaseHeld(out) {
      crossSource.release(out);
    },
  };
}
