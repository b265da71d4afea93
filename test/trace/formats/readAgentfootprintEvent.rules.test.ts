/**
 * readAgentfootprintEvent.rules.test — what one event-log line becomes, exactly: the records and their keys
 * (strictly: no key set to undefined), the synthesized ids and what makes two events one, and which values
 * count as agentfootprint events. The whole-file behaviour is in readAgentfootprintEvent.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { pairwiseGap } from '../../../src/policy/routingPolicy.js';
import { createTraceRecordBuilder, type SpanOutcome } from '../../../src/trace/buildTraceRecords.js';
import {
  DEFAULT_EVENT_LOG_OPTIONS,
  isAgentfootprintEvent,
  readAgentfootprintEvent,
  readTurnRoutedLine,
} from '../../../src/trace/formats/readAgentfootprintEvent.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import type { TraceRecord } from '../../../src/record/types.js';

const TYPE = 'agentfootprint.skill.turn_routed';
const SOURCE = { file: 'events.jsonl', line: 7 };
const SCORES = [
  { id: 'a', score: 0.9, relevance: 0.67 },
  { id: 'b', score: 0.2, relevance: 0.33 },
];
const POLICY = { nearTieMargin: 0.15, menuSize: 3, floor: 0 };
const META = {
  runId: 'run-1',
  runtimeStageId: 'pick#1',
  wallClockMs: 1000,
  runOffsetMs: 4,
  sessionId: 'sess-1',
};
const event = (payload: Record<string, unknown> = {}, meta: Record<string, unknown> | undefined = META) => ({
  type: TYPE,
  payload: {
    by: 'intent',
    from: 'b',
    to: 'a',
    scorer: 'keyword',
    window: 2,
    scores: SCORES,
    runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.2) },
    decisive: true,
    policy: POLICY,
    ...payload,
  },
  ...(meta === undefined ? {} : { meta }),
});
type EventOutcome = Extract<SpanOutcome, { kind: 'event' }>;
const line = (e: unknown): EventOutcome => {
  const o = readTurnRoutedLine(e as never, SOURCE, DEFAULT_EVENT_LOG_OPTIONS);
  if (o.kind !== 'event') throw new Error(`expected an event outcome, got ${o.kind}`);
  return o;
};
const HEX32 = expect.stringMatching(/^[0-9a-f]{32}$/);
const HEX16 = expect.stringMatching(/^[0-9a-f]{16}$/);

describe('the records of one event', () => {
  it('a full tier-2 event: the turn record and the decision record, exactly', () => {
    const o = line(
      event({
        offered: ['a'],
        stayOffered: false,
        witness: { text: 'user text', keyword: 'bill' },
        droppedResume: { id: 'r', reason: 'x' },
        decider: { provider: 'p', picked: 'a' },
      }),
    );
    expect(o.key).toMatch(/^e[0-9a-f]{32}$/);
    expect(o.problems).toStrictEqual([]);
    const shared = {
      traceId: HEX32,
      syntheticTraceId: true,
      conversationId: 'sess-1',
      timeUnixMs: 1000,
      error: false,
      misroutes: [],
      source: SOURCE,
    };
    expect(o.records[0]).toStrictEqual({
      kind: 'turn',
      ...shared,
      spanId: HEX16,
      by: 'intent',
      from: 'b',
      to: 'a',
      offered: ['a'],
      stayOffered: false,
      witnessKeyword: 'bill',
      droppedResume: { id: 'r', reason: 'x' },
      decider: { provider: 'p', picked: 'a' },
    });
    expect(o.records[1]).toStrictEqual({
      kind: 'decision',
      ...shared,
      spanId: HEX16,
      scorer: 'keyword',
      verdict: 'move',
      to: 'a',
      decisive: true,
      nearTie: false,
      ranked: SCORES,
      candidateCount: 2,
      omitted: 0,
      aliveCount: 2,
      runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.2) },
      incumbent: { id: 'b', scored: true },
      // The event's floor is the effective one: kept out of the policy, recorded as what it is.
      policy: { nearTieMargin: 0.15, menuSize: 3 },
      scorerTraits: {},
      effectiveFloor: 0,
      floorSource: 'effective',
      floorDeclared: true,
      semantics: 'agentfootprint-9.62',
      recordedBy: 'turn_routed',
      scorerWindow: 2,
      rebuilt: { verdict: 'move', differences: [] },
    });
    const [turn, decision] = o.records as [TraceRecord, TraceRecord];
    expect(turn.traceId).toBe(decision.traceId);
    expect(turn.spanId).not.toBe(decision.spanId);
  });

  it('a bare event: a turn record with only by, no time, and one problem saying so', () => {
    const o = line({ type: TYPE, payload: { by: 'none' } });
    expect(o.records).toStrictEqual([
      {
        kind: 'turn',
        traceId: HEX32,
        syntheticTraceId: true,
        timeUnixMs: NaN,
        error: false,
        misroutes: [],
        source: SOURCE,
        spanId: HEX16,
        by: 'none',
      },
    ]);
    expect(o.problems).toStrictEqual([
      {
        file: 'events.jsonl',
        line: 7,
        kind: 'incomplete',
        reason: `${TYPE} event: meta.wallClockMs is missing: the records have no time (the rest of the event was read)`,
      },
    ]);
  });

  it('a decision without a floor, scorer or window carries none of them; a menu carries what was offered; an incumbent not scored is marked so', () => {
    const o = line(
      event({
        by: 'menu',
        from: 'z',
        to: undefined,
        scorer: undefined,
        window: undefined,
        offered: ['a', 'b'],
        scores: [
          { id: 'a', score: 0.9, relevance: 0.51 },
          { id: 'b', score: 0.85, relevance: 0.49 },
        ],
        runnerUp: undefined,
        decisive: false,
        policy: { nearTieMargin: 0.15, menuSize: 3 },
      }),
    );
    const d = o.records[1]!;
    expect(d).toMatchObject({ verdict: 'menu', offered: ['a', 'b'], incumbent: { id: 'z', scored: false } });
    for (const key of ['scorer', 'scorerWindow', 'effectiveFloor', 'runnerUp', 'to']) {
      expect(Object.hasOwn(d, key), key).toBe(false);
    }
    expect(d).toMatchObject({ floorDeclared: false, nearTie: false, aliveCount: 2 });
  });

  it('alive counts only finite scores strictly above the floor', () => {
    const scores = [
      { id: 'a', score: 0.9, relevance: 0.5 },
      { id: 'b', score: 0, relevance: 0.25 },
      { id: 'c', score: null, relevance: 0.25 },
    ];
    const d = line(event({ scores, runnerUp: undefined })).records[1]!;
    expect(d).toMatchObject({ aliveCount: 1 });
  });

  it('problems of one event are one problem line, joined by "; "', () => {
    const o = line(event({ window: 'x', scorer: 5 }, { ...META, wallClockMs: undefined }));
    expect(o.problems.map((p) => p.reason)).toStrictEqual([
      `${TYPE} event: payload.scorer is number 5, not a string: left out; payload.window is "x", not a number: left out; meta.wallClockMs is missing: the records have no time (the rest of the event was read)`,
    ]);
  });

  it('an event that cannot be read is a bad line naming why, with no key and no record', () => {
    expect(line({ type: TYPE, payload: { by: 'magic' } })).toStrictEqual({
      kind: 'event',
      problems: [
        {
          file: 'events.jsonl',
          line: 7,
          kind: 'bad-line',
          reason: `${TYPE} event: payload.by is "magic", not one of entry, intent, continuity, menu, decider, none; skipped`,
        },
      ],
      records: [],
    });
  });
});

describe('what makes two events one, and their trace', () => {
  const keyOf = (e: unknown) => line(e).key;
  const traceOf = (e: unknown) => line(e).records[0]!.traceId;

  it('with a run id, an event is its run, stage, times and session: the payload does not matter', () => {
    expect(keyOf(event({ to: 'b' }))).toBe(keyOf(event()));
    for (const over of [
      { runId: 'run-2' },
      { runtimeStageId: 'pick#2' },
      { wallClockMs: 1001 },
      { runOffsetMs: 5 },
      { sessionId: 'sess-2' },
    ]) {
      expect(keyOf(event({}, { ...META, ...over })), JSON.stringify(over)).not.toBe(keyOf(event()));
    }
  });

  it('without a run id the payload is part of the identity too', () => {
    const { runId: _r, ...noRun } = META;
    expect(keyOf(event({ to: 'b' }, noRun))).not.toBe(keyOf(event({}, noRun)));
    expect(keyOf(event({}, noRun))).toBe(keyOf(event({}, noRun)));
    expect(keyOf(event({}, noRun))).not.toBe(keyOf(event()));
  });

  it('one trace per run: events of a run share it; without a run id each event has its own', () => {
    expect(traceOf(event({}, { ...META, runtimeStageId: 'pick#2' }))).toBe(traceOf(event()));
    expect(traceOf(event({}, { ...META, runId: 'run-2' }))).not.toBe(traceOf(event()));
    const { runId: _r, ...noRun } = META;
    expect(traceOf(event({}, { ...noRun, wallClockMs: 1 }))).not.toBe(
      traceOf(event({}, { ...noRun, wallClockMs: 2 })),
    );
    expect(traceOf(event({}, { runId: 42 }))).toBe(traceOf(event({}, {})));
  });

  it("a caller's trace id is used when it is exactly 32 hex digits and not all zeros", () => {
    const hex = '4BF92F3577B34DA6A3CE929D0E0E4736';
    expect(traceOf(event({}, { ...META, traceId: hex }))).toBe(hex.toLowerCase());
    for (const bad of ['0'.repeat(32), hex.slice(1), `x${hex}`, `${hex}0`]) {
      expect(traceOf(event({}, { ...META, traceId: bad })), bad).toBe(traceOf(event()));
    }
  });

  it("a caller's trace id is its own; one derived from the run is marked synthetic on every record", () => {
    const records = (e: unknown): readonly TraceRecord[] => line(e).records;
    const given = records(event({}, { ...META, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' }));
    expect(given.length).toBeGreaterThan(0);
    for (const r of given) expect('syntheticTraceId' in r).toBe(false);
    const derived = records(event());
    expect(derived.length).toBeGreaterThan(0);
    for (const r of derived) expect(r.syntheticTraceId).toBe(true);
  });
});

describe('which lines are agentfootprint events', () => {
  it('an object with its own string type starting agentfootprint.', () => {
    expect(isAgentfootprintEvent({ type: 'agentfootprint.agent.turn_start' })).toBe(true);
    for (const v of [
      null,
      'agentfootprint.x',
      [],
      { type: 'otel.span' },
      { type: 7 },
      Object.create({ type: 'agentfootprint.x' }),
    ]) {
      expect(isAgentfootprintEvent(v), JSON.stringify(v)).toBe(false);
    }
  });

  it('every event is counted; other types with a payload are counted as skipped, without one a bad line', () => {
    const stats = createReadStats();
    const builder = createTraceRecordBuilder(stats);
    const out: TraceRecord[] = [];
    readAgentfootprintEvent(
      { type: 'agentfootprint.agent.turn_start', payload: {} },
      SOURCE,
      DEFAULT_EVENT_LOG_OPTIONS,
      stats,
      builder,
      out,
    );
    readAgentfootprintEvent(
      { type: 'agentfootprint.agent.turn_end' },
      SOURCE,
      DEFAULT_EVENT_LOG_OPTIONS,
      stats,
      builder,
      out,
    );
    readAgentfootprintEvent(event(), SOURCE, DEFAULT_EVENT_LOG_OPTIONS, stats, builder, out);
    expect(stats).toMatchObject({ events: 3, otherEvents: 1 });
    expect(stats.problems.map((p) => [p.kind, p.reason])).toStrictEqual([
      ['bad-line', 'agentfootprint event "agentfootprint.agent.turn_end" has no payload; skipped'],
    ]);
    expect(out.map((r) => r.kind)).toStrictEqual(['turn', 'decision']);
  });

  it('a builder that takes no outcomes still gets the records', () => {
    const stats = createReadStats();
    const out: TraceRecord[] = [];
    const plain = { countPlainSpans: () => undefined, addSpan: () => undefined };
    readAgentfootprintEvent(event(), SOURCE, DEFAULT_EVENT_LOG_OPTIONS, stats, plain, out);
    expect(out.map((r) => r.kind)).toStrictEqual(['turn', 'decision']);
  });
});
