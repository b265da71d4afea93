import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FLAPPING_CONFIG,
  createFlappingAnalysis,
  findFlapping,
  resolveFlappingConfig,
} from '../../src/analyze/flapping.js';
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
    // Judged in arrival order the bounce would run from turn 1; in time order it is A → B at 2, back at 3.
    expect(r.topConversations[0]!.examples[0]).toMatchObject({ fromTurn: 2, toTurn: 3 });
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

describe('flapping: the config', () => {
  it('the defaults: window 3, runs of 3, top 10, 3 examples, 8 held back', () => {
    expect(DEFAULT_FLAPPING_CONFIG).toStrictEqual({
      window: 3,
      minStayRun: 3,
      top: 10,
      examplesPerConversation: 3,
      reorderWindow: 8,
    });
    expect(Object.isFrozen(DEFAULT_FLAPPING_CONFIG)).toBe(true);
    expect(resolveFlappingConfig()).toStrictEqual(DEFAULT_FLAPPING_CONFIG);
  });

  it('an option given as undefined keeps its default', () => {
    expect(resolveFlappingConfig({ window: undefined, top: undefined })).toStrictEqual(
      DEFAULT_FLAPPING_CONFIG,
    );
  });

  it('window and minStayRun must be whole numbers from 1; the other limits from 0', () => {
    expect(() => resolveFlappingConfig({ window: 0 })).toThrow(
      'flapping: window must be an integer >= 1, got 0',
    );
    expect(() => resolveFlappingConfig({ minStayRun: 0 })).toThrow(
      'flapping: minStayRun must be an integer >= 1, got 0',
    );
    expect(resolveFlappingConfig({ window: 1, minStayRun: 1 })).toMatchObject({ window: 1, minStayRun: 1 });
    for (const key of ['top', 'examplesPerConversation', 'reorderWindow'] as const) {
      expect(resolveFlappingConfig({ [key]: 0 })[key]).toBe(0);
      expect(() => resolveFlappingConfig({ [key]: -1 })).toThrow(
        `flapping: ${key} must be an integer >= 0, got -1`,
      );
      expect(() => resolveFlappingConfig({ [key]: 2.5 })).toThrow(RangeError);
      expect(() => resolveFlappingConfig({ [key]: NaN })).toThrow('got NaN');
    }
  });

  it('the report carries the config it ran with', () => {
    const r = findFlapping([], { window: 5 });
    expect(r.config).toStrictEqual({ ...DEFAULT_FLAPPING_CONFIG, window: 5 });
    expect(r.kind).toBe('flapping');
  });
});

describe('flapping: bounces', () => {
  it('a bounce example names the skill, the stop in between, both turns and both traces', () => {
    const recs = conversation('c1', '?>A A>B B>A');
    const r = findFlapping(recs);
    expect(r.topConversations[0]!.examples).toStrictEqual([
      {
        kind: 'bounce',
        skill: 'A',
        via: 'B',
        fromTurn: 2,
        toTurn: 3,
        traceIds: [recs[1]!.traceId, recs[2]!.traceId],
      },
    ]);
  });

  it('a bounce whose two moves share a trace names the trace once', () => {
    const recs = ['?>A', 'A>B', 'B>A'].map((s) => d('c1', s, { traceId: 'same' }));
    const ex = findFlapping(recs).topConversations[0]!.examples[0]!;
    expect(ex.traceIds).toStrictEqual(['same'.padStart(32, '0')]);
  });

  it('a return exactly window turns after leaving is a bounce; one turn later is not', () => {
    // A>B at turn 2, B>A at turn 2 + gap.
    expect(findFlapping(conversation('c1', '?>A A>B B>A'), { window: 1 }).bounces).toBe(1);
    expect(findFlapping(conversation('c2', '?>A A>B B= B>A'), { window: 1 }).bounces).toBe(0);
    expect(findFlapping(conversation('c3', '?>A A>B B= B>A'), { window: 2 }).bounces).toBe(1);
  });

  it('an incumbent that differs from where the last move went is an arrival on the turn before', () => {
    // The menu at turn 2 ended on B (the next incumbent): A → B at turn 2, B → A at turn 3.
    const r = findFlapping(conversation('c1', '?>A A? B>A'));
    expect(r.topConversations[0]!.examples[0]).toMatchObject({
      skill: 'A',
      via: 'B',
      fromTurn: 2,
      toTurn: 3,
    });
  });

  it("the first decision's incumbent is where the conversation starts, not a move", () => {
    // Starts on A; A → B, B → A: one bounce. Had the start been a move from nowhere, still one.
    const r = findFlapping(conversation('c1', 'A>B B>A'));
    expect(r.bounces).toBe(1);
    expect(r.topConversations[0]!.examples[0]).toMatchObject({ fromTurn: 1, toTurn: 2 });
  });

  it('a decision that stays where it is moves nowhere', () => {
    const r = findFlapping(conversation('c1', '?>A A= A>B B= B>A'));
    expect(r.bounces).toBe(1);
    expect(r.topConversations[0]!.examples[0]).toMatchObject({ fromTurn: 3, toTurn: 5 });
  });

  it('a move to the skill the conversation is on moves nowhere, and does not hide a bounce', () => {
    expect(findFlapping(conversation('c1', '?>A A>B B>B B>A')).bounces).toBe(1);
  });

  it('a decision with no incumbent recorded keeps where the conversation was', () => {
    // The third decision names no incumbent: the conversation is still on B, so the move to A returns.
    expect(findFlapping(conversation('c1', '?>A A>B ?>A')).bounces).toBe(1);
  });

  it('a conversation id equal to a trace id is another conversation than that trace', () => {
    const traceId = 'shared'.padStart(32, '0');
    const recs = [d(traceId, '?>A'), d(undefined, '?>B', { traceId: 'shared' })];
    const r = findFlapping(recs);
    expect(r.conversations).toBe(2);
    expect(r.conversationsKeyedByTrace).toBe(1);
  });

  it('a move with no target moves nowhere', () => {
    const recs = conversation('c1', '?>A A>B B>A');
    const { to: _to, ...noTarget } = recs[2]!;
    const r = findFlapping([recs[0]!, recs[1]!, noTarget as DecisionRecord]);
    expect(r.bounces).toBe(0);
    // The conversation is still on B: the next move back to A is a bounce.
    expect(findFlapping([recs[0]!, recs[1]!, noTarget as DecisionRecord, d('c1', 'B>A')]).bounces).toBe(1);
  });

  it('only a move moves: a stay that carries a target stays', () => {
    const recs = conversation('c1', '?>A A>B B=');
    const r = findFlapping([recs[0]!, recs[1]!, { ...recs[2]!, to: 'A' }]);
    expect(r.bounces).toBe(0);
  });

  it('a lone candidate kept as incumbent has no challenger and no runner-up to read', () => {
    const base = d('c1', 'A=');
    const { runnerUp: _r, ...lone } = base;
    const single = { ...lone, ranked: [{ id: 'A', score: 0.9, relevance: 1 }] } as DecisionRecord;
    const r = findFlapping([single]);
    expect(r).toMatchObject({ decisions: 1, nearTieStays: 0 });
  });

  it('bounces count per pair and per conversation: two conversations on one pair', () => {
    const r = findFlapping([...conversation('c1', '?>A A>B B>A'), ...conversation('c2', '?>B B>A A>B')]);
    expect(r.topPairs).toStrictEqual([
      {
        router: 'desk',
        pair: ['A', 'B'],
        bounces: 2,
        nearTieStays: 0,
        stayRuns: 0,
        flaps: 2,
        conversations: 2,
      },
    ]);
  });
});

describe('flapping: stay runs', () => {
  it('a stay-run example names the incumbent, its challengers, where it began, its length and traces', () => {
    const recs = conversation('c1', '?>A A~B A~B A~B A=');
    const r = findFlapping(recs);
    expect(r.topConversations[0]!.examples).toStrictEqual([
      {
        kind: 'stay-run',
        incumbent: 'A',
        challengers: ['B'],
        fromTurn: 2,
        length: 3,
        traceIds: [recs[1]!.traceId, recs[3]!.traceId],
      },
    ]);
  });

  it('a run within one trace names it once', () => {
    const recs = ['?>A', 'A~B', 'A~B', 'A~B'].map((s) => d('c1', s, { traceId: 'one' }));
    const ex = findFlapping(recs, { minStayRun: 3 }).topConversations[0]!.examples[0]!;
    expect(ex.traceIds).toStrictEqual(['one'.padStart(32, '0')]);
  });

  it('a run keeps at most three challengers, each once, first seen first', () => {
    const r = findFlapping(conversation('c1', '?>A A~C A~B A~C A~D A~E'), { minStayRun: 1 });
    const ex = r.topConversations[0]!.examples[0]!;
    expect(ex).toMatchObject({ kind: 'stay-run', challengers: ['C', 'B', 'D'], length: 5 });
  });

  it('a near-tie stay on another incumbent closes the run and starts a new one', () => {
    // A is kept three times, then the conversation is on B (a menu's pick) and B is kept four times.
    const r = findFlapping(conversation('c1', '?>A A~B A~B A~B B~A B~A B~A B~A'));
    expect(r.stayRuns).toBe(2);
    expect(r.topConversations[0]!.longestStayRun).toBe(4);
    expect(r.topConversations[0]!.examples.map((e) => (e.kind === 'stay-run' ? e.length : 0))).toStrictEqual([
      3, 4,
    ]);
    expect(r.topPairs[0]).toMatchObject({ pair: ['A', 'B'], nearTieStays: 7, stayRuns: 2 });
  });

  it('the longest run is the longest, not the last', () => {
    const r = findFlapping(conversation('c1', '?>A A~B A~B A~B A~B A= A~B A~B A~B'));
    expect(r.topConversations[0]!.longestStayRun).toBe(4);
  });

  it('a menu closes a run: it is not a stay', () => {
    const r = findFlapping(conversation('c1', '?>A A~B A~B A? A~B'), { minStayRun: 3 });
    expect(r.stayRuns).toBe(0);
    expect(r.nearTieStays).toBe(3);
  });

  it('a stay the record does not call a near-tie is not kept by ambiguity', () => {
    const recs = conversation('c1', '?>A A~B A~B A~B');
    const r = findFlapping(recs.map((x, i) => (i === 2 ? { ...x, nearTie: false } : x)));
    expect(r.nearTieStays).toBe(2);
    expect(r.stayRuns).toBe(0);
  });

  it('a near-tie stay with no incumbent recorded is not a stay run', () => {
    const recs = conversation('c1', 'A~B A~B A~B').map((x) => {
      const { incumbent: _i, ...rest } = x;
      return rest as DecisionRecord;
    });
    const r = findFlapping(recs, { minStayRun: 1 });
    expect(r.nearTieStays).toBe(0);
    expect(r.stayRuns).toBe(0);
    expect(r.topPairs).toStrictEqual([]);
  });

  it('the challenger is the top candidate when it is not the incumbent, else the runner-up', () => {
    const base = d('c1', 'A~B');
    // Ranked A first (the incumbent on top): the runner-up C is the challenger.
    const topIsIncumbent: DecisionRecord = {
      ...base,
      ranked: [
        { id: 'A', score: 0.51, relevance: 0.5 },
        { id: 'C', score: 0.5, relevance: 0.5 },
      ],
      runnerUp: { id: 'C', gap: 0.005 },
    };
    const r = findFlapping([topIsIncumbent], { minStayRun: 1 });
    expect(r.topPairs.map((p) => p.pair)).toStrictEqual([['A', 'C']]);
    expect(r.topConversations[0]!.examples[0]).toMatchObject({ challengers: ['C'] });
  });

  it('with the incumbent on top and as runner-up there is no challenger', () => {
    const base = d('c1', 'A~B');
    const alone: DecisionRecord = {
      ...base,
      ranked: [{ id: 'A', score: 0.5, relevance: 1 }],
      runnerUp: { id: 'A', gap: 0 },
    };
    const r = findFlapping([alone], { minStayRun: 1 });
    expect(r.nearTieStays).toBe(1);
    expect(r.topPairs).toStrictEqual([]);
    expect(r.topConversations[0]!.examples[0]).toMatchObject({ challengers: [] });
  });

  it('with nothing ranked the challenger is the runner-up', () => {
    const base = d('c1', 'A~B');
    const bare: DecisionRecord = { ...base, ranked: [], runnerUp: { id: 'C', gap: 0.005 } };
    const r = findFlapping([bare], { minStayRun: 1 });
    expect(r.topPairs.map((p) => p.pair)).toStrictEqual([['A', 'C']]);
  });
});

describe('flapping: time order', () => {
  it('decisions of one conversation at the same time are judged in arrival order', () => {
    const recs = conversation('c1', '?>A A>B B>A').map((x) => ({ ...x, timeUnixMs: 5 }));
    expect(findFlapping(recs).bounces).toBe(1);
    // Reversed arrival at one time: B → A, A → B, B → A is two bounces.
    expect(findFlapping([...recs].reverse()).bounces).toBe(2);
  });

  it('a decision that arrives after a later one was judged is out of order; one at the same time is not', () => {
    const recs = conversation('c1', '?>A A= A= A=');
    // reorderWindow 0: each decision is judged as it arrives.
    const late = findFlapping([recs[1]!, recs[0]!, recs[2]!, recs[3]!], { reorderWindow: 0 });
    expect(late.outOfOrder).toBe(1);
    const tied = findFlapping([recs[1]!, { ...recs[0]!, timeUnixMs: recs[1]!.timeUnixMs }], {
      reorderWindow: 0,
    });
    expect(tied.outOfOrder).toBe(0);
  });

  it('the reorder window holds exactly that many decisions back', () => {
    const recs = conversation('c1', '?>A A>B B>A');
    // With 2 held back, the first arrives last and is still put first; with 1 it is not.
    expect(findFlapping([recs[1]!, recs[2]!, recs[0]!], { reorderWindow: 2 })).toMatchObject({
      bounces: 1,
      outOfOrder: 0,
    });
    expect(findFlapping([recs[1]!, recs[2]!, recs[0]!], { reorderWindow: 1 })).toMatchObject({
      outOfOrder: 1,
    });
  });

  it('a decision with a non-finite time sorts as time 0', () => {
    const recs = conversation('c1', '?>A A>B B>A');
    const r = findFlapping([recs[1]!, recs[2]!, { ...recs[0]!, timeUnixMs: NaN }]);
    expect(r).toMatchObject({ bounces: 1, outOfOrder: 0 });
  });

  it('decisions are counted in the conversation they belong to', () => {
    const r = findFlapping([...conversation('c1', '?>A A= A='), ...conversation('c2', '?>B')]);
    expect(r.decisions).toBe(4);
    expect(r.conversations).toBe(2);
  });
});

describe('flapping: the report', () => {
  it('a flapping conversation: its id, key, router, service, decisions and counts', () => {
    const recs = conversation('c1', '?>A A>B B>A A~B A~B A~B').map((x) => ({ ...x, service: 'svc' }));
    const r = findFlapping(recs);
    expect(r.topConversations[0]).toStrictEqual({
      id: 'c1',
      keyedBy: 'conversation',
      router: 'desk',
      service: 'svc',
      decisions: 6,
      bounces: 1,
      nearTieStays: 3,
      stayRuns: 1,
      longestStayRun: 3,
      flaps: 2,
      examples: [expect.objectContaining({ kind: 'bounce' }), expect.objectContaining({ kind: 'stay-run' })],
    });
  });

  it('a conversation with no router or service has no such keys', () => {
    const recs = conversation('c1', '?>A A>B B>A').map((x) => {
      const { router: _r, ...rest } = x;
      return rest as DecisionRecord;
    });
    const r = findFlapping(recs);
    expect(r.topConversations[0]).not.toHaveProperty('router');
    expect(r.topConversations[0]).not.toHaveProperty('service');
    expect(r.topPairs[0]).not.toHaveProperty('router');
    expect(r.topPairs[0]).toMatchObject({ pair: ['A', 'B'] });
  });

  it('totals add up over every conversation, flapping or not, and count those keyed by trace', () => {
    const recs = [
      ...conversation('c1', '?>A A>B B>A'),
      ...conversation('c2', '?>A A~B A~B A~B'),
      ...conversation('c3', '?>A A~B'),
      d(undefined, '?>A'),
    ];
    const r = findFlapping(recs);
    expect(r).toMatchObject({
      decisions: 10,
      conversations: 4,
      conversationsKeyedByTrace: 1,
      conversationsFlapping: 2,
      bounces: 1,
      nearTieStays: 4,
      stayRuns: 1,
      outOfOrder: 0,
    });
  });

  it('at most examplesPerConversation examples are kept, the first ones; the counts go on', () => {
    const r = findFlapping(conversation('c1', '?>A A>B B>A A>B B>A'), { examplesPerConversation: 2 });
    const c = r.topConversations[0]!;
    expect(c.bounces).toBe(3);
    expect(c.examples.map((e) => (e.kind === 'bounce' ? e.toTurn : 0))).toStrictEqual([3, 4]);
    expect(
      findFlapping(conversation('c2', '?>A A>B B>A'), { examplesPerConversation: 0 }).topConversations[0]!
        .examples,
    ).toStrictEqual([]);
  });

  it('top 0 ranks no conversation and no pair, but still counts', () => {
    const r = findFlapping(conversation('c1', '?>A A>B B>A'), { top: 0 });
    expect(r.topConversations).toStrictEqual([]);
    expect(r.topPairs).toStrictEqual([]);
    expect(r.conversationsFlapping).toBe(1);
  });

  it('conversations rank by flaps, then near-tie stays, then decisions, then id, then router', () => {
    const recs = [
      ...conversation('b-more-stays', '?>A A>B B>A A~B'),
      ...conversation('z-plain', '?>A A>B B>A'),
      ...conversation('a-plain', '?>A A>B B>A'),
      ...conversation('y-longer', '?>A A>B B>A A='),
      ...conversation('top', '?>A A>B B>A A>B'),
      ...conversation('a-plain', '?>C C>D D>C').map((x) => ({ ...x, router: 'another' })),
    ];
    const r = findFlapping(recs);
    expect(r.topConversations.map((c) => `${c.id}/${c.router}`)).toStrictEqual([
      'top/desk',
      'b-more-stays/desk',
      'y-longer/desk',
      'a-plain/another',
      'a-plain/desk',
      'z-plain/desk',
    ]);
  });

  it('the top N conversations are the best N, whatever order they arrive in', () => {
    const recs = [
      ...conversation('one', '?>A A>B B>A'),
      ...conversation('three', '?>A A>B B>A A>B B>A'),
      ...conversation('two', '?>A A>B B>A A>B'),
      ...conversation('also-one', '?>A A>B B>A'),
    ];
    expect(findFlapping(recs, { top: 2 }).topConversations.map((c) => c.id)).toStrictEqual(['three', 'two']);
    expect(findFlapping(recs, { top: 3 }).topConversations.map((c) => c.id)).toStrictEqual([
      'three',
      'two',
      'also-one',
    ]);
  });

  it('pairs rank by flaps, then near-tie stays, then conversations, then the pair, then router', () => {
    const recs = [
      ...conversation('c1', '?>C C>D D>C'), // {C, D}: one bounce
      ...conversation('c2', '?>A A>B B>A'), // {A, B}: one bounce
      ...conversation('c3', '?>E E>F F>E E~F'), // {E, F}: one bounce and a near-tie stay
      ...conversation('c4', '?>G G>H H>G'),
      ...conversation('c5', '?>H H>G G>H'), // {G, H}: bounces in two conversations
      ...conversation('c6', '?>X X>Y Y>X X>Y Y>X'), // {X, Y}: three bounces
      ...conversation('c7', '?>A A>B B>A').map((x) => ({ ...x, router: 'another' })),
    ];
    const r = findFlapping(recs);
    expect(r.topPairs.map((p) => `${p.pair.join('')}/${p.router}`)).toStrictEqual([
      'XY/desk',
      'GH/desk',
      'EF/desk',
      'AB/another',
      'AB/desk',
      'CD/desk',
    ]);
  });

  it('pairs are compared skill by skill, not as run-together text, whichever is seen first', () => {
    // ['a', 'bd'] and ['ab', 'c']: joined without a separator 'abc' < 'abd' would put ['ab', 'c'] first.
    const first = conversation('c1', '?>ab ab>c c>ab');
    const second = conversation('c2', '?>a a>bd bd>a');
    for (const recs of [
      [...first, ...second],
      [...second, ...first],
    ]) {
      expect(findFlapping(recs).topPairs.map((p) => p.pair)).toStrictEqual([
        ['a', 'bd'],
        ['ab', 'c'],
      ]);
    }
  });

  it('the rankings do not depend on the order conversations arrive in', () => {
    const convs = [
      conversation('b-more-stays', '?>A A>B B>A A~B'),
      conversation('z-plain', '?>A A>B B>A'),
      conversation('a-plain', '?>A A>B B>A'),
      conversation('y-longer', '?>A A>B B>A A='),
      conversation('top', '?>A A>B B>A A>B'),
      conversation('a-plain', '?>C C>D D>C').map((x) => ({ ...x, router: 'another' })),
      conversation('k', '?>E E>F F>E E~F'),
      conversation('m', '?>G G>H H>G'),
    ];
    const rank = (list: DecisionRecord[][]) => {
      const r = findFlapping(list.flat());
      return [r.topConversations.map((c) => `${c.id}/${c.router}`), r.topPairs.map((p) => p.pair.join(''))];
    };
    const forward = rank(convs);
    expect(rank([...convs].reverse())).toStrictEqual(forward);
    expect(forward[0]).toStrictEqual([
      'top/desk',
      'b-more-stays/desk',
      'k/desk',
      'y-longer/desk',
      'a-plain/another',
      'a-plain/desk',
      'm/desk',
      'z-plain/desk',
    ]);
    expect(forward[1]).toStrictEqual(['AB', 'EF', 'CD', 'GH']);
  });

  it('the router breaks only a tie of names: a later id or pair ranks after, even on an earlier router', () => {
    const early = conversation('a', '?>A A>B B>A').map((x) => ({ ...x, router: 'r2' }));
    const late = conversation('b', '?>C C>D D>C').map((x) => ({ ...x, router: 'r1' }));
    for (const recs of [
      [...early, ...late],
      [...late, ...early],
    ]) {
      const r = findFlapping(recs);
      expect(r.topConversations.map((c) => `${c.id}/${c.router}`)).toStrictEqual(['a/r2', 'b/r1']);
      expect(r.topPairs.map((p) => `${p.pair.join('')}/${p.router}`)).toStrictEqual(['AB/r2', 'CD/r1']);
    }
  });

  it('a conversation or pair with no router ranks before a named router on a tie', () => {
    const named = conversation('c', '?>A A>B B>A').map((x) => ({ ...x, router: 'A' }));
    const bare = conversation('c', '?>A A>B B>A').map((x) => {
      const { router: _r, ...rest } = x;
      return rest as DecisionRecord;
    });
    for (const recs of [
      [...named, ...bare],
      [...bare, ...named],
    ]) {
      const r = findFlapping(recs);
      expect(r.topConversations.map((c) => c.router)).toStrictEqual([undefined, 'A']);
      expect(r.topPairs.map((p) => p.router)).toStrictEqual([undefined, 'A']);
    }
  });

  it("a pair's flaps are its bounces plus its stay runs", () => {
    const r = findFlapping(conversation('c1', '?>A A>B B>A A~B A~B A~B'));
    expect(r.topPairs[0]).toMatchObject({ bounces: 1, stayRuns: 1, flaps: 2 });
  });

  it('a pair that only met in decisive decisions is not listed; one with near-tie stays alone is', () => {
    const r = findFlapping([...conversation('c1', '?>A A>B'), ...conversation('c2', '?>C C~D')]);
    expect(r.topPairs.map((p) => p.pair)).toStrictEqual([['C', 'D']]);
  });

  it('at most top pairs are listed, the best ones', () => {
    const recs = [
      ...conversation('c1', '?>A A>B B>A'),
      ...conversation('c2', '?>C C>D D>C C>D'),
      ...conversation('c3', '?>E E>F F>E E>F F>E'),
    ];
    expect(findFlapping(recs, { top: 2 }).topPairs.map((p) => p.pair.join(''))).toStrictEqual(['EF', 'CD']);
  });

  it('a pair is counted once per conversation, however often it flaps there', () => {
    // Bounces at turns 3 and 8 (the move at 7 returns too late after the one at 3).
    const r = findFlapping(conversation('c1', '?>A A>B B>A A~B A~B A~B A>B B>A'));
    expect(r.topPairs[0]).toMatchObject({ pair: ['A', 'B'], conversations: 1, bounces: 2, stayRuns: 1 });
  });
});

describe('flapping: streaming', () => {
  it('add after finish throws, and says so', () => {
    const a = createFlappingAnalysis();
    a.finish();
    expect(() => a.add(d('c1', '?>A'))).toThrow('flapping: add() after finish()');
  });

  it('finish twice throws, and says so', () => {
    const a = createFlappingAnalysis();
    a.finish();
    expect(() => a.finish()).toThrow('flapping: finish() called twice');
  });
});
