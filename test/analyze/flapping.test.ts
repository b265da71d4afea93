import { describe, expect, it } from 'vitest';
import { findFlapping, resolveFlappingConfig } from '../../src/analyze/flapping.js';
import type { DecisionRecord, TraceRecord } from '../../src/record/types.js';

let clock = 0;
let spanSeq = 0;

/** One decision of conversation `conv`: `'A>B'` a move from A to B, `'A='` a decisive stay on A,
 * `'A~B'` a near-tie stay on A against B, `'?>B'` a cold move to B, `'A?'` a near-tie menu from A. */
function d(conv: string | undefined, step: string, extra: Partial<DecisionRecord> = {}): DecisionRecord {
  clock += 1000;
  spanSeq++;
  const traceId = (extra.traceId ?? `t${spanSeq}`).padStart(32, '0');
  const base = {
    kind: 'decision' as const,
    traceId,
    spanId: String(spanSeq).padStart(16, '0'),
    router: 'desk',
    scorer: 'embedding',
    timeUnixMs: clock,
    error: false,
    misroutes: [],
    source: { file: 'mem', line: spanSeq },
    candidateCount: 2,
    omitted: 0,
    policy: { nearTieMargin: 0.15, menuSize: 3 },
    scorerTraits: {},
    floorDeclared: false,
    ...(conv === undefined ? {} : { conversationId: conv }),
  };
  let m: RegExpMatchArray | null;
  let rec: DecisionRecord;
  if ((m = /^(\?|\w+)>(\w+)$/.exec(step))) {
    const [, from, to] = m as unknown as [string, string, string];
    rec = {
      ...base,
      verdict: 'move',
      to,
      decisive: true,
      nearTie: false,
      ranked: [
        { id: to, score: 0.9, relevance: 0.6 },
        { id: from === '?' ? 'zz' : from, score: 0.1, relevance: 0.4 },
      ],
      runnerUp: { id: from === '?' ? 'zz' : from, gap: 0.38 },
      ...(from === '?' ? {} : { incumbent: { id: from, scored: true } }),
    };
  } else if ((m = /^(\w+)=$/.exec(step))) {
    const [, at] = m as unknown as [string, string];
    rec = {
      ...base,
      verdict: 'stay',
      decisive: true,
      nearTie: false,
      ranked: [
        { id: at, score: 0.9, relevance: 0.6 },
        { id: 'zz', score: 0.1, relevance: 0.4 },
      ],
      runnerUp: { id: 'zz', gap: 0.38 },
      incumbent: { id: at, scored: true },
    };
  } else if ((m = /^(\w+)~(\w+)$/.exec(step))) {
    const [, at, other] = m as unknown as [string, string, string];
    rec = {
      ...base,
      verdict: 'stay',
      decisive: false,
      nearTie: true,
      ranked: [
        { id: other, score: 0.51, relevance: 0.5 },
        { id: at, score: 0.5, relevance: 0.5 },
      ],
      runnerUp: { id: at, gap: 0.005 },
      incumbent: { id: at, scored: true },
    };
  } else if ((m = /^(\w+)\?$/.exec(step))) {
    const [, at] = m as unknown as [string, string];
    rec = {
      ...base,
      verdict: 'menu',
      offered: ['x', 'y'],
      decisive: false,
      nearTie: true,
      ranked: [
        { id: 'x', score: 0.51, relevance: 0.5 },
        { id: 'y', score: 0.5, relevance: 0.5 },
      ],
      runnerUp: { id: 'y', gap: 0.005 },
      incumbent: { id: at, scored: true },
    };
  } else {
    throw new Error(`bad step ${step}`);
  }
  return { ...rec, ...extra, traceId };
}

function conversation(conv: string | undefined, steps: string): DecisionRecord[] {
  return steps.split(' ').map((s) => d(conv, s));
}

describe('flapping', () => {
  it('A → B → A within the window is one bounce on the pair {A, B}', () => {
    const r = findFlapping(conversation('c1', '?>A A>B B>A A='));
    expect(r.bounces).toBe(1);
    expect(r.conversationsFlapping).toBe(1);
    expect(r.topPairs[0]).toMatchObject({ pair: ['A', 'B'], bounces: 1, conversations: 1 });
    expect(r.topConversations[0]!.examples[0]).toMatchObject({
      kind: 'bounce',
      skill: 'A',
      via: 'B',
      fromTurn: 2,
      toTurn: 3,
    });
  });

  it('a return later than the window is not a bounce', () => {
    const r = findFlapping(conversation('c1', '?>A A>B B= B= B= B>A'), { window: 3 });
    expect(r.bounces).toBe(0);
    const r2 = findFlapping(conversation('c2', '?>A A>B B= B= B= B>A'), { window: 4 });
    expect(r2.bounces).toBe(1);
  });

  it('A → B → C → A is not a bounce (the stint in between is not one skill)', () => {
    const r = findFlapping(conversation('c1', '?>A A>B B>C C>A'));
    expect(r.bounces).toBe(0);
  });

  it('ping-pong counts every return', () => {
    const r = findFlapping(conversation('c1', '?>A A>B B>A A>B B>A'));
    expect(r.bounces).toBe(3);
    expect(r.topPairs).toHaveLength(1);
    expect(r.topPairs[0]!.bounces).toBe(3);
  });

  it("a menu's pick is learnt from the next decision's incumbent", () => {
    // A → menu → (user picked B) → B's next turn moves back to A.
    const r = findFlapping(conversation('c1', '?>A A? B>A'));
    expect(r.bounces).toBe(1);
    expect(r.topPairs[0]!.pair).toEqual(['A', 'B']);
  });

  it('a run of near-tie stays on one incumbent is reported once, with its challengers', () => {
    const r = findFlapping(conversation('c1', '?>A A~B A~B A~C A= A~B'), { minStayRun: 3 });
    expect(r.nearTieStays).toBe(4);
    expect(r.stayRuns).toBe(1);
    const ex = r.topConversations[0]!.examples.find((e) => e.kind === 'stay-run');
    expect(ex).toMatchObject({ incumbent: 'A', challengers: ['B', 'C'], fromTurn: 2, length: 3 });
    expect(r.topConversations[0]!.longestStayRun).toBe(3);
  });

  it('a run shorter than minStayRun is not a run, but its near-tie stays are counted', () => {
    const r = findFlapping(conversation('c1', '?>A A~B A~B A='), { minStayRun: 3 });
    expect(r.stayRuns).toBe(0);
    expect(r.nearTieStays).toBe(2);
    expect(r.conversationsFlapping).toBe(0);
    expect(r.topPairs[0]).toMatchObject({ pair: ['A', 'B'], nearTieStays: 2, flaps: 0 });
  });

  it('a run still open at the end of the input is closed and counted', () => {
    const r = findFlapping(conversation('c1', '?>A A~B A~B A~B'));
    expect(r.stayRuns).toBe(1);
  });

  it('conversations are kept apart, even when their decisions interleave', () => {
    const a = conversation('c1', '?>A A>B B>A');
    const b = conversation('c2', '?>B B>A A>C');
    const mixed: TraceRecord[] = [a[0]!, b[0]!, a[1]!, b[1]!, a[2]!, b[2]!];
    const r = findFlapping(mixed);
    expect(r.conversations).toBe(2);
    expect(r.bounces).toBe(1);
    expect(r.topConversations.map((c) => c.id)).toEqual(['c1']);
  });

  it('without a conversation id the trace is the conversation', () => {
    const recs = ['?>A', 'A>B', 'B>A'].map((s) => d(undefined, s, { traceId: 'abc' }));
    const r = findFlapping(recs);
    expect(r.conversationsKeyedByTrace).toBe(1);
    expect(r.topConversations[0]).toMatchObject({ keyedBy: 'trace', bounces: 1 });
    expect(r.topConversations[0]!.id).toBe('abc'.padStart(32, '0'));
  });

  it('two routers in one conversation are two graphs', () => {
    const recs = [d('c1', '?>A'), d('c1', '?>B', { router: 'other' }), d('c1', '?>A')];
    expect(findFlapping(recs.map((r) => ({ ...r, router: 'desk' }))).bounces).toBe(1);
    const r = findFlapping(recs);
    expect(r.bounces).toBe(0);
    expect(r.conversations).toBe(2);
  });

  it('records out of file order are judged in time order within the reorder window', () => {
    const recs = conversation('c1', '?>A A>B B>A');
    const r = findFlapping([recs[2]!, recs[0]!, recs[1]!]);
    expect(r.bounces).toBe(1);
    expect(r.outOfOrder).toBe(0);
  });

  it('a record later than the reorder window is counted as out of order', () => {
    const recs = conversation('c1', '?>A A= A= A= A=');
    const r = findFlapping([...recs.slice(1), recs[0]!], { reorderWindow: 1 });
    expect(r.outOfOrder).toBe(1);
  });

  it('ranks conversations by flaps and keeps only the top N', () => {
    const recs = [
      ...conversation('few', '?>A A>B B>A'),
      ...conversation('many', '?>A A>B B>A A>B B>A'),
      ...conversation('calm', '?>A A= A='),
    ];
    const r = findFlapping(recs, { top: 1 });
    expect(r.topConversations.map((c) => [c.id, c.flaps])).toEqual([['many', 3]]);
    expect(r.conversationsFlapping).toBe(2);
  });

  it('turn records and misroute records are ignored', () => {
    const turn = { ...d('c1', 'A='), kind: 'turn', by: 'continuity' } as unknown as TraceRecord;
    const r = findFlapping([turn]);
    expect(r.decisions).toBe(0);
  });

  it('rejects a config that cannot work', () => {
    expect(() => resolveFlappingConfig({ window: 0 })).toThrow(/window/);
    expect(() => resolveFlappingConfig({ top: 1.5 })).toThrow(/top/);
  });
});
