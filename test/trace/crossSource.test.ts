/**
 * crossSource.test — a routed turn read both as routescopeObservability's spans and from the event log counts
 * once, whichever comes first, and the span is the record kept.
 *
 * The spans are the strategy's own (a real SDK in memory), turned into the views a reader hands the builder;
 * the event records are the event-log reader's. Every order of the same outcomes gives the same counts (the
 * law), and with distinct turns the counts are the truth: one decision per scored turn, one twin per turn read
 * both ways. fast-check prints the seed and path of a counterexample.
 */
import fc from 'fast-check';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { routescopeObservability } from '../../src/instrument/routescopeObservability.js';
import { createDecideTier2, softmaxRelevance } from '../../src/policy/routingPolicy.js';
import { TURN_ROUTED_EVENT_TYPE } from '../../src/policy/turnRoutedEvent.js';
import type { DecisionRecord, TraceRecord, TurnRecord } from '../../src/record/types.js';
import {
  classifySpan,
  createTraceRecordBuilder,
  type SpanOutcome,
} from '../../src/trace/buildTraceRecords.js';
import { createCrossSourceFilter } from '../../src/trace/crossSourceFilter.js';
import { crossSourceKey } from '../../src/trace/crossSourceKey.js';
import {
  DEFAULT_EVENT_LOG_OPTIONS,
  readTurnRoutedLine,
} from '../../src/trace/formats/readAgentfootprintEvent.js';
import { createReadStats } from '../../src/trace/readStats.js';
import type { ReadStats } from '../../src/trace/types.js';
import { createMemorySdk, toAttributeMap } from '../helpers/otelSdk.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const sdk = createMemorySdk();
afterAll(() => sdk.shutdown());
const strategy = routescopeObservability({ tracerProvider: sdk.provider });
const decide = createDecideTier2('agentfootprint-9.62');
const POLICY = { nearTieMargin: 0.15, menuSize: 3, floor: 0 };
const SKILLS = ['billing', 'refunds', 'shipping'];

/** One routed turn as the framework reports it: scored (tier 2 ran) or not (a tier-1 entry rule). */
interface TurnSpec {
  readonly session: string | undefined;
  readonly timeMs: number;
  readonly scores: readonly number[] | undefined;
  readonly from: string | undefined;
}

/** The `turn_routed` event 9.62 emits for `t`: the verdict is 9.62's on the event's own numbers. */
function eventOf(t: TurnSpec, runId: string): Record<string, unknown> {
  const meta = { runId, wallClockMs: t.timeMs, ...(t.session === undefined ? {} : { sessionId: t.session }) };
  if (t.scores === undefined) {
    return { type: TURN_ROUTED_EVENT_TYPE, payload: { by: 'entry', to: 'billing', policy: POLICY }, meta };
  }
  const v = decide(
    SKILLS.map((id, i) => ({ id, score: t.scores![i]! })),
    t.from,
    POLICY,
  );
  const shares = softmaxRelevance(v.ranked.map((c) => c.score));
  const payload: Record<string, unknown> = {
    by: v.kind === 'move' ? 'intent' : v.kind === 'stay' ? 'continuity' : 'menu',
    scorer: 'keyword',
    scores: v.ranked.map((c, i) => ({ id: c.id, score: c.score, relevance: shares[i] })),
    decisive: v.decisive,
    policy: POLICY,
    ...(t.from === undefined ? {} : { from: t.from }),
    ...(v.runnerUp === undefined ? {} : { runnerUp: v.runnerUp }),
  };
  if (v.kind === 'move') payload.to = v.to;
  if (v.kind === 'stay') payload.to = t.from;
  if (v.kind === 'menu') payload.offered = v.offered;
  if (v.kind === 'unmatched') payload.offered = SKILLS;
  return { type: TURN_ROUTED_EVENT_TYPE, payload, meta };
}

/** A finished SDK span as the view a reader hands the builder. */
function viewOf(span: ReadableSpan): Parameters<typeof classifySpan>[0] {
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    timeUnixMs: span.startTime[0] * 1000 + span.startTime[1] / 1e6,
    error: false,
    attributes: toAttributeMap(span.attributes),
    events: [],
  };
}

type Where = 'both' | 'spans' | 'events';
interface Read {
  readonly outcomes: SpanOutcome[];
  readonly spanTraceIds: ReadonlySet<string>;
}

/** Each turn's span outcomes and event outcome, as far as `where` says it was read. */
function outcomesOf(turns: readonly (readonly [TurnSpec, Where])[]): Read {
  const outcomes: SpanOutcome[] = [];
  const spanTraceIds = new Set<string>();
  turns.forEach(([t, where], i) => {
    const event = eventOf(t, `run-${i}`);
    if (where !== 'events') {
      sdk.reset();
      strategy.exportEvent(event);
      for (const span of sdk.spans()) {
        spanTraceIds.add(span.spanContext().traceId);
        outcomes.push(
          classifySpan(viewOf(span), { service: 'svc', attributes: new Map() }, { file: 'spans', line: i }),
        );
      }
    }
    if (where !== 'spans')
      outcomes.push(readTurnRoutedLine(event, { file: 'events', line: i }, DEFAULT_EVENT_LOG_OPTIONS));
  });
  return { outcomes, spanTraceIds };
}

function apply(outcomes: readonly SpanOutcome[], hold: number): { records: TraceRecord[]; stats: ReadStats } {
  const stats = createReadStats();
  const builder = createTraceRecordBuilder(stats, undefined, { holdEventRecords: hold });
  const records: TraceRecord[] = [];
  for (const o of outcomes) builder.applySpanOutcome!(o, records);
  builder.releaseHeld!(records);
  return { records, stats };
}

const counts = (r: { records: TraceRecord[]; stats: ReadStats }) => ({
  decisions: r.records.filter((x) => x.kind === 'decision').length,
  turns: r.records.filter((x) => x.kind === 'turn').length,
  twins: r.stats.duplicateAcrossSources,
  turnTwins: r.stats.duplicateTurnsAcrossSources,
});

const score = fc.constantFrom(0, 0.1, 0.4, 0.45, 0.9);
const turnSpec = (time: fc.Arbitrary<number>): fc.Arbitrary<TurnSpec> =>
  fc.record({
    session: fc.constantFrom('s1', 's2', undefined),
    timeMs: time,
    scores: fc.option(fc.tuple(score, score, score), { nil: undefined }),
    from: fc.constantFrom(undefined, 'billing', 'refunds'),
  });
const where = fc.constantFrom<Where>('both', 'spans', 'events');
const hold = fc.constantFrom(0, 1, 10_000);
/** A permutation of `n` items, as sort keys. */
const order = (n: number) => fc.array(fc.double({ noNaN: true }), { minLength: n, maxLength: n });
const shuffle = <T>(items: readonly T[], keys: readonly number[]): T[] =>
  items
    .map((x, i) => [x, keys[i]!] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([x]) => x);

describe('a turn read as spans and as an event counts once', () => {
  it('law: every order of the same span and event records gives the same counts, held or not', () => {
    // Times from a small set: turns may share a conversation and a millisecond, and still the order does not matter.
    const turns = fc.array(fc.tuple(turnSpec(fc.constantFrom(1_796_000_000_000, 1_796_000_000_001)), where), {
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        turns.chain((ts) => fc.tuple(fc.constant(ts), order(ts.length * 3), hold)),
        ([ts, keys, h]) => {
          const { outcomes } = outcomesOf(ts);
          const inFileOrder = counts(apply(outcomes, 0));
          expect(counts(apply(shuffle(outcomes, keys), h))).toStrictEqual(inFileOrder);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('distinct turns: one decision per scored turn, one turn route per turn, each twin counted; spans kept when held', () => {
    const turns = fc
      .array(fc.tuple(turnSpec(fc.constant(0)), where), { minLength: 1, maxLength: 8 })
      .map((ts) => ts.map(([t, w], i) => [{ ...t, timeMs: 1_796_000_000_000 + i * 37 }, w] as const));
    fc.assert(
      fc.property(
        turns.chain((ts) => fc.tuple(fc.constant(ts), order(ts.length * 3), hold)),
        ([ts, keys, h]) => {
          const read = outcomesOf(ts);
          const result = apply(shuffle(read.outcomes, keys), h);
          const both = ts.filter(([, w]) => w === 'both');
          expect(counts(result)).toStrictEqual({
            decisions: ts.filter(([t]) => t.scores !== undefined).length,
            turns: ts.length,
            twins: both.filter(([t]) => t.scores !== undefined).length,
            turnTwins: both.length,
          });
          if (h >= ts.length * 2) {
            // Nothing was released early: every turn read as spans is kept as its spans.
            const kept = result.records.filter((r) => read.spanTraceIds.has(r.traceId)).length;
            const spanRecords = ts
              .filter(([, w]) => w !== 'events')
              .reduce((n, [t]) => n + (t.scores === undefined ? 1 : 2), 0);
            expect(kept).toBe(spanRecords);
          }
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });
});

/** The records of an event outcome. */
function recordsOf(outcome: SpanOutcome): readonly TraceRecord[] {
  if (outcome.kind !== 'event') throw new Error(`expected an event outcome, got ${outcome.kind}`);
  return outcome.records;
}

describe('the key', () => {
  const [turn, decision] = recordsOf(
    readTurnRoutedLine(
      eventOf({ session: 's1', timeMs: 1_796_000_000_000, scores: [0.9, 0.1, 0], from: undefined }, 'run-1'),
      { file: 'events', line: 1 },
      DEFAULT_EVENT_LOG_OPTIONS,
    ),
  ) as [TurnRecord, DecisionRecord];

  it('is 16 bytes, and the same for a span and an event record of one turn (ids and source aside)', () => {
    expect(crossSourceKey(decision)).toHaveLength(16);
    const asSpan = {
      ...decision,
      traceId: 'f'.repeat(32),
      spanId: 'e'.repeat(16),
      source: { file: 'x', line: 9 },
    };
    expect(crossSourceKey(asSpan)).toBe(crossSourceKey(decision));
  });

  it('a non-finite score is one token (a JSON log wrote it as null); relevance is not in it', () => {
    const withScore = (score: number) => ({
      ...decision,
      ranked: decision.ranked.map((c, i) => (i === 1 ? { ...c, score, relevance: 0 } : c)),
    });
    expect(crossSourceKey(withScore(NaN))).toBe(crossSourceKey(withScore(Infinity)));
    expect(crossSourceKey(withScore(0.2))).not.toBe(crossSourceKey(withScore(NaN)));
  });

  it('another conversation, millisecond, verdict or route is another key', () => {
    const k = crossSourceKey(decision);
    expect(crossSourceKey({ ...decision, conversationId: 's2' })).not.toBe(k);
    expect(crossSourceKey({ ...decision, timeUnixMs: decision.timeUnixMs + 1 })).not.toBe(k);
    expect(crossSourceKey({ ...decision, verdict: 'stay' })).not.toBe(k);
    expect(crossSourceKey({ ...turn, by: 'menu' })).not.toBe(crossSourceKey(turn));
    expect(crossSourceKey(turn)).not.toBe(k);
  });
});

describe('the filter', () => {
  const [, decision] = recordsOf(
    readTurnRoutedLine(
      eventOf({ session: 's1', timeMs: 1_796_000_000_000, scores: [0.9, 0.1, 0], from: undefined }, 'run-1'),
      { file: 'events', line: 1 },
      DEFAULT_EVENT_LOG_OPTIONS,
    ),
  ) as [TraceRecord, TraceRecord];
  const span = { ...decision, traceId: 'f'.repeat(32) };

  it('two records of one source with one key are two turns, never twins', () => {
    const stats = createReadStats();
    const f = createCrossSourceFilter(stats, 100, 10);
    const out: TraceRecord[] = [];
    f.offer(span, 'k', 'span', out);
    f.offer(span, 'k', 'span', out);
    f.offer(decision, 'k', 'event', out);
    f.release(out);
    expect(out).toStrictEqual([span, span]);
    expect(stats.duplicateAcrossSources).toBe(1);
  });

  it('held event records go out at release in arrival order; past the hold the oldest goes out at once', () => {
    const stats = createReadStats();
    const f = createCrossSourceFilter(stats, 100, 1);
    const out: TraceRecord[] = [];
    const a = { ...decision, spanId: 'a'.repeat(16) };
    const b = { ...decision, spanId: 'b'.repeat(16) };
    f.offer(a, 'ka', 'event', out);
    expect(out).toStrictEqual([]);
    f.offer(b, 'kb', 'event', out);
    expect(out).toStrictEqual([a]);
    // a went out already: its span twin is counted and dropped; b's takes b's place.
    f.offer(span, 'ka', 'span', out);
    f.offer(span, 'kb', 'span', out);
    f.release(out);
    expect(out).toStrictEqual([a, span]);
    expect(stats.duplicateAcrossSources).toBe(2);
  });
});
