/**
 * readAgentfootprintEvent — one line of an agentfootprint event log into the records a strategy span gives.
 *
 * A team that logs the framework's events (`JSON.stringify(event)`: `{type, payload, meta}`) but runs no
 * collector should still get every analysis. A `turn_routed` event becomes the turn record, and when its scorer
 * ran the decision record, exactly as routescopeObservability would have recorded them: the decision is what
 * the event says happened (policy/turnRoutedEvent), the conversation is `meta.sessionId`, the time
 * `meta.wallClockMs`, and the ids are synthesized from the event's identity (trace id `meta.traceId` when it
 * is one, else derived from `meta.runId`, and then marked `syntheticTraceId`), so the same event always gets
 * the same ids and `explain` can name them. Witness text is user text and is not kept (the strategy's
 * default). Other event types are counted and skipped. Reached only for a JSON line that is not a trace
 * export, so OTLP lines never pay for it.
 */
import { createHash } from 'node:crypto';
import {
  DEFAULT_CATEGORICAL_SCORERS,
  DEFAULT_MAX_JUDGED_CANDIDATES,
  readTurnRoutedEvent,
  TURN_ROUTED_EVENT_TYPE,
  type TurnRoutedDecision,
  type TurnRoutedReading,
} from '../../policy/turnRoutedEvent.js';
import { carriesEffectiveFloor } from '../../policy/floorSource.js';
import type { PolicySemantics } from '../../policy/types.js';
import type { SpanOutcome, TraceRecordBuilder } from '../buildTraceRecords.js';
import { crossSourceKeyOf } from '../crossSourceKey.js';
import { asObject } from './narrowJson.js';
import { quoteForProblem } from '../normalizeSpanFields.js';
import type {
  DecisionRecord,
  RecordSource,
  SpanContextFields,
  TraceRecord,
  TurnRecord,
} from '../../record/types.js';
import type { ReadProblem, ReadStats } from '../types.js';

/** Every agentfootprint event type starts with this. */
export const AGENTFOOTPRINT_EVENT_PREFIX = 'agentfootprint.';

/** How event logs are judged. */
export interface EventLogOptions {
  /** The behaviour the events' numbers are rebuilt under (and recorded as the record's). @default 'agentfootprint-9.62' */
  readonly semantics: PolicySemantics;
  /** Scorer names judged as categorical. @default ['llm-classifier'] */
  readonly categoricalScorers: readonly string[];
}

/** The framework's own behaviour and categorical scorers. */
export const DEFAULT_EVENT_LOG_OPTIONS: EventLogOptions = Object.freeze({
  semantics: 'agentfootprint-9.62',
  categoricalScorers: DEFAULT_CATEGORICAL_SCORERS,
});

const TRACE_ID = /^[0-9a-f]{32}$/i;
const ZERO_TRACE_ID = '0'.repeat(32);

/** Is this parsed JSON line an agentfootprint event (its `type` names one)? */
export function isAgentfootprintEvent(value: unknown): boolean {
  const obj = asObject(value);
  if (obj === undefined || !Object.hasOwn(obj, 'type')) return false;
  const type = obj.type;
  return typeof type === 'string' && type.startsWith(AGENTFOOTPRINT_EVENT_PREFIX);
}

/**
 * Read one agentfootprint event: counts it in `stats`, hands a `turn_routed` event's records (and what was
 * wrong with it) to `builder` in input order, skips every other type. Never throws on any input.
 */
export function readAgentfootprintEvent(
  value: unknown,
  source: RecordSource,
  options: EventLogOptions,
  stats: ReadStats,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): void {
  stats.events++;
  const event = value as { type: string; payload?: unknown; meta?: unknown };
  if (event.type !== TURN_ROUTED_EVENT_TYPE) {
    if (Object.hasOwn(event, 'payload')) stats.otherEvents++;
    else
      apply(
        builder,
        { kind: 'event', problems: [problem(source, 'bad-line', noPayload(event.type))], records: [] },
        out,
      );
    return;
  }
  apply(builder, readTurnRoutedLine(event, source, options), out);
}

function noPayload(type: string): string {
  return `agentfootprint event ${quoteForProblem(type)} has no payload; skipped`;
}

function apply(builder: TraceRecordBuilder, outcome: SpanOutcome, out: TraceRecord[]): void {
  if (builder.applySpanOutcome !== undefined) {
    builder.applySpanOutcome(outcome, out);
    return;
  }
  // A builder that cannot take outcomes (none in this project) still gets the records, never loses them.
  if (outcome.kind === 'event') out.push(...outcome.records);
}

function problem(source: RecordSource, kind: ReadProblem['kind'], reason: string): ReadProblem {
  return { file: source.file, line: source.line, kind, reason };
}

/** The records of one `turn_routed` event, keyed by its identity. Pure. */
export function readTurnRoutedLine(
  event: { payload?: unknown; meta?: unknown },
  source: RecordSource,
  options: EventLogOptions,
): SpanOutcome {
  const reading = readTurnRoutedEvent(event, {
    semantics: options.semantics,
    categoricalScorers: options.categoricalScorers,
    maxJudgedCandidates: DEFAULT_MAX_JUDGED_CANDIDATES,
  });
  if (reading.kind === 'invalid') {
    return {
      kind: 'event',
      problems: [problem(source, 'bad-line', `${TURN_ROUTED_EVENT_TYPE} event: ${reading.reason}; skipped`)],
      records: [],
    };
  }
  const problems: string[] = reading.problems.slice();
  const identity = eventIdentity(event);
  const traceId = synthesizedTraceId(reading, identity);
  // Made up unless the caller passed one: marked, so no report sends anyone to a trace store for it.
  const synthetic = traceId !== callersTraceId(reading);
  const time = reading.meta.wallClockMs;
  if (time === undefined) problems.push('meta.wallClockMs is missing: the records have no time');
  const shared = {
    traceId,
    ...(synthetic ? { syntheticTraceId: true as const } : {}),
    ...(reading.meta.sessionId === undefined ? {} : { conversationId: reading.meta.sessionId }),
    timeUnixMs: time ?? NaN,
    error: false,
    misroutes: [],
    source,
  } satisfies Omit<SpanContextFields, 'spanId'>;
  const records: TraceRecord[] = [
    toTurnRecord(reading, { ...shared, spanId: hashHex('turn', identity, 16) }),
  ];
  if (reading.decision !== undefined) {
    const spanId = hashHex('tier2', identity, 16);
    records.push(toDecisionRecord(reading, reading.decision, { ...shared, spanId }));
  }
  return {
    kind: 'event',
    key: `e${hashHex('key', identity, 32)}`,
    // The same turn's spans, when they are read too, carry the same keys: one of the two is counted.
    crossKeys: records.map(crossSourceKeyOf),
    problems:
      problems.length === 0
        ? []
        : [
            problem(
              source,
              'incomplete',
              `${TURN_ROUTED_EVENT_TYPE} event: ${problems.join('; ')} (the rest of the event was read)`,
            ),
          ],
    records,
  };
}

/**
 * What makes an event itself: its run, stage and times (a run routes each turn at its own stage and time).
 * Without a run id the whole event is its identity, so only a repeat of the same line is a duplicate.
 */
function eventIdentity(event: { payload?: unknown; meta?: unknown }): string {
  const meta = asObject(event.meta) ?? {};
  const runId = typeof meta.runId === 'string' ? meta.runId : undefined;
  const fields = [
    runId ?? null,
    meta.runtimeStageId ?? null,
    meta.wallClockMs ?? null,
    meta.runOffsetMs ?? null,
    meta.sessionId ?? null,
  ];
  return runId === undefined ? JSON.stringify([fields, event.payload ?? null]) : JSON.stringify(fields);
}

/** `meta.traceId`, lower-cased, when the caller passed a real one (32 hex digits, not all zeros). */
function callersTraceId(reading: TurnRoutedReading): string | undefined {
  const given = reading.meta.traceId;
  return given !== undefined && TRACE_ID.test(given) && given !== ZERO_TRACE_ID
    ? given.toLowerCase()
    : undefined;
}

/** `meta.traceId` when the caller passed a real one; else derived from the run (one trace per routed run). */
function synthesizedTraceId(reading: TurnRoutedReading, identity: string): string {
  const given = callersTraceId(reading);
  if (given !== undefined) return given;
  const runId = reading.meta.runId;
  return hashHex('trace', runId === undefined ? identity : `run\n${runId}`, 32);
}

function hashHex(purpose: string, identity: string, digits: number): string {
  return createHash('sha256').update(`routescope.${purpose}\n${identity}`).digest('hex').slice(0, digits);
}

function toTurnRecord(reading: TurnRoutedReading, context: SpanContextFields): TurnRecord {
  const turn = reading.turn;
  return {
    kind: 'turn',
    ...context,
    by: turn.by,
    ...(turn.from === undefined ? {} : { from: turn.from }),
    ...(turn.to === undefined ? {} : { to: turn.to }),
    ...(turn.offered === undefined ? {} : { offered: turn.offered }),
    ...(turn.stayOffered === undefined ? {} : { stayOffered: turn.stayOffered }),
    ...(turn.witness?.keyword === undefined ? {} : { witnessKeyword: turn.witness.keyword }),
    ...(reading.droppedResume === undefined ? {} : { droppedResume: reading.droppedResume }),
    ...(reading.decider === undefined ? {} : { decider: reading.decider }),
  };
}

/** The decision as a strategy span records it: what happened, its numbers, the call's policy and traits. */
function toDecisionRecord(
  reading: TurnRoutedReading,
  decision: TurnRoutedDecision,
  context: SpanContextFields,
): DecisionRecord {
  const v = decision.happened;
  const floor = decision.policy.floor ?? decision.scorerTraits.floor;
  // The event's floor is the effective one (the policy's or the scorer's, it does not say): recorded as that,
  // as the strategy's span records it, and kept out of the policy.
  const onlyEffective = carriesEffectiveFloor(decision.policy);
  const policy = onlyEffective
    ? { nearTieMargin: decision.policy.nearTieMargin, menuSize: decision.policy.menuSize }
    : decision.policy;
  let alive = 0;
  for (const c of v.ranked) if (Number.isFinite(c.score) && (floor === undefined || c.score > floor)) alive++;
  const incumbentId = decision.incumbentId;
  return {
    kind: 'decision',
    ...context,
    ...(reading.scorer === undefined ? {} : { scorer: reading.scorer }),
    verdict: v.kind,
    ...(v.kind === 'move' ? { to: v.to } : {}),
    ...(v.kind === 'menu' ? { offered: v.offered } : {}),
    decisive: v.decisive,
    nearTie: !v.decisive && v.runnerUp !== undefined,
    ranked: v.ranked,
    candidateCount: v.ranked.length,
    omitted: 0,
    aliveCount: alive,
    ...(v.runnerUp === undefined ? {} : { runnerUp: v.runnerUp }),
    ...(incumbentId === undefined
      ? {}
      : { incumbent: { id: incumbentId, scored: decision.scores.some((s) => s.id === incumbentId) } }),
    policy,
    scorerTraits: decision.scorerTraits,
    ...(floor === undefined ? {} : { effectiveFloor: floor }),
    ...(onlyEffective ? { floorSource: 'effective' as const } : {}),
    floorDeclared: floor !== undefined,
    semantics: decision.semantics,
    recordedBy: 'turn_routed',
    ...(reading.window === undefined ? {} : { scorerWindow: reading.window }),
    rebuilt: { verdict: decision.rebuilt.kind, differences: decision.differences },
  };
}
