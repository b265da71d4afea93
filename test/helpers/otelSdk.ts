/**
 * otelSdk — the real OpenTelemetry SDK in memory for the instrumentation tests, and `assertRoutingSpan`.
 *
 * Each test passes the provider explicitly (nothing is registered globally), and resets the exporter after
 * itself. `assertRoutingSpan` checks a recorded span against the call and the verdict it came from by
 * decoding the span with the project's own decoder and re-deriving every expected fact from the inputs.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import type { Tier2Call } from '../../src/instrument/types.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  SPAN_ROUTING_TIER2,
} from '../../src/semconv/semconv.js';
import type { Tier2Verdict } from '../../src/policy/types.js';
import { decodeRoutingAttributes } from '../../src/trace/decodeRoutingAttributes.js';
import { type AttributeMap, type AttributeValue } from '../../src/trace/internal-types.js';
import type { RecordedDecision } from '../../src/record/types.js';

/** A provider wired to an in-memory exporter through a simple (synchronous) processor. */
export interface MemorySdk {
  readonly provider: BasicTracerProvider;
  readonly exporter: InMemorySpanExporter;
  /** Finished spans, in end order. */
  spans(): ReadableSpan[];
  /** Forget every finished span. */
  reset(): void;
  shutdown(): Promise<void>;
}

/** Start an in-memory SDK; `sampler` lets a test make every span non-recording. */
export function createMemorySdk(options: { sampler?: Sampler } = {}): MemorySdk {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(options.sampler === undefined ? {} : { sampler: options.sampler }),
  });
  return {
    provider,
    exporter,
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    shutdown: () => provider.shutdown(),
  };
}

/** SDK attributes as the decoder's map (the SDK already holds plain values). */
export function toAttributeMap(attrs: Attributes): AttributeMap {
  const map = new Map<string, AttributeValue>();
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined) map.set(key, value as AttributeValue);
  }
  return map;
}

/** Every number anywhere in the attributes is finite (the exporter would write a non-finite one as null). */
export function expectOnlyFiniteNumbers(attrs: Attributes): void {
  for (const [key, value] of Object.entries(attrs)) {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item === 'number') expect(Number.isFinite(item), `${key} holds ${item}`).toBe(true);
    }
  }
}

/** Candidates finite and strictly above the floor, as the contract defines "alive". */
function aliveScores(call: Tier2Call): number[] {
  const floor = call.policy.floor ?? call.scorer?.floor;
  return call.scores
    .map((s) => s.score)
    .filter((s) => Number.isFinite(s) && (floor === undefined || s > floor))
    .sort((a, b) => b - a);
}

/**
 * The scores the alive entries are judged by, in rank order: entries rank by their own sanitized score (ties
 * in input order), and each is judged by the last score its id was given.
 */
function judgedAliveScores(call: Tier2Call): number[] {
  const floor = call.policy.floor ?? call.scorer?.floor;
  const sane = (x: number): number => (Number.isFinite(x) ? x : -Infinity);
  const last = new Map(call.scores.map((s) => [s.id, sane(s.score)] as const));
  return call.scores
    .map((s, i) => ({ own: sane(s.score), judged: last.get(s.id)!, i }))
    .sort((a, b) => (a.own === b.own ? a.i - b.i : b.own > a.own ? 1 : -1))
    .map((e) => e.judged)
    .filter((s) => s !== -Infinity && (floor === undefined || s > floor));
}

/** Near-tie from the inputs alone: >= 2 alive, not categorical, gap not reaching the margin. */
export function expectedNearTie(call: Tier2Call): boolean {
  const alive = judgedAliveScores(call);
  if (alive.length < 2 || call.scorer?.categorical === true) return false;
  const gap = Math.tanh((alive[0]! - alive[1]!) / 2);
  return !(gap >= call.policy.nearTieMargin);
}

/** Numbers equal exactly, NaN equal to NaN; -0 equals 0 (JSON has no -0, and routing cannot tell them apart). */
function expectSameNumber(actual: number | undefined, expected: number | undefined, what: string): void {
  const same =
    typeof actual === 'number' && typeof expected === 'number' && Number.isNaN(expected)
      ? Number.isNaN(actual)
      : actual === expected;
  expect(same, `${what}: got ${actual}, want ${expected}`).toBe(true);
}

/** A decision decoded from a span equals the call and verdict it was recorded from. */
export function expectDecodedDecision(
  decoded: RecordedDecision,
  call: Tier2Call,
  verdict: Tier2Verdict,
  maxRecordedCandidates = 20,
): void {
  expect(decoded.verdict).toBe(verdict.kind);
  expect(decoded.to).toBe(verdict.kind === 'move' ? verdict.to : undefined);
  expect(decoded.offered).toEqual(verdict.kind === 'menu' ? verdict.offered : undefined);
  expect(decoded.decisive).toBe(verdict.decisive);
  expect(decoded.nearTie).toBe(expectedNearTie(call));

  const kept = Math.min(verdict.ranked.length, maxRecordedCandidates);
  expect(decoded.candidateCount).toBe(call.scores.length);
  expect(decoded.omitted).toBe(verdict.ranked.length - kept);
  expect(decoded.aliveCount).toBe(aliveScores(call).length);
  expect(decoded.ranked.map((c) => c.id)).toEqual(verdict.ranked.slice(0, kept).map((c) => c.id));
  decoded.ranked.forEach((c, i) => {
    expectSameNumber(c.score, verdict.ranked[i]!.score, `score #${i}`);
    expectSameNumber(c.relevance, verdict.ranked[i]!.relevance, `relevance #${i}`);
  });

  expect(decoded.runnerUp?.id).toBe(verdict.runnerUp?.id);
  expectSameNumber(decoded.runnerUp?.gap, verdict.runnerUp?.gap, 'runner-up gap');
  if (call.incumbentId === undefined) {
    expect(decoded.incumbent).toBeUndefined();
  } else {
    expect(decoded.incumbent).toEqual({
      id: call.incumbentId,
      scored: call.scores.some((s) => s.id === call.incumbentId),
    });
  }

  expectSameNumber(decoded.policy.nearTieMargin, call.policy.nearTieMargin, 'near-tie margin');
  expectSameNumber(decoded.policy.menuSize, call.policy.menuSize, 'menu size');
  expectSameNumber(decoded.policy.floor, call.policy.floor, 'policy floor');
  expectSameNumber(decoded.scorerTraits.floor, call.scorer?.floor, 'scorer floor');
  expect(decoded.scorerTraits.categorical).toBe(call.scorer?.categorical);
  const floor = call.policy.floor ?? call.scorer?.floor;
  expectSameNumber(decoded.effectiveFloor, floor, 'effective floor');
  expect(decoded.floorDeclared).toBe(floor !== undefined);
}

/** What else a routing span should say besides the decision. */
export interface RoutingSpanExpectations {
  readonly router?: string;
  readonly scorerName?: string;
  readonly conversationId?: string;
  readonly agentName?: string;
  readonly maxRecordedCandidates?: number;
}

/** The one check of a tier-2 routing span: shape, decision, correlation keys, no non-finite number. */
export function assertRoutingSpan(
  span: ReadableSpan,
  call: Tier2Call,
  verdict: Tier2Verdict,
  expected: RoutingSpanExpectations = {},
): RecordedDecision {
  expect(span.name).toBe(SPAN_ROUTING_TIER2);
  expect(span.kind).toBe(SpanKind.INTERNAL);
  expect(span.ended).toBe(true);
  expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
  expect(span.droppedAttributesCount).toBe(0);
  expectOnlyFiniteNumbers(span.attributes);

  const decoded = decodeRoutingAttributes(toAttributeMap(span.attributes));
  if (decoded.kind !== 'ok') throw new Error(`routing span did not decode: ${decoded.reason}`);
  expectDecodedDecision(decoded.value, call, verdict, expected.maxRecordedCandidates);

  expect(span.attributes[ATTR_ROUTING_ROUTER]).toBe(expected.router);
  expect(span.attributes[ATTR_ROUTING_SCORER_NAME]).toBe(expected.scorerName);
  expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(expected.conversationId);
  expect(span.attributes[ATTR_GEN_AI_AGENT_NAME]).toBe(expected.agentName);
  return decoded.value;
}
