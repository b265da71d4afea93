// tune.rules — one rule of the tune report per test: the config checks, the margins swept, the sweep's edges
// (a gap on a margin, no runner-up, a categorical scorer, an undecidable record), the recorded side, the
// recommendation and its reasons, the misroute joins, the floor sweep and the streaming contract.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TUNE_CONFIG,
  MAX_SWEEP_POINTS,
  TUNE_CAVEAT,
  createTuneAnalysis,
  resolveTuneConfig,
  sweepMargins,
  tuneMargins,
} from '../../src/analyze/tune.js';
import type { DecisionRecord, TraceRecord } from '../../src/record/types.js';
import { clauseCase, decision, misroute, s, tid, turn, type DecisionSpec } from './decisionBuilder.js';

/** Sweep 0, 0.25, 0.5. */
const SWEEP = { from: 0, to: 0.5, step: 0.25 };

/** A cold-start decision between a and b with gap tanh(0.2) ≈ 0.197: a move up to margin 0.197, then a menu. */
const moveAB = (extra: Partial<DecisionSpec> = {}): DecisionRecord =>
  decision({ scores: [s('a', 0.6), s('b', 0.2)], policy: { nearTieMargin: 0.15, menuSize: 3 }, ...extra });

/** A decisive move whatever the margin swept (gap tanh(5) ≈ 0.9999). */
const farMove = (extra: Partial<DecisionSpec> = {}): DecisionRecord =>
  decision({ scores: [s('x', 10), s('y', 0)], policy: { nearTieMargin: 0.15, menuSize: 3 }, ...extra });

describe('tune: the config', () => {
  it('the defaults: margins 0 to 0.5 by 0.01, everything, 2000 sampled, six floor shares, 50000 joined, auto', () => {
    expect(DEFAULT_TUNE_CONFIG).toStrictEqual({
      from: 0,
      to: 0.5,
      step: 0.01,
      where: {},
      floorSample: 2000,
      floorShares: [0.01, 0.05, 0.1, 0.2, 0.3, 0.5],
      joinWindow: 50_000,
      policy: 'auto',
    });
    expect(Object.isFrozen(DEFAULT_TUNE_CONFIG)).toBe(true);
    expect(resolveTuneConfig()).toStrictEqual(DEFAULT_TUNE_CONFIG);
  });

  it('an option given as undefined keeps its default', () => {
    expect(resolveTuneConfig({ from: undefined, step: undefined, policy: undefined })).toStrictEqual(
      DEFAULT_TUNE_CONFIG,
    );
  });

  it('a sweep must start at 0 or above, end at its start or above, and both must be finite', () => {
    const message = /^tune: the sweep needs 0 <= from <= to, got from .*, to .*$/;
    expect(() => resolveTuneConfig({ from: -0.01 })).toThrow(message);
    expect(() => resolveTuneConfig({ from: NaN })).toThrow(message);
    expect(() => resolveTuneConfig({ to: Infinity })).toThrow(message);
    expect(() => resolveTuneConfig({ from: 0.3, to: 0.2 })).toThrow('got from 0.3, to 0.2');
    expect(() => resolveTuneConfig({ from: 0.3, to: 0.2 })).toThrow(RangeError);
    expect(resolveTuneConfig({ from: 0, to: 0 })).toMatchObject({ from: 0, to: 0 });
    expect(resolveTuneConfig({ from: 0.2, to: 0.2 })).toMatchObject({ from: 0.2, to: 0.2 });
  });

  it('joinWindow is a count of decisions: 0 or more', () => {
    const message = /^tune: joinWindow must be a count of decisions, 0 or more, got /;
    expect(() => resolveTuneConfig({ joinWindow: -1 })).toThrow(message);
    expect(() => resolveTuneConfig({ joinWindow: NaN })).toThrow('got NaN');
    expect(() => resolveTuneConfig({ joinWindow: -1 })).toThrow(RangeError);
    expect(resolveTuneConfig({ joinWindow: 0 }).joinWindow).toBe(0);
    expect(resolveTuneConfig({ joinWindow: Infinity }).joinWindow).toBe(Infinity);
  });

  it('a step must be above 0 and give at most MAX_SWEEP_POINTS margins', () => {
    expect(MAX_SWEEP_POINTS).toBe(10_001);
    const message = /^tune: step must be > 0 and give at most 10001 margins, got /;
    expect(() => resolveTuneConfig({ step: 0 })).toThrow(message);
    expect(() => resolveTuneConfig({ step: -0.1 })).toThrow(message);
    expect(() => resolveTuneConfig({ step: NaN })).toThrow(message);
    expect(resolveTuneConfig({ from: 0, to: 10_000, step: 1 }).to).toBe(10_000);
    expect(() => resolveTuneConfig({ from: 0, to: 10_001, step: 1 })).toThrow('got 1');
    // The count is (to - from) / step + 1: a sweep starting above 0 is counted from its start.
    expect(resolveTuneConfig({ from: 1, to: 10_001, step: 1 }).from).toBe(1);
    expect(() => resolveTuneConfig({ from: 0, to: 2, step: 0.0001 })).toThrow('got 0.0001');
    // A step of 0 is refused even when from = to (0 / 0 margins).
    expect(() => resolveTuneConfig({ from: 0.2, to: 0.2, step: 0 })).toThrow(message);
  });

  it('each target must be a share within 0..1, and the message names the target', () => {
    for (const [key, name] of [
      ['targetMenuRate', 'target menu rate'],
      ['targetNearTieRate', 'target near-tie rate'],
      ['targetUnmatchedRate', 'target unmatched rate'],
    ] as const) {
      expect(() => resolveTuneConfig({ [key]: -0.01 })).toThrow(
        `tune: ${name} must be within 0..1, got -0.01`,
      );
      expect(() => resolveTuneConfig({ [key]: 1.01 })).toThrow(`${name} must be within 0..1`);
      expect(() => resolveTuneConfig({ [key]: NaN })).toThrow(RangeError);
      expect(resolveTuneConfig({ [key]: 0 })[key]).toBe(0);
      expect(resolveTuneConfig({ [key]: 1 })[key]).toBe(1);
    }
  });
});

describe('tune: the margins swept', () => {
  it('from, to and every step between, the last one included', () => {
    expect(sweepMargins({ from: 0, to: 0.5, step: 0.25 })).toStrictEqual([0, 0.25, 0.5]);
    expect(sweepMargins(DEFAULT_TUNE_CONFIG)).toHaveLength(51);
  });

  it('a sweep from a margin to itself visits that margin once', () => {
    expect(sweepMargins({ from: 0.2, to: 0.2, step: 0.1 })).toStrictEqual([0.2]);
  });

  it('a last step that floating point puts a hair short is still visited', () => {
    // 0.3 / 0.1 is 2.9999999999999996.
    expect(sweepMargins({ from: 0, to: 0.3, step: 0.1 })).toStrictEqual([0, 0.1, 0.2, 0.3]);
  });

  it('margins are rounded, so 0.1 + 0.2 is 0.3', () => {
    expect(sweepMargins({ from: 0.1, to: 0.3, step: 0.2 })).toStrictEqual([0.1, 0.3]);
  });

  it('a step that does not divide the range stops before passing to', () => {
    expect(sweepMargins({ from: 0, to: 0.5, step: 0.2 })).toStrictEqual([0, 0.2, 0.4]);
  });
});

describe('tune: the sweep', () => {
  it('a decision ties from the first margin above its gap: below it is decisive, above it a menu', () => {
    const t = tuneMargins([moveAB()], SWEEP);
    expect(t.curve).toStrictEqual([
      {
        margin: 0,
        verdicts: { move: 1, stay: 0, menu: 0, unmatched: 0 },
        nearTies: 0,
        nearTieRate: 0,
        menuRate: 0,
        moveRate: 1,
        stayRate: 0,
      },
      {
        margin: 0.25,
        verdicts: { move: 0, stay: 0, menu: 1, unmatched: 0 },
        nearTies: 1,
        nearTieRate: 1,
        menuRate: 1,
        moveRate: 0,
        stayRate: 0,
      },
      {
        margin: 0.5,
        verdicts: { move: 0, stay: 0, menu: 1, unmatched: 0 },
        nearTies: 1,
        nearTieRate: 1,
        menuRate: 1,
        moveRate: 0,
        stayRate: 0,
      },
    ]);
  });

  it('a gap exactly on a margin does not tie there (gap < margin), only at the next one', () => {
    // Equal scores: gap 0, so margin 0 keeps it decisive.
    const even = decision({ scores: [s('a', 0.4), s('b', 0.4)], policy: { nearTieMargin: 0.15 } });
    expect(even.runnerUp!.gap).toBe(0);
    const t = tuneMargins([even], SWEEP);
    expect(t.curve.map((p) => p.nearTies)).toStrictEqual([0, 1, 1]);
  });

  it('a decision with a gap past the last margin stays decisive across the sweep', () => {
    const t = tuneMargins([farMove()], SWEEP);
    expect(t.curve.map((p) => p.verdicts.move)).toStrictEqual([1, 1, 1]);
    expect(t.curve.map((p) => p.nearTies)).toStrictEqual([0, 0, 0]);
  });

  it('an unmatched decision never ties', () => {
    const d = decision({ scores: [s('a', -0.1), s('b', -0.2)], policy: { nearTieMargin: 0.15, floor: 0 } });
    expect(d.verdict).toBe('unmatched');
    const t = tuneMargins([d], SWEEP);
    expect(t.decisions).toBe(1);
    expect(t.curve.map((p) => p.nearTies)).toStrictEqual([0, 0, 0]);
    expect(t.curve.map((p) => p.verdicts.unmatched)).toStrictEqual([1, 1, 1]);
  });

  it('a decision with one candidate alive never ties', () => {
    const lone = decision({ scores: [s('a', 0.6), s('b', -0.2)], policy: { floor: 0 } });
    expect(lone.runnerUp).toBeUndefined();
    const t = tuneMargins([lone], { from: 0, to: 1, step: 0.5 });
    expect(t.curve.map((p) => p.nearTies)).toStrictEqual([0, 0, 0]);
    expect(t.curve.map((p) => p.verdicts.move)).toStrictEqual([1, 1, 1]);
  });

  it('a categorical scorer never ties, however close its scores', () => {
    const d = moveAB({ scorer: { categorical: true } });
    const t = tuneMargins([d], SWEEP);
    expect(t.curve.map((p) => p.nearTies)).toStrictEqual([0, 0, 0]);
    expect(t.curve.map((p) => p.verdicts.move)).toStrictEqual([1, 1, 1]);
  });

  it('a near-tie with the incumbent alive ties as a stay, not a menu', () => {
    const d = decision({
      scores: [s('a', 0.6), s('b', 0.2)],
      incumbent: 'b',
      policy: { nearTieMargin: 0.15, floor: 0 },
    });
    const t = tuneMargins([d], SWEEP);
    expect(t.curve.map((p) => [p.verdicts.move, p.verdicts.stay, p.verdicts.menu])).toStrictEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 1, 0],
    ]);
    expect(t.curve[1]).toMatchObject({ stayRate: 1, moveRate: 0, menuRate: 0, nearTieRate: 1 });
  });

  it('each decision is counted in its own verdict pair: two kinds of tie add up per margin', () => {
    const stayer = decision({
      scores: [s('a', 0.6), s('b', 0.2)],
      incumbent: 'b',
      policy: { nearTieMargin: 0.15, floor: 0 },
    });
    const t = tuneMargins([stayer, moveAB(), moveAB(), farMove()], SWEEP);
    expect(t.curve[1]!.verdicts).toStrictEqual({ move: 1, stay: 1, menu: 2, unmatched: 0 });
    expect(t.curve[1]).toMatchObject({ nearTies: 3, nearTieRate: 0.75, menuRate: 0.5, moveRate: 0.25 });
    expect(t.curve[0]!.verdicts).toStrictEqual({ move: 4, stay: 0, menu: 0, unmatched: 0 });
  });

  it('a record the replay cannot decide is counted as undecidable, in no point of the curve', () => {
    const cut = decision({ scores: [s('a', 0.9), s('b', 0.5)], maxCandidates: 1 });
    const t = tuneMargins([cut, moveAB()], SWEEP);
    expect(t.undecidable).toBe(1);
    expect(t.decisions).toBe(1);
    expect(t.curve[0]!.verdicts.move).toBe(1);
  });

  it('a cut record that only the tie makes undecidable (contract, incumbent omitted) is undecidable', () => {
    const d = decision({
      scores: [s('a', 0.9), s('b', 0.85), s('c', 0.8), s('inc', 0.1)],
      incumbent: 'inc',
      maxCandidates: 3,
    });
    expect(d.omitted).toBe(1);
    expect(tuneMargins([d], { ...SWEEP, policy: 'contract' })).toMatchObject({
      undecidable: 1,
      decisions: 0,
    });
    // 9.62 stays on any near-tie, so it needs no incumbent score.
    expect(tuneMargins([d], { ...SWEEP, policy: 'agentfootprint-9.62' })).toMatchObject({
      undecidable: 0,
      decisions: 1,
    });
  });

  it('a decision the filter excludes is counted as excluded; a turn record is neither', () => {
    const t = tuneMargins([moveAB({ router: 'r1' }), moveAB({ router: 'r2' }), turn({ traceId: tid('t') })], {
      ...SWEEP,
      where: { router: ['r1'] },
    });
    expect(t.excluded).toBe(1);
    expect(t.decisions).toBe(1);
    expect(t.selection).toBe('router=r1');
    expect(t.where).toStrictEqual({ router: ['r1'] });
  });

  it('the report names its sweep, its targets (only those given) and the caveat', () => {
    const t = tuneMargins([moveAB()], { ...SWEEP, targetMenuRate: 0.1 });
    expect(t.kind).toBe('tune');
    expect(t.caveat).toBe(TUNE_CAVEAT);
    expect(TUNE_CAVEAT).toBe(
      'tune sets rates, not accuracy: it shows how often each margin would have tied, offered a menu or moved — ' +
        'not which margin routes correctly.',
    );
    expect(t.sweep).toStrictEqual({ from: 0, to: 0.5, step: 0.25 });
    expect(t.targets).toStrictEqual({ menuRate: 0.1 });
    expect(tuneMargins([], { targetNearTieRate: 0.2 }).targets).toStrictEqual({ nearTieRate: 0.2 });
    expect(tuneMargins([], { targetUnmatchedRate: 0.3 }).targets).toStrictEqual({ unmatchedRate: 0.3 });
    expect(tuneMargins([]).targets).toStrictEqual({});
  });
});

describe('tune: the recorded side', () => {
  it('counts the recorded verdicts, near-ties and rates of the decisions swept', () => {
    const menu = moveAB({ policy: { nearTieMargin: 0.3, menuSize: 3 } });
    expect(menu.verdict).toBe('menu');
    const t = tuneMargins([menu, moveAB(), moveAB(), farMove()], SWEEP);
    expect(t.recorded).toStrictEqual({
      verdicts: { move: 3, stay: 0, menu: 1, unmatched: 0 },
      nearTies: 1,
      nearTieRate: 0.25,
      menuRate: 0.25,
      margins: [
        { margin: 0.15, decisions: 3 },
        { margin: 0.3, decisions: 1 },
      ],
    });
  });

  it('with nothing swept the recorded rates are 0, not NaN', () => {
    expect(tuneMargins([]).recorded).toStrictEqual({
      verdicts: { move: 0, stay: 0, menu: 0, unmatched: 0 },
      nearTies: 0,
      nearTieRate: 0,
      menuRate: 0,
      margins: [],
    });
  });

  it('recorded margins: most decisions first, the smaller margin first on a tie, at most five', () => {
    const at = (m: number) => farMove({ policy: { nearTieMargin: m, menuSize: 3 } });
    const recs = [at(0.3), at(0.2), at(0.2), at(0.1), at(0.4), at(0.05), at(0.15), at(0.15)];
    expect(tuneMargins(recs, SWEEP).recorded.margins).toStrictEqual([
      { margin: 0.15, decisions: 2 },
      { margin: 0.2, decisions: 2 },
      { margin: 0.05, decisions: 1 },
      { margin: 0.1, decisions: 1 },
      { margin: 0.3, decisions: 1 },
    ]);
  });
});

describe('tune: the recommendation', () => {
  // Ten decisions: four a/b moves (menus from 0.25 on), six far moves: menu rate 0, 0.4, 0.4.
  const ten = (): DecisionRecord[] => [
    ...Array.from({ length: 4 }, () => moveAB()),
    ...Array.from({ length: 6 }, () => farMove()),
  ];

  it('no target, no recommendation', () => {
    expect(tuneMargins(ten(), SWEEP)).not.toHaveProperty('recommendation');
  });

  it('the widest margin that meets the target, and why', () => {
    const t = tuneMargins(ten(), { from: 0, to: 0.5, step: 0.1, targetMenuRate: 0.1 });
    expect(t.recommendation).toStrictEqual({
      margin: 0.1,
      meets: true,
      reason: 'the widest margin that meets menu rate <= 0.1; one step wider would not',
      point: t.curve[1],
    });
  });

  it('a target met exactly (rate equal to it) is met', () => {
    const t = tuneMargins(ten(), { ...SWEEP, targetMenuRate: 0.4 });
    expect(t.recommendation).toMatchObject({ margin: 0.5, meets: true });
  });

  it('when the widest swept margin meets the target, it says a wider sweep may allow more', () => {
    const t = tuneMargins(ten(), { ...SWEEP, targetMenuRate: 0.5 });
    expect(t.recommendation).toStrictEqual({
      margin: 0.5,
      meets: true,
      reason: 'the widest swept margin meets menu rate <= 0.5; a wider sweep (--to) may allow more',
      point: t.curve[2],
    });
  });

  it('when no margin meets the target, the narrowest is named and does not meet it', () => {
    const t = tuneMargins(ten(), { from: 0.25, to: 0.5, step: 0.25, targetMenuRate: 0.1 });
    expect(t.recommendation).toStrictEqual({
      margin: 0.25,
      meets: false,
      reason: 'no swept margin meets menu rate <= 0.1; the narrowest, 0.25, comes closest',
      point: t.curve[0],
    });
  });

  it('a near-tie target met exactly (rate equal to it) is met', () => {
    const t = tuneMargins(ten(), { ...SWEEP, targetNearTieRate: 0.4 });
    expect(t.recommendation).toMatchObject({ margin: 0.5, meets: true });
  });

  it('two targets must both hold, and the reason names both', () => {
    // A stay-tie counts as a near-tie but not as a menu.
    const stayer = () =>
      decision({
        scores: [s('a', 0.6), s('b', 0.2)],
        incumbent: 'b',
        policy: { nearTieMargin: 0.15, floor: 0 },
      });
    const recs = [stayer(), stayer(), stayer(), stayer(), ...Array.from({ length: 6 }, () => farMove())];
    const menuOnly = tuneMargins(recs, { ...SWEEP, targetMenuRate: 0 });
    expect(menuOnly.recommendation).toMatchObject({ margin: 0.5, meets: true });
    const both = tuneMargins(recs, { ...SWEEP, targetMenuRate: 0, targetNearTieRate: 0.1 });
    expect(both.recommendation).toMatchObject({
      margin: 0,
      meets: true,
      reason:
        'the widest margin that meets menu rate <= 0 and near-tie rate <= 0.1; one step wider would not',
    });
    const nearTieOnly = tuneMargins(recs, { ...SWEEP, targetNearTieRate: 0.1 });
    expect(nearTieOnly.recommendation!.reason).toBe(
      'the widest margin that meets near-tie rate <= 0.1; one step wider would not',
    );
  });
});

describe('tune: misroute marks', () => {
  const marked = (extra: Partial<DecisionSpec> = {}) =>
    moveAB({ override: { misroutes: [{ expected: 'b' }] }, ...extra });

  it('a decision marked on its own span is a known misroute, caught from the margin where it becomes a menu', () => {
    const t = tuneMargins([marked(), farMove()], { ...SWEEP, targetMenuRate: 0.5 });
    expect(t.misroutes).toStrictEqual({
      known: 1,
      unjoined: 0,
      caughtRecorded: 0,
      shareRecorded: 0,
      caughtRecommended: 1,
      shareRecommended: 1,
    });
    expect(t.curve.map((p) => p.misroutesCaught)).toStrictEqual([0, 1, 1]);
  });

  it('a marked decision that ties as a stay is not caught: only a menu asks the user', () => {
    const d = decision({
      scores: [s('a', 0.6), s('b', 0.2)],
      incumbent: 'b',
      policy: { nearTieMargin: 0.15, floor: 0 },
      override: { misroutes: [{ expected: 'b' }] },
    });
    const t = tuneMargins([d], SWEEP);
    expect(t.curve.map((p) => p.misroutesCaught)).toStrictEqual([0, 0, 0]);
  });

  it('a recorded menu that was marked counts as caught when recorded', () => {
    const menu = marked({ policy: { nearTieMargin: 0.3, menuSize: 3 } });
    expect(menu.verdict).toBe('menu');
    const t = tuneMargins([menu, marked()], SWEEP);
    expect(t.misroutes).toStrictEqual({ known: 2, unjoined: 0, caughtRecorded: 1, shareRecorded: 0.5 });
  });

  it('a mark caught exactly from the recommended margin counts as caught there', () => {
    // marked: a menu from 0.25; mid (gap tanh(0.425) ≈ 0.40): a menu from 0.5. Menu rates 0, 0.1, 0.2.
    const mid = decision({
      scores: [s('a', 0.9), s('b', 0.05)],
      policy: { nearTieMargin: 0.15, menuSize: 3 },
    });
    const recs = [marked(), mid, ...Array.from({ length: 8 }, () => farMove())];
    const t = tuneMargins(recs, { ...SWEEP, targetMenuRate: 0.1 });
    expect(t.recommendation!.margin).toBe(0.25);
    expect(t.misroutes).toMatchObject({ known: 1, caughtRecommended: 1, shareRecommended: 1 });
  });

  it('a marked decision that ties as a stay under the recommended margin is not caught', () => {
    const d = decision({
      scores: [s('a', 0.6), s('b', 0.2)],
      incumbent: 'b',
      policy: { nearTieMargin: 0.15, floor: 0 },
      override: { misroutes: [{ expected: 'b' }] },
    });
    const t = tuneMargins([d], { ...SWEEP, targetNearTieRate: 1 });
    expect(t.recommendation!.margin).toBe(0.5);
    expect(t.misroutes).toMatchObject({ known: 1, caughtRecommended: 0, shareRecommended: 0 });
  });

  it('without marks the report has no misroute key at all', () => {
    expect(tuneMargins([moveAB()], SWEEP)).not.toHaveProperty('misroutes');
  });

  it('a turn record on a marked trace is not a mark', () => {
    const traceId = tid('turn');
    const t = tuneMargins([moveAB({ traceId }), turn({ traceId })], SWEEP);
    expect(t).not.toHaveProperty('misroutes');
  });

  it('without a recommendation the misroute block has no recommended counts', () => {
    const t = tuneMargins([marked()], SWEEP);
    expect(t.misroutes).not.toHaveProperty('caughtRecommended');
    expect(t.misroutes).not.toHaveProperty('shareRecommended');
  });

  it('the recommended counts are taken at the recommended margin, not at the widest', () => {
    // Caught from 0.25 on; a target of 0 menus recommends margin 0, where it is not caught yet.
    const t = tuneMargins([marked()], { ...SWEEP, targetMenuRate: 0 });
    expect(t.recommendation!.margin).toBe(0);
    expect(t.misroutes).toMatchObject({ caughtRecommended: 0, shareRecommended: 0 });
  });

  it('a feedback mark naming its parent span joins that decision only', () => {
    const traceId = tid('named');
    const first = moveAB({ traceId });
    const second = moveAB({ traceId });
    const t = tuneMargins([first, second, misroute({ traceId, parentSpanId: second.spanId })], SWEEP);
    expect(t.misroutes).toMatchObject({ known: 1, unjoined: 0 });
  });

  it('a feedback mark naming no span of the trace joins every decision of the trace', () => {
    const traceId = tid('whole');
    const t = tuneMargins([moveAB({ traceId }), moveAB({ traceId }), misroute({ traceId })], SWEEP);
    expect(t.misroutes).toMatchObject({ known: 2, unjoined: 0 });
  });

  it('a decision marked on its span and by feedback counts once', () => {
    const traceId = tid('twice');
    const d = marked({ traceId });
    const t = tuneMargins([d, misroute({ traceId, parentSpanId: d.spanId })], SWEEP);
    expect(t.misroutes).toMatchObject({ known: 1 });
  });

  it('a feedback mark before its decision joins it when the decision comes', () => {
    const traceId = tid('early');
    const d = moveAB({ traceId });
    const t = tuneMargins([misroute({ traceId, parentSpanId: d.spanId }), d], SWEEP);
    expect(t.misroutes).toMatchObject({ known: 1, unjoined: 0 });
  });

  it('a mark whose trace holds no decision is unjoined, one per parent span named', () => {
    const traceId = tid('lost');
    const t = tuneMargins(
      [
        moveAB(),
        misroute({ traceId, parentSpanId: 'a'.repeat(16) }),
        misroute({ traceId, parentSpanId: 'b'.repeat(16) }),
        misroute({ traceId, parentSpanId: 'b'.repeat(16) }),
      ],
      SWEEP,
    );
    expect(t.misroutes).toStrictEqual({ known: 0, unjoined: 2, caughtRecorded: 0, shareRecorded: 0 });
    // Marks exist, so the curve says how many it caught: none.
    expect(t.curve.map((p) => p.misroutesCaught)).toStrictEqual([0, 0, 0]);
  });

  it('a mark for a decision older than the join window is unjoined', () => {
    const traceId = tid('old');
    const recs: TraceRecord[] = [moveAB({ traceId }), moveAB(), moveAB(), misroute({ traceId })];
    expect(tuneMargins(recs, { ...SWEEP, joinWindow: 2 }).misroutes).toMatchObject({ known: 0, unjoined: 1 });
    expect(tuneMargins(recs, { ...SWEEP, joinWindow: 3 }).misroutes).toMatchObject({ known: 1, unjoined: 0 });
  });

  it('forgetting the oldest decision keeps the ones after it', () => {
    const traceId = tid('second');
    const recs: TraceRecord[] = [moveAB(), moveAB({ traceId }), moveAB(), misroute({ traceId })];
    expect(tuneMargins(recs, { ...SWEEP, joinWindow: 2 }).misroutes).toMatchObject({ known: 1, unjoined: 0 });
  });

  it('a mark that came first joins its decision when the decision comes, before the window forgets it', () => {
    const traceId = tid('first');
    const d = moveAB({ traceId });
    const recs: TraceRecord[] = [misroute({ traceId }), d, moveAB(), moveAB(), moveAB()];
    expect(tuneMargins(recs, { ...SWEEP, joinWindow: 1 }).misroutes).toMatchObject({ known: 1, unjoined: 0 });
  });

  it('a join window of 0 keeps no decision for feedback, and does not fail; below 0 is refused', () => {
    const traceId = tid('none');
    const t = tuneMargins([moveAB({ traceId }), misroute({ traceId })], { ...SWEEP, joinWindow: 0 });
    expect(t.misroutes).toMatchObject({ known: 0, unjoined: 1 });
    expect(() => tuneMargins([moveAB({ traceId })], { ...SWEEP, joinWindow: -1 })).toThrow(RangeError);
  });

  it('marks of at most 100000 traces wait for their decisions; marks of further traces are dropped', () => {
    const marks = Array.from({ length: 100_001 }, (_, i) => misroute({ traceId: tid(`m${i}`) }));
    const t = tuneMargins(marks, SWEEP);
    expect(t.misroutes).toMatchObject({ known: 0, unjoined: 100_000 });
  });

  it('the join window counts decisions, not traces: a trace of two decisions fills two places', () => {
    const traceId = tid('pair');
    const recs: TraceRecord[] = [moveAB({ traceId }), moveAB({ traceId }), moveAB(), misroute({ traceId })];
    expect(tuneMargins(recs, { ...SWEEP, joinWindow: 2 }).misroutes).toMatchObject({ known: 0 });
    expect(tuneMargins(recs, { ...SWEEP, joinWindow: 3 }).misroutes).toMatchObject({ known: 2 });
  });
});

describe('tune: the floor sweep', () => {
  /** A floorless decision whose top score is `top` (runner-up 1 below). */
  const topAt = (top: number, extra: Partial<DecisionSpec> = {}): DecisionRecord =>
    decision({ scores: [s('a', top), s('b', top - 1)], policy: { nearTieMargin: 0.15 }, ...extra });

  it('each share picks the recorded top score that share of decisions lies at or below', () => {
    const recs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0].map((v) => topAt(v));
    const f = tuneMargins(recs, { ...SWEEP, floorShares: [0.1, 0.25, 0.5, 1] }).floors[0]!;
    expect(f.rows.map((r) => [r.share, r.floor])).toStrictEqual([
      [0.1, 0.1],
      [0.25, 0.3],
      [0.5, 0.5],
      [1, 1],
    ]);
    expect(f.rows.map((r) => r.unmatchedRate)).toStrictEqual([0.1, 0.3, 0.5, 1]);
  });

  it('a share of 0 takes the weakest top score, and a floor already swept is not repeated', () => {
    const recs = [0.1, 0.2, 0.3, 0.4].map((v) => topAt(v));
    const f = tuneMargins(recs, { ...SWEEP, floorShares: [0, 0.1, 0.25, 2] }).floors[0]!;
    expect(f.rows.map((r) => [r.share, r.floor])).toStrictEqual([
      [0, 0.1],
      [2, 0.4],
    ]);
  });

  it('a row gives the near-tie and menu rates the floor leaves as well', () => {
    // Tops 0.2 and 0.6 with runners-up 0.19 and 0.59: a floor at 0.2 kills the first, the second is a menu.
    const close = (top: number) =>
      decision({ scores: [s('a', top), s('b', top - 0.01)], policy: { nearTieMargin: 0.15 } });
    const f = tuneMargins([close(0.2), close(0.6)], { ...SWEEP, floorShares: [0.5] }).floors[0]!;
    expect(f.rows).toStrictEqual([
      { share: 0.5, floor: 0.2, unmatchedRate: 0.5, nearTieRate: 0.5, menuRate: 0.5 },
    ]);
  });

  it('a non-finite top score is passed over for the first finite one', () => {
    const d = decision({
      scores: [s('a', Infinity), s('b', 0.3), s('c', 0.1)],
      policy: { nearTieMargin: 0.15 },
    });
    const f = tuneMargins([d, topAt(0.6)], { ...SWEEP, floorShares: [0.5] }).floors[0]!;
    expect(f.rows.map((r) => r.floor)).toStrictEqual([0.3]);
  });

  it('a scorer with no finite score has no rows', () => {
    const d = decision({ scores: [s('a', NaN), s('b', -Infinity)], policy: { nearTieMargin: 0.15 } });
    const f = tuneMargins([d], SWEEP).floors[0]!;
    expect(f).toMatchObject({ decisions: 1, sampled: 1, rows: [] });
  });

  it('only floorless scorers are swept, one entry per router/scorer, busiest first', () => {
    const recs = [
      topAt(0.5, { scorerName: 'quiet' }),
      topAt(0.5, { scorerName: 'busy' }),
      topAt(0.6, { scorerName: 'busy' }),
      topAt(0.5, { scorerName: 'floored', policy: { nearTieMargin: 0.15, floor: 0 } }),
      topAt(0.5, { override: { router: undefined, scorer: undefined } }),
      topAt(0.5, { override: { router: undefined, scorer: undefined } }),
      topAt(0.5, { override: { router: undefined, scorer: undefined } }),
    ];
    const floors = tuneMargins(recs, SWEEP).floors;
    expect(floors.map((f) => [f.router, f.scorer, f.decisions])).toStrictEqual([
      [null, null, 3],
      ['desk', 'busy', 2],
      ['desk', 'quiet', 1],
    ]);
  });

  it('the same scorer name under two routers is two floor sweeps', () => {
    const floors = tuneMargins([topAt(0.5, { router: 'r1' }), topAt(0.5, { router: 'r2' })], SWEEP).floors;
    expect(floors.map((f) => [f.router, f.scorer])).toStrictEqual([
      ['r1', 'embedding'],
      ['r2', 'embedding'],
    ]);
  });

  it('at most 50 floorless scorers are swept; later ones are left out', () => {
    const recs = Array.from({ length: 51 }, (_, i) => topAt(0.5, { scorerName: `s${i}` }));
    const floors = tuneMargins(recs, SWEEP).floors;
    expect(floors).toHaveLength(50);
    expect(floors.some((f) => f.scorer === 's50')).toBe(false);
    expect(floors.some((f) => f.scorer === 's0')).toBe(true);
  });

  it('a scorer with more decisions than floorSample is sampled: all counted, floorSample kept', () => {
    const recs = Array.from({ length: 30 }, (_, i) => topAt(i / 30));
    const f = tuneMargins(recs, { ...SWEEP, floorSample: 10, floorShares: [1] }).floors[0]!;
    expect(f.decisions).toBe(30);
    expect(f.sampled).toBe(10);
    // The sample is a subset of what was seen; rates are over the sample.
    expect(f.rows[0]!.unmatchedRate).toBe(1);
  });

  it('the sample keeps the first floorSample decisions, then replaces some of them, never adds', () => {
    const recs = Array.from({ length: 400 }, (_, i) => topAt(i < 10 ? 5 : -5));
    const f = tuneMargins(recs, { ...SWEEP, floorSample: 10, floorShares: [0, 1] }).floors[0]!;
    expect(f.sampled).toBe(10);
    // 390 of 400 later decisions have top -5: a uniform sample of ten keeps some of them.
    expect(f.rows[0]!.floor).toBe(-5);
  });

  it('the sample is spread over the whole input: most of it comes from the many later decisions', () => {
    const recs = Array.from({ length: 400 }, (_, i) => topAt(i < 10 ? 5 : -5));
    const f = tuneMargins(recs, { ...SWEEP, floorSample: 10, floorShares: [0.5] }).floors[0]!;
    // At least half of the ten kept have top -5 (a uniform sample keeps about 9.75 of them).
    expect(f.rows[0]!.floor).toBe(-5);
  });

  it('a sample never holds more than floorSample decisions, however long the input', () => {
    const recs = Array.from({ length: 3000 }, (_, i) => topAt((i % 100) / 100));
    const f = tuneMargins(recs, { ...SWEEP, floorSample: 10, floorShares: [1] }).floors[0]!;
    expect(f).toMatchObject({ decisions: 3000, sampled: 10 });
  });

  it('a sample as large as the input keeps every decision', () => {
    const recs = [0.1, 0.2, 0.3].map((v) => topAt(v));
    const f = tuneMargins(recs, { ...SWEEP, floorSample: 3, floorShares: [0.01] }).floors[0]!;
    expect(f).toMatchObject({ decisions: 3, sampled: 3 });
    expect(f.rows[0]!.floor).toBe(0.1);
  });

  it('recommends the highest floor that keeps the unmatched rate at or below the target', () => {
    const recs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0].map((v) => topAt(v));
    const f = tuneMargins(recs, { ...SWEEP, targetUnmatchedRate: 0.3 }).floors[0]!;
    expect(f.recommended).toStrictEqual({ floor: 0.3, unmatchedRate: 0.3, nearTieRate: 0, menuRate: 0 });
  });

  it('tied top scores push the recommended floor below them all', () => {
    // Tops 0.1, 0.2, 0.2, 0.2: a floor at 0.2 makes 4/4 unmatched; target 0.5 → 0.1 (1/4).
    const recs = [0.1, 0.2, 0.2, 0.2].map((v) => topAt(v));
    const f = tuneMargins(recs, { ...SWEEP, targetUnmatchedRate: 0.5 }).floors[0]!;
    expect(f.recommended).toMatchObject({ floor: 0.1, unmatchedRate: 0.25 });
  });

  it('no floor is recommended when even the weakest top score makes too many unmatched', () => {
    const recs = [0.1, 0.1, 0.3].map((v) => topAt(v));
    const f = tuneMargins(recs, { ...SWEEP, targetUnmatchedRate: 0.5 }).floors[0]!;
    expect(f).not.toHaveProperty('recommended');
    const none = tuneMargins(recs, { ...SWEEP, targetUnmatchedRate: 0.2 }).floors[0]!;
    expect(none).not.toHaveProperty('recommended');
  });

  it('a target of 1 recommends the strongest top score', () => {
    const recs = [0.1, 0.2, 0.3].map((v) => topAt(v));
    const f = tuneMargins(recs, { ...SWEEP, targetUnmatchedRate: 1 }).floors[0]!;
    expect(f.recommended).toMatchObject({ floor: 0.3, unmatchedRate: 1 });
  });
});

describe('tune: the behaviour', () => {
  it('a floor row leaves out a decision the settled behaviour cannot decide under that floor', () => {
    // d: a near-tie kept by an incumbent that the record limit cut off. 9.62 decides it (it stays on any
    // near-tie), the contract cannot (it asks whether the incumbent is alive). It is swept while its service
    // looks like 9.62 (one 9.62 decision before it); two contract decisions after it settle the service as the
    // contract before the floor sweep.
    const d = decision({
      scores: [s('a', 0.9), s('b', 0.85), s('c', 0.8), s('inc', 0.1)],
      incumbent: 'inc',
      maxCandidates: 3,
      policy: { nearTieMargin: 0.5 },
      service: 'S',
    });
    const weak = decision({ scores: [s('x', -5), s('y', -6)], policy: { nearTieMargin: 0.5 }, service: 'S' });
    const contract = () => clauseCase('contract', { service: 'S' });
    const recs = [clauseCase('agentfootprint-9.62', { service: 'S' }), d, weak, contract(), contract()];
    const t = tuneMargins(recs, { ...SWEEP, floorShares: [0.5] });
    expect(t).toMatchObject({ decisions: 5, undecidable: 0 });
    expect(t.policy.services).toMatchObject([{ service: 'S', semantics: 'contract' }]);
    expect(t.floors[0]).toMatchObject({ decisions: 2, sampled: 2 });
    // Floor -5 (the weaker top): weak is unmatched; d cannot be decided, so the rates are over weak alone.
    expect(t.floors[0]!.rows).toStrictEqual([
      { share: 0.5, floor: -5, unmatchedRate: 1, nearTieRate: 0, menuRate: 0 },
    ]);
  });

  it('under auto each decision is swept by the behaviour its service shows, and services are listed', () => {
    const t = tuneMargins([clauseCase('agentfootprint-9.62')], SWEEP);
    // 9.62 stays on a near-tie: the curve shows a stay, never a menu.
    expect(t.curve.map((p) => p.verdicts.menu)).toStrictEqual([0, 0, 0]);
    expect(t.policy.choice).toBe('auto');
    expect(t.policy.services).toMatchObject([{ service: null, semantics: 'agentfootprint-9.62' }]);
  });

  it('a forced behaviour judges every decision and lists no services', () => {
    const t = tuneMargins([clauseCase('agentfootprint-9.62')], { ...SWEEP, policy: 'contract' });
    expect(t.curve.map((p) => p.verdicts.menu)).toStrictEqual([0, 1, 1]);
    expect(t.policy).toStrictEqual({ choice: 'contract', services: [] });
  });
});

describe('tune: streaming', () => {
  it('add after finish throws, and says so', () => {
    const a = createTuneAnalysis();
    a.finish();
    expect(() => a.add(moveAB())).toThrow('tune: add() after finish()');
  });

  it('finish twice throws, and says so', () => {
    const a = createTuneAnalysis();
    a.finish();
    expect(() => a.finish()).toThrow('tune: finish() called twice');
  });

  it('a config that cannot work is refused when the analysis is created', () => {
    expect(() => createTuneAnalysis({ step: 0 })).toThrow(RangeError);
  });
});
