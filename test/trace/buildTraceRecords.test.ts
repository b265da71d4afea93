/**
 * buildTraceRecords — the rules every format shares: which spans make which records, duplicates, layout
 * versions, ids, context fallbacks.
 */
import { describe, expect, it } from 'vitest';
import { encodeRoutingAttributes } from '../../src/instrument/encodeRoutingAttributes.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_BY,
  ATTR_ROUTING_MISROUTE_EXPECTED,
  ATTR_ROUTING_MISROUTE_REASON,
  ATTR_ROUTING_MISROUTE_SOURCE,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_VERDICT,
  ATTR_SERVICE_NAME,
  ATTR_ROUTING_RECORD_VERSION,
  EVENT_ROUTING_MISROUTED,
  ROUTING_RECORD_VERSION,
  SPAN_ROUTING_FEEDBACK,
  SPAN_ROUTING_TIER2,
} from '../../src/semconv/semconv.js';
import { DEFAULT_ROUTING_POLICY, decideTier2 } from '../../src/policy/routingPolicy.js';
import { createTraceRecordBuilder, isRoutingCandidate } from '../../src/trace/buildTraceRecords.js';
import type { AttributeValue } from '../../src/trace/internal-types.js';
import type { EventView, ResourceView, SpanView } from '../../src/trace/internal-types.js';
import { createReadStats } from '../../src/trace/readStats.js';
import type { TraceRecord } from '../../src/record/types.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SOURCE = { file: 'f.jsonl', line: 3 };
const RESOURCE: ResourceView = {
  service: 'svc',
  attributes: new Map<string, AttributeValue>([[ATTR_GEN_AI_CONVERSATION_ID, 'from-resource']]),
};

function decisionAttrs(): Map<string, AttributeValue> {
  const scores = [
    { id: 'a', score: 0.7 },
    { id: 'b', score: 0.2 },
  ];
  const verdict = decideTier2(scores, undefined, DEFAULT_ROUTING_POLICY, { floor: 0 });
  const attrs = encodeRoutingAttributes(
    { scores, incumbentId: undefined, policy: DEFAULT_ROUTING_POLICY, scorer: { floor: 0 } },
    verdict,
    20,
  );
  return new Map(Object.entries(attrs) as Array<[string, AttributeValue]>);
}

function span(spanId: string, over: Partial<SpanView> = {}): SpanView {
  return {
    traceId: TRACE,
    spanId,
    parentSpanId: undefined,
    name: SPAN_ROUTING_TIER2,
    timeUnixMs: 1000,
    error: false,
    attributes: decisionAttrs(),
    events: [],
    ...over,
  };
}

const mark = (expected: string): EventView => ({
  name: EVENT_ROUTING_MISROUTED,
  timeUnixMs: 1001,
  attributes: new Map([[ATTR_ROUTING_MISROUTE_EXPECTED, expected]]),
});

function build(spans: SpanView[], generation?: number) {
  const stats = createReadStats();
  const builder = createTraceRecordBuilder(stats, generation);
  const out: TraceRecord[] = [];
  for (const s of spans) builder.addSpan(s, RESOURCE, SOURCE, out);
  return { out, stats };
}

describe('buildTraceRecords', () => {
  it('a routing span → one decision with its context; conversation id falls back to the resource', () => {
    const { out, stats } = build([span('00000000000000a1', { parentSpanId: 'B7AD6B7169203331' })]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      kind: 'decision',
      verdict: 'move',
      to: 'a',
      traceId: TRACE,
      spanId: '00000000000000a1',
      parentSpanId: 'b7ad6b7169203331',
      service: 'svc',
      conversationId: 'from-resource',
      source: SOURCE,
    });
    expect(stats).toMatchObject({ spans: 1, routingSpans: 1, nonRoutingSpans: 0 });
  });

  it('a span with both a verdict and a turn route → a decision and a turn, sharing the misroute marks', () => {
    const attrs = decisionAttrs();
    attrs.set(ATTR_ROUTING_BY, 'intent');
    const { out, stats } = build([span('00000000000000a2', { attributes: attrs, events: [mark('b')] })]);
    expect(out.map((r) => r.kind)).toEqual(['decision', 'turn']);
    expect(out.every((r) => r.misroutes.length === 1 && r.misroutes[0]!.expected === 'b')).toBe(true);
    expect(stats).toMatchObject({ routingSpans: 1, turnSpans: 1 });
  });

  it('misroute events on a span with no decision or turn → one misroute record each; on the feedback span too', () => {
    const plain = span('00000000000000a3', {
      name: 'chat',
      attributes: new Map(),
      events: [mark('x'), mark('y')],
    });
    const feedback = span('00000000000000a4', {
      name: SPAN_ROUTING_FEEDBACK,
      attributes: new Map(),
      events: [mark('z')],
    });
    const { out } = build([plain, feedback]);
    expect(out.map((r) => (r.kind === 'misroute' ? r.mark.expected : r.kind))).toEqual(['x', 'y', 'z']);
  });

  it('a feedback span without a mark is a plain span', () => {
    const { out, stats } = build([
      span('00000000000000a5', { name: SPAN_ROUTING_FEEDBACK, attributes: new Map() }),
    ]);
    expect(out).toEqual([]);
    expect(stats).toMatchObject({ spans: 1, nonRoutingSpans: 1 });
  });

  it('duplicates are caught across a generation change, forgotten after two', () => {
    const ids = ['01', '02', '03', '01', '04', '05', '06', '01'].map((s) => s.padStart(16, '0'));
    const { out, stats } = build(
      ids.map((id) => span(id)),
      2,
    );
    // '01' repeats at index 3 (still remembered) and at index 7 (two generations later: forgotten).
    expect(stats.duplicates).toBe(1);
    expect(out).toHaveLength(7);
  });

  it('a newer record layout is reported as unsupported, not guessed', () => {
    const attrs = decisionAttrs();
    attrs.set(ATTR_ROUTING_RECORD_VERSION, ROUTING_RECORD_VERSION + 1);
    const { out, stats } = build([span('00000000000000a6', { attributes: attrs })]);
    expect(out).toEqual([]);
    expect(stats.problems).toEqual([
      expect.objectContaining({ kind: 'unsupported', file: 'f.jsonl', line: 3 }),
    ]);
    expect(stats.problems[0]!.reason).toMatch(/upgrade routescope/);
  });

  it('a turn span with an unknown `by` is incomplete', () => {
    const { out, stats } = build([
      span('00000000000000a7', { name: 'x', attributes: new Map([[ATTR_ROUTING_BY, 'magic']]) }),
    ]);
    expect(out).toEqual([]);
    expect(stats.problems).toEqual([expect.objectContaining({ kind: 'incomplete' })]);
    expect(stats.problems[0]!.reason).toMatch(/"magic"/);
  });

  it('an unusable span id is incomplete; the span is not keyed for de-duplication', () => {
    const { out, stats } = build([span('xyz'), span('xyz')]);
    expect(out).toEqual([]);
    expect(stats.duplicates).toBe(0);
    expect(stats.problems).toHaveLength(2);
    expect(stats.problems[0]!.reason).toMatch(/no usable span id \(got "xyz"/);
  });
});

const EMPTY_RESOURCE: ResourceView = { service: undefined, attributes: new Map() };

function buildOn(resource: ResourceView, spans: SpanView[]) {
  const stats = createReadStats();
  const builder = createTraceRecordBuilder(stats);
  const out: TraceRecord[] = [];
  for (const s of spans) builder.addSpan(s, resource, SOURCE, out);
  return { out, stats };
}

/** The context fields of a record (what the builder adds to the decoded value). */
function contextOf(r: TraceRecord): Record<string, unknown> {
  const keys = [
    'traceId',
    'spanId',
    'parentSpanId',
    'service',
    'router',
    'scorer',
    'conversationId',
    'agentName',
  ];
  return Object.fromEntries(Object.entries(r).filter(([k]) => keys.includes(k)));
}

describe('isRoutingCandidate', () => {
  it('a feedback or tier-2 span name, a verdict or by attribute, or a misroute event: each alone is enough', () => {
    const no = () => false;
    expect(isRoutingCandidate(SPAN_ROUTING_FEEDBACK, no, no)).toBe(true);
    expect(isRoutingCandidate(SPAN_ROUTING_TIER2, no, no)).toBe(true);
    expect(isRoutingCandidate('chat', (k) => k === ATTR_ROUTING_VERDICT, no)).toBe(true);
    expect(isRoutingCandidate('chat', (k) => k === ATTR_ROUTING_BY, no)).toBe(true);
    expect(isRoutingCandidate('chat', no, (e) => e === EVENT_ROUTING_MISROUTED)).toBe(true);
    expect(
      isRoutingCandidate(
        'chat',
        (k) => k === 'other',
        (e) => e === 'other',
      ),
    ).toBe(false);
  });
});

describe('the context a record carries', () => {
  it('only what was recorded: no parent, service, router, scorer, conversation or agent key when absent', () => {
    const { out, stats } = buildOn(EMPTY_RESOURCE, [span('00000000000000b1')]);
    expect(contextOf(out[0]!)).toStrictEqual({ traceId: TRACE, spanId: '00000000000000b1' });
    expect(stats.problems).toStrictEqual([]);
  });

  it('router, scorer and agent from the span (numbers as text); service and agent fall back to the resource', () => {
    const attrs = decisionAttrs();
    attrs.set(ATTR_ROUTING_ROUTER, 'support');
    attrs.set(ATTR_ROUTING_SCORER_NAME, 7);
    attrs.set(ATTR_GEN_AI_AGENT_NAME, true);
    const fromResource: ResourceView = {
      service: undefined,
      attributes: new Map<string, AttributeValue>([
        [ATTR_SERVICE_NAME, 'svc-attr'],
        [ATTR_GEN_AI_AGENT_NAME, 'agent-r'],
      ]),
    };
    const { out } = buildOn(fromResource, [
      span('00000000000000b2', { attributes: attrs }),
      span('00000000000000b3'),
    ]);
    expect(contextOf(out[0]!)).toStrictEqual({
      traceId: TRACE,
      spanId: '00000000000000b2',
      service: 'svc-attr',
      router: 'support',
      scorer: '7',
      agentName: 'true',
    });
    expect(contextOf(out[1]!)).toMatchObject({ agentName: 'agent-r' });
  });

  it('a misroute mark holds exactly what its event recorded, and only misroute events are marks', () => {
    const full: EventView = {
      name: EVENT_ROUTING_MISROUTED,
      timeUnixMs: 1002,
      attributes: new Map<string, AttributeValue>([
        [ATTR_ROUTING_MISROUTE_EXPECTED, 'refunds'],
        [ATTR_ROUTING_MISROUTE_REASON, 'wrong'],
        [ATTR_ROUTING_MISROUTE_SOURCE, 'eval'],
      ]),
    };
    const bare: EventView = { name: EVENT_ROUTING_MISROUTED, timeUnixMs: undefined, attributes: new Map() };
    const other: EventView = { name: 'exception', timeUnixMs: 1003, attributes: new Map() };
    const { out } = buildOn(EMPTY_RESOURCE, [span('00000000000000b4', { events: [full, other, bare] })]);
    expect(out).toHaveLength(1);
    expect(out[0]!.misroutes).toStrictEqual([
      { expected: 'refunds', reason: 'wrong', source: 'eval', timeUnixMs: 1002 },
      {},
    ]);
  });

  it('a misroute record from a feedback span carries its mark once, not again as the span’s misroutes', () => {
    const { out } = buildOn(EMPTY_RESOURCE, [
      span('00000000000000b5', { name: SPAN_ROUTING_FEEDBACK, attributes: new Map(), events: [mark('z')] }),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'misroute', mark: { expected: 'z' }, misroutes: [] });
  });
});

describe('what a span amounts to', () => {
  it('a tier-2 span that ended in error never had a verdict: a plain span', () => {
    const { out, stats } = build([span('00000000000000c1', { error: true, attributes: new Map() })]);
    expect(out).toStrictEqual([]);
    expect(stats).toMatchObject({ spans: 1, nonRoutingSpans: 1, problems: [] });
  });

  it('a tier-2 span that lost its verdict is incomplete, named with its span and trace', () => {
    const { out, stats } = build([span('00000000000000c2', { attributes: new Map() })]);
    expect(out).toStrictEqual([]);
    expect(stats.problems).toHaveLength(1);
    expect(stats.problems[0]!.kind).toBe('incomplete');
    expect(stats.problems[0]!.reason).toMatch(
      new RegExp(`^routing span 00000000000000c2 in trace ${TRACE}: missing or malformed: `),
    );
  });

  it('an unusable trace id is named as such, for each kind of span', () => {
    const bad = { traceId: 'nope' };
    const { stats } = build([
      span('00000000000000c3', bad),
      span('00000000000000c4', { ...bad, name: 'x', attributes: new Map([[ATTR_ROUTING_BY, 'intent']]) }),
      span('00000000000000c5', {
        ...bad,
        name: SPAN_ROUTING_FEEDBACK,
        attributes: new Map(),
        events: [mark('a')],
      }),
    ]);
    expect(stats.problems.map((p) => [p.kind, p.reason])).toStrictEqual([
      ['incomplete', 'routing span has no usable trace id (got "nope"; expected 32 hex digits)'],
      ['incomplete', 'turn span has no usable trace id (got "nope"; expected 32 hex digits)'],
      ['incomplete', 'feedback span has no usable trace id (got "nope"; expected 32 hex digits)'],
    ]);
  });

  it('plain spans counted in bulk add to spans and to non-routing spans', () => {
    const stats = createReadStats();
    const builder = createTraceRecordBuilder(stats);
    builder.countPlainSpans(3);
    builder.countPlainSpans(2);
    expect(stats).toMatchObject({ spans: 5, nonRoutingSpans: 5 });
  });
});
