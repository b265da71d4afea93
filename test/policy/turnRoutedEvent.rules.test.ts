/**
 * turnRoutedEvent.rules.test — one rule per `it` for what a hand-built or damaged turn_routed event reads as:
 * the fields kept, the problem line for each one left out, the decision rebuilt, what happened, and each kind
 * of difference between the two. The real capture is turnRoutedEvent.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { floorSourceOf } from '../../src/policy/floorSource.js';
import { decideTier2, pairwiseGap } from '../../src/policy/routingPolicy.js';
import {
  DEFAULT_CATEGORICAL_SCORERS,
  isTurnRoutedEvent,
  readTurnRoutedEvent,
  TURN_ROUTED_EVENT_TYPE,
  type ReadTurnRoutedOptions,
  type TurnRoutedReading,
} from '../../src/policy/turnRoutedEvent.js';

const OPTIONS: ReadTurnRoutedOptions = {
  semantics: 'agentfootprint-9.62',
  categoricalScorers: DEFAULT_CATEGORICAL_SCORERS,
  maxJudgedCandidates: 1000,
};
const POLICY = { nearTieMargin: 0.15, menuSize: 3, floor: 0 };
/** a decisive over b (gap ≈ 0.34). */
const DECISIVE = [
  { id: 'a', score: 0.9, relevance: 0.67 },
  { id: 'b', score: 0.2, relevance: 0.33 },
];
/** a and b near-tied (gap ≈ 0.025). */
const TIED = [
  { id: 'a', score: 0.9, relevance: 0.51 },
  { id: 'b', score: 0.85, relevance: 0.49 },
];

const ev = (payload: Record<string, unknown>, meta?: unknown): unknown => ({
  type: TURN_ROUTED_EVENT_TYPE,
  payload,
  ...(meta === undefined ? {} : { meta }),
});
const read = (event: unknown, options: ReadTurnRoutedOptions = OPTIONS): TurnRoutedReading => {
  const r = readTurnRoutedEvent(event, options);
  if (r.kind !== 'turn_routed') throw new Error(`expected a reading, got ${r.reason}`);
  return r;
};
const reasonOf = (event: unknown): string => {
  const r = readTurnRoutedEvent(event, OPTIONS);
  if (r.kind !== 'invalid') throw new Error('expected invalid');
  return r.reason;
};
const problemsOf = (payload: Record<string, unknown>, meta?: unknown): readonly string[] =>
  read(ev(payload, meta)).problems;
/** A tier-2 event with scores and policy; `over` replaces fields. */
const tier2 = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  by: 'intent',
  to: 'a',
  scores: DECISIVE,
  runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.2) },
  decisive: true,
  policy: POLICY,
  ...over,
});
const differencesOf = (over: Record<string, unknown>): readonly string[] =>
  read(ev(tier2(over))).decision!.differences;

describe('isTurnRoutedEvent', () => {
  it('true only for an object whose type is the turn_routed type', () => {
    expect(isTurnRoutedEvent({ type: TURN_ROUTED_EVENT_TYPE })).toBe(true);
    for (const v of [
      null,
      undefined,
      TURN_ROUTED_EVENT_TYPE,
      { type: 'agentfootprint.agent.turn_start' },
      {},
    ]) {
      expect(isTurnRoutedEvent(v)).toBe(false);
    }
  });
});

describe('events that cannot be read', () => {
  it('anything else is not a turn_routed event', () => {
    expect(reasonOf({ type: 'other' })).toBe(`not a ${TURN_ROUTED_EVENT_TYPE} event`);
  });

  it('a payload that is missing, null or an array is no payload object', () => {
    for (const payload of [undefined, null, [], 'x']) {
      expect(reasonOf({ type: TURN_ROUTED_EVENT_TYPE, payload })).toBe('the event has no payload object');
    }
  });

  it('a by that is not one of the six routes names what it was', () => {
    const tail = 'not one of entry, intent, continuity, menu, decider, none';
    expect(reasonOf(ev({}))).toBe(`payload.by is missing, ${tail}`);
    expect(reasonOf(ev({ by: 7 }))).toBe(`payload.by is number 7, ${tail}`);
    expect(reasonOf(ev({ by: 'magic' }))).toBe(`payload.by is "magic", ${tail}`);
    expect(reasonOf(ev({ by: null }))).toBe(`payload.by is null, ${tail}`);
    expect(reasonOf(ev({ by: {} }))).toBe(`payload.by is an object, ${tail}`);
    expect(reasonOf(ev({ by: 'x'.repeat(41) }))).toBe(`payload.by is "${'x'.repeat(40)}…", ${tail}`);
  });
});

describe('the turn route and the envelope', () => {
  it('an event with only by reads as that route, an empty meta, no problem and no other key', () => {
    for (const by of ['entry', 'intent', 'continuity', 'menu', 'decider', 'none']) {
      expect(read(ev({ by }))).toStrictEqual({ kind: 'turn_routed', turn: { by }, meta: {}, problems: [] });
    }
  });

  it('every field kept when well-formed', () => {
    const event = ev(
      {
        by: 'continuity',
        from: 'billing',
        to: 'billing',
        offered: ['a', 'b'],
        stayOffered: false,
        witness: { text: 'my bill', keyword: 'bill' },
        decider: { provider: 'openai', model: 'm', picked: 'a' },
        droppedResume: { id: 'refunds', reason: 'expired' },
        scorer: 'keyword',
        window: 3,
      },
      { runId: 'run-1', sessionId: 'sess-1', wallClockMs: 1000, traceId: 't' },
    );
    expect(read(event)).toStrictEqual({
      kind: 'turn_routed',
      turn: {
        by: 'continuity',
        from: 'billing',
        to: 'billing',
        offered: ['a', 'b'],
        stayOffered: false,
        witness: { text: 'my bill', keyword: 'bill' },
      },
      decider: { provider: 'openai', model: 'm', picked: 'a' },
      droppedResume: { id: 'refunds', reason: 'expired' },
      scorer: 'keyword',
      window: 3,
      meta: { runId: 'run-1', sessionId: 'sess-1', wallClockMs: 1000, traceId: 't' },
      problems: [],
    });
  });

  it('the optional parts of witness, decider and dropped resume are left out when absent', () => {
    const r = read(
      ev({ by: 'decider', witness: { text: 't' }, decider: { provider: 'p' }, droppedResume: {} }),
    );
    expect(r.turn.witness).toStrictEqual({ text: 't' });
    expect(r.decider).toStrictEqual({ provider: 'p' });
    expect(r.droppedResume).toStrictEqual({});
  });

  it('each mistyped field is left out with one problem line naming it and what it was', () => {
    expect(
      problemsOf({
        by: 'menu',
        from: 5,
        to: true,
        offered: [1],
        stayOffered: 'yes',
        scorer: null,
        window: '3',
      }),
    ).toStrictEqual([
      'payload.from is number 5, not a string: left out',
      'payload.to is boolean true, not a string: left out',
      'payload.offered is an array, not a list of skill ids: left out',
      'payload.stayOffered is "yes": left out',
      'payload.scorer is null, not a string: left out',
      'payload.window is "3", not a number: left out',
    ]);
  });

  it('a witness, decider or dropped resume of the wrong shape is left out whole, a wrong part alone', () => {
    expect(
      problemsOf({ by: 'menu', witness: { keyword: 'k' }, decider: 'x', droppedResume: [] }),
    ).toStrictEqual([
      'payload.witness is an object, not {text, keyword?}: left out',
      'payload.decider is "x", not {provider, model?, picked?}: left out',
      'payload.droppedResume is an array, not {id, reason}: left out',
    ]);
    const r = read(
      ev({
        by: 'menu',
        witness: { text: 't', keyword: 5 },
        decider: { provider: 'p', model: 1, picked: 2 },
        droppedResume: { id: null, reason: 3 },
      }),
    );
    expect(r.problems).toStrictEqual([
      'payload.witness.keyword is number 5, not a string: left out',
      'payload.decider.model is number 1, not a string: left out',
      'payload.decider.picked is number 2, not a string: left out',
      'payload.droppedResume.id is null, not a string: left out',
      'payload.droppedResume.reason is number 3, not a string: left out',
    ]);
    expect([r.turn.witness, r.decider, r.droppedResume]).toStrictEqual([
      { text: 't' },
      { provider: 'p' },
      {},
    ]);
  });

  it('a meta that is not an object, or fields of the wrong type, are left out; a non-finite clock too', () => {
    expect(problemsOf({ by: 'none' }, 'run-1')).toStrictEqual(['meta is "run-1", not an object: left out']);
    const r = read(ev({ by: 'none' }, { runId: 1, sessionId: [], traceId: {}, wallClockMs: Infinity }));
    expect(r.meta).toStrictEqual({});
    expect(r.problems).toStrictEqual([
      'meta.runId is number 1, not a string: left out',
      'meta.sessionId is an array, not a string: left out',
      'meta.traceId is an object, not a string: left out',
      'meta.wallClockMs is Infinity: left out',
    ]);
    expect(read(ev({ by: 'none' }, { wallClockMs: 'soon' })).problems).toStrictEqual([
      'meta.wallClockMs is "soon", not a number: left out',
    ]);
  });
});

describe('the decision', () => {
  it('no scores: no decision', () => {
    expect(read(ev({ by: 'intent', to: 'a', policy: POLICY })).decision).toBeUndefined();
  });

  it('an entry route with scores is not judged (tier 1 decided)', () => {
    const r = read(ev(tier2({ by: 'entry' })));
    expect(r.decision).toBeUndefined();
    expect(r.problems).toStrictEqual([
      'payload.by is entry (a tier-1 rule) but the event carries tier-2 scores: the scores are not judged',
    ]);
  });

  it('scores that are not a list, or more than maxJudgedCandidates of them, are not judged', () => {
    expect(read(ev(tier2({ scores: 'a' }))).problems).toStrictEqual([
      'payload.scores is "a", not a list: the scores are not judged',
    ]);
    const bounded = { ...OPTIONS, maxJudgedCandidates: 1 };
    const r = read(ev(tier2()), bounded);
    expect(r.decision).toBeUndefined();
    expect(r.problems).toStrictEqual([
      'payload.scores holds 2 candidates, more than the 1 judged: the scores are not judged',
    ]);
    expect(read(ev(tier2()), { ...OPTIONS, maxJudgedCandidates: 2 }).decision).toBeDefined();
  });

  it('an entry that is not {id, score} stops the judging, naming its index', () => {
    for (const bad of [5, { id: 1, score: 0.5 }, { id: 'c', score: '0.5' }, { id: 'c' }]) {
      const r = read(ev(tier2({ scores: [DECISIVE[0], bad] })));
      expect(r.decision).toBeUndefined();
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toMatch(
        /^payload\.scores\[1\] is .*, not \{id, score, relevance\}: the scores are not judged$/,
      );
    }
  });

  it('null scores and shares (JSON’s non-finite numbers) read as NaN; a missing share takes the rebuilt one', () => {
    const d = read(
      ev(
        tier2({
          scores: [
            { id: 'a', score: 0.9, relevance: null },
            { id: 'b', score: null },
          ],
        }),
      ),
    ).decision!;
    expect(d.scores[0]).toStrictEqual({ id: 'a', score: 0.9, relevance: NaN });
    expect(d.scores[1]!.score).toBeNaN();
    expect((d.scores[1] as { relevance?: number }).relevance).toBe(
      d.rebuilt.ranked.find((r) => r.id === 'b')!.relevance,
    );
  });

  it('the policy must be an object of numbers (null read as NaN); its floor is kept only when present', () => {
    expect(read(ev(tier2({ policy: [] }))).problems).toStrictEqual([
      'payload.policy is an array, not {nearTieMargin, menuSize, floor?}: the scores are not judged',
    ]);
    for (const policy of [
      { nearTieMargin: '0.1', menuSize: 3 },
      { nearTieMargin: 0.1 },
      { ...POLICY, floor: 'x' },
    ]) {
      expect(read(ev(tier2({ policy }))).problems).toStrictEqual([
        'payload.policy holds a value that is not a number: the scores are not judged',
      ]);
    }
    expect(read(ev(tier2({ policy: { nearTieMargin: 0.15, menuSize: 3 } }))).decision!.policy).toStrictEqual({
      nearTieMargin: 0.15,
      menuSize: 3,
    });
    expect(read(ev(tier2({ policy: { ...POLICY, floor: null } }))).decision!.policy.floor).toBeNaN();
  });

  it("the event's floor is the effective floor: the policy carries it marked so, and judges with it", () => {
    const d = read(ev(tier2({ policy: { ...POLICY, floor: 0.5 } }))).decision!;
    expect(d.policy).toStrictEqual({
      nearTieMargin: 0.15,
      menuSize: 3,
      floor: 0.5,
      floorSource: 'effective',
    });
    expect(floorSourceOf(d.policy, d.scorerTraits)).toBe('effective');
    // 0.2 is at/below the 0.5 floor: only a is alive, so there is no runner-up.
    expect(d.rebuilt.runnerUp).toBeUndefined();
  });

  it('the decision: the call as made (incumbent = from), the behaviour, the rebuilt verdict of those numbers', () => {
    const d = read(
      ev(tier2({ by: 'continuity', from: 'a', to: 'a', scores: TIED, runnerUp: undefined, decisive: false })),
    ).decision!;
    const scores = TIED.map((c) => ({ ...c }));
    expect(d.incumbentId).toBe('a');
    expect(d.semantics).toBe('agentfootprint-9.62');
    expect(d.scorerTraits).toStrictEqual({});
    expect(d.rebuilt).toStrictEqual(decideTier2(scores, 'a', POLICY));
  });

  it('a categorical scorer (llm-classifier by default, or as configured) is judged as categorical', () => {
    expect(read(ev(tier2({ scorer: 'llm-classifier' }))).decision!.scorerTraits).toStrictEqual({
      categorical: true,
    });
    expect(read(ev(tier2({ scorer: 'keyword' }))).decision!.scorerTraits).toStrictEqual({});
    const custom = { ...OPTIONS, categoricalScorers: ['keyword'] };
    expect(read(ev(tier2({ scorer: 'keyword' })), custom).decision!.scorerTraits).toStrictEqual({
      categorical: true,
    });
  });

  it('a runner-up of the wrong shape is left out; its gap may be null (NaN)', () => {
    expect(read(ev(tier2({ runnerUp: { id: 'b' } }))).problems).toStrictEqual([
      'payload.runnerUp is an object, not {id, gap}: left out',
    ]);
    expect(read(ev(tier2({ runnerUp: 'b' }))).problems).toStrictEqual([
      'payload.runnerUp is "b", not {id, gap}: left out',
    ]);
    expect(read(ev(tier2({ runnerUp: { id: 'b', gap: null } }))).decision!.happened.runnerUp!.gap).toBeNaN();
  });

  it("decisive: the event's flag; missing, the rebuilt one; of the wrong type, the rebuilt one and a problem", () => {
    expect(read(ev(tier2({ decisive: false }))).decision!.happened.decisive).toBe(false);
    const missing = read(ev(tier2({ decisive: undefined })));
    expect([missing.decision!.happened.decisive, missing.problems]).toStrictEqual([true, []]);
    const wrong = read(ev(tier2({ decisive: 'yes' })));
    expect(wrong.decision!.happened.decisive).toBe(true);
    expect(wrong.problems).toStrictEqual(['payload.decisive is "yes": read as the rebuilt verdict\'s']);
  });
});

describe('what happened', () => {
  const happened = (over: Record<string, unknown>) => read(ev(tier2(over))).decision!.happened;

  it("intent with a target is a move there, with the event's ranking, runner-up and decisive flag", () => {
    expect(happened({ to: 'b' })).toStrictEqual({
      kind: 'move',
      to: 'b',
      ranked: DECISIVE,
      runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.2) },
      decisive: true,
    });
  });

  it('no runner-up on the event: none on what happened', () => {
    expect(happened({ runnerUp: undefined })).toStrictEqual({
      kind: 'move',
      to: 'a',
      ranked: DECISIVE,
      decisive: true,
    });
  });

  it('continuity with no decider is a stay', () => {
    expect(happened({ by: 'continuity', from: 'a', to: 'a' }).kind).toBe('stay');
  });

  it('menu, none, decider, or continuity after a decider: a menu of what the event offered', () => {
    for (const over of [
      { by: 'menu' },
      { by: 'none' },
      { by: 'decider' },
      { by: 'continuity', decider: { provider: 'p' } },
    ]) {
      expect(happened({ ...over, scores: TIED, offered: ['b', 'a'] })).toMatchObject({
        kind: 'menu',
        offered: ['b', 'a'],
      });
    }
  });

  it("a menu with nothing offered on the event takes the rebuilt menu's, else an empty one", () => {
    expect(happened({ by: 'menu', scores: TIED, decisive: false })).toMatchObject({
      kind: 'menu',
      offered: ['a', 'b'],
    });
    expect(happened({ by: 'menu' })).toMatchObject({ kind: 'menu', offered: [] });
  });

  it('a menu that followed when the numbers give unmatched is unmatched', () => {
    const dead = [{ id: 'a', score: 0, relevance: 1 }];
    expect(happened({ by: 'none', scores: dead, runnerUp: undefined, decisive: false }).kind).toBe(
      'unmatched',
    );
  });

  it('intent with no target keeps the rebuilt kind', () => {
    expect(happened({ to: undefined, scores: TIED, runnerUp: undefined, decisive: false })).toMatchObject({
      kind: 'menu',
      offered: ['a', 'b'],
    });
  });
});

describe('the differences between what happened and the rebuilt verdict', () => {
  it('none when they agree', () => {
    expect(differencesOf({})).toStrictEqual([]);
    expect(
      differencesOf({
        by: 'continuity',
        from: 'b',
        to: 'b',
        scores: TIED,
        runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.85) },
        decisive: false,
      }),
    ).toStrictEqual([]);
  });

  it('a move elsewhere, or no move, is a verdict difference naming both', () => {
    expect(differencesOf({ to: 'b' })).toStrictEqual(['verdict: event by intent, to b, rebuilt move to a']);
    expect(differencesOf({ by: 'continuity', from: 'b', to: 'b' })).toStrictEqual([
      'verdict: event by continuity, to b, rebuilt move to a',
    ]);
  });

  it('a rebuilt stay: anything but continuity without a decider to the incumbent differs', () => {
    const tied = {
      scores: TIED,
      from: 'a',
      runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.85) },
      decisive: false,
    };
    expect(differencesOf({ ...tied, by: 'continuity', to: 'a' })).toStrictEqual([]);
    expect(differencesOf({ ...tied, by: 'continuity', to: undefined })).toStrictEqual([]);
    expect(differencesOf({ ...tied, by: 'intent', to: 'b' })).toStrictEqual([
      'verdict: event by intent, to b, rebuilt stay',
    ]);
    expect(differencesOf({ ...tied, by: 'continuity', to: 'b' })).toStrictEqual([
      'verdict: event by continuity, to b, rebuilt stay',
    ]);
    expect(
      differencesOf({ ...tied, by: 'continuity', to: 'a', decider: { provider: 'p', picked: 'a' } }),
    ).toStrictEqual(['verdict: event by continuity, to a, decider picked a, rebuilt stay']);
  });

  it('a rebuilt menu: no menu followed, or another list offered, differs', () => {
    const tied = { scores: TIED, runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.85) }, decisive: false };
    expect(differencesOf({ ...tied, by: 'menu', offered: ['a', 'b'] })).toStrictEqual([]);
    expect(differencesOf({ ...tied, by: 'intent', to: 'a' })).toStrictEqual([
      'verdict: event by intent, to a, rebuilt menu [a, b]',
    ]);
    expect(differencesOf({ ...tied, by: 'menu', offered: ['a'] })).toStrictEqual([
      'menu: event offered [a], rebuilt [a, b]',
    ]);
    expect(differencesOf({ ...tied, by: 'menu', offered: ['b', 'a'] })).toStrictEqual([
      'menu: event offered [b, a], rebuilt [a, b]',
    ]);
    expect(differencesOf({ ...tied, by: 'menu' })).toStrictEqual([
      'menu: event offered none, rebuilt [a, b]',
    ]);
  });

  it('a rebuilt unmatched: no menu followed, or a menu missing an entry, differs', () => {
    const dead = {
      scores: [
        { id: 'a', score: 0, relevance: 0.5 },
        { id: 'b', score: -1, relevance: 0.5 },
      ],
      runnerUp: undefined,
      decisive: false,
    };
    expect(differencesOf({ ...dead, by: 'none', offered: ['a', 'b'] })).toStrictEqual([]);
    expect(differencesOf({ ...dead, by: 'none' })).toStrictEqual([]);
    expect(differencesOf({ ...dead, by: 'intent', to: 'a' })).toStrictEqual([
      'verdict: event by intent, to a, rebuilt unmatched',
    ]);
    expect(differencesOf({ ...dead, by: 'none', offered: ['a'] })).toStrictEqual([
      'menu: event offered [a], rebuilt unmatched (every entry)',
    ]);
  });

  it('the decisive flag, the runner-up and its gap are each compared', () => {
    expect(differencesOf({ decisive: false })).toStrictEqual(['decisive: event false, rebuilt true']);
    expect(differencesOf({ runnerUp: undefined })).toStrictEqual(['runner-up: event none, rebuilt b']);
    expect(differencesOf({ runnerUp: { id: 'c', gap: 0.3 } })).toStrictEqual([
      'runner-up: event c, rebuilt b',
    ]);
    expect(differencesOf({ runnerUp: { id: 'b', gap: 0.3 } })).toStrictEqual([
      `gap: event 0.3, rebuilt ${String(pairwiseGap(0.9, 0.2))}`,
    ]);
    const single = { scores: [DECISIVE[0]], runnerUp: { id: 'b', gap: 0.3 } };
    expect(differencesOf(single)).toStrictEqual(['runner-up: event b, rebuilt none']);
  });

  it('gaps equal within 1e-9 (relative) agree; NaN agrees with NaN, never with a number', () => {
    const gap = pairwiseGap(0.9, 0.2);
    expect(differencesOf({ runnerUp: { id: 'b', gap: gap * (1 + 1e-12) } })).toStrictEqual([]);
    expect(differencesOf({ runnerUp: { id: 'b', gap: gap + 1e-6 } })).toHaveLength(1);
    expect(differencesOf({ runnerUp: { id: 'b', gap: null } })).toStrictEqual([
      `gap: event NaN, rebuilt ${String(gap)}`,
    ]);
  });
});

describe('the edges of reading', () => {
  it('a quoted value is cut past 40 characters, not at 40', () => {
    const tail = 'not one of entry, intent, continuity, menu, decider, none';
    expect(reasonOf(ev({ by: 'x'.repeat(40) }))).toBe(`payload.by is "${'x'.repeat(40)}", ${tail}`);
  });

  it('a list of skill ids with one that is not a string is left out whole', () => {
    expect(problemsOf({ by: 'menu', offered: ['a', 1] })).toStrictEqual([
      'payload.offered is an array, not a list of skill ids: left out',
    ]);
  });

  it('a decider whose provider is not a string, or a runner-up whose id is not, is left out', () => {
    expect(problemsOf({ by: 'decider', decider: { provider: 5 } })).toStrictEqual([
      'payload.decider is an object, not {provider, model?, picked?}: left out',
    ]);
    expect(read(ev(tier2({ runnerUp: { id: 5, gap: 0.1 } }))).problems).toStrictEqual([
      'payload.runnerUp is an object, not {id, gap}: left out',
    ]);
  });

  it('gaps: equal within 1e-9 of the larger magnitude; an infinite gap agrees only with the same infinity', () => {
    const withGap = (gap: number, scores = DECISIVE) => differencesOf({ scores, runnerUp: { id: 'b', gap } });
    const big = [
      { id: 'a', score: 4e9, relevance: 1 },
      { id: 'b', score: 1, relevance: 0 },
    ];
    // tanh saturates to 1 here, so 1 + 5e-10 is within the relative tolerance and 1 + 2e-9 is not.
    expect(withGap(1 + 5e-10, big)).toStrictEqual([]);
    expect(withGap(1 + 2e-9, big)).toHaveLength(1);
    expect(withGap(Infinity)).toHaveLength(1);
  });

  it('two menus with the same length but another member differ', () => {
    const tied = { scores: TIED, runnerUp: { id: 'b', gap: pairwiseGap(0.9, 0.85) }, decisive: false };
    expect(differencesOf({ ...tied, by: 'menu', offered: ['a', 'c'] })).toStrictEqual([
      'menu: event offered [a, c], rebuilt [a, b]',
    ]);
  });
});
