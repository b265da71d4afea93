// replay.rules — one rule of the replay report per test: the counters, the per-scorer table and its cap, the
// flipped list and its details, the audit wiring and the streaming contract. Records come from the real
// policy (decisionBuilder); a field is overridden only where the rule is about such a record.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REPLAY_CONFIG,
  createFlipMatrix,
  createReplayAnalysis,
  replayDecisions,
} from '../../src/analyze/replay.js';
import { VERDICT_KINDS } from '../../src/analyze/verdictCounts.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { clauseCase, decision, plainMove, s, turn, type DecisionSpec } from './decisionBuilder.js';

/** A decisive move from a to b (no near-tie at margin 0.15); a margin of 0.5 makes it a menu of a and b. */
const moveAB = (extra: Partial<DecisionSpec> = {}) =>
  decision({ scores: [s('a', 0.6), s('b', 0.2)], policy: { nearTieMargin: 0.15, menuSize: 3 }, ...extra });

/** A menu of a, b and c (three near-tied candidates) at margin 0.15. */
const menuABC = (extra: Partial<DecisionSpec> = {}) =>
  decision({
    scores: [s('a', 0.5), s('b', 0.49), s('c', 0.48), s('d', 0)],
    policy: { nearTieMargin: 0.15, menuSize: 3 },
    ...extra,
  });

/** A record whose candidates were cut by the record limit, so the replay cannot know the runner-up. */
const undecidableOne = (): DecisionRecord =>
  decision({ scores: [s('a', 0.9), s('b', 0.5)], maxCandidates: 1 });

describe('replay: defaults', () => {
  it('the defaults are: recorded thresholds, everything, no list, 20 examples, 1000 scorers, auto', () => {
    expect(DEFAULT_REPLAY_CONFIG).toStrictEqual({
      thresholds: {},
      where: {},
      listLimit: 0,
      maxExamples: 20,
      maxScorers: 1000,
      policy: 'auto',
    });
    expect(Object.isFrozen(DEFAULT_REPLAY_CONFIG)).toBe(true);
  });

  it('with no config, nothing changes, nothing is listed and the selection is everything', () => {
    const r = replayDecisions([moveAB(), menuABC()]);
    expect(r.kind).toBe('replay');
    expect(r.thresholds).toStrictEqual({});
    expect(r.where).toStrictEqual({});
    expect(r.selection).toBe('everything');
    expect(r.list).toStrictEqual([]);
    expect(r.flipped).toBe(0);
    expect(r.policy.choice).toBe('auto');
  });

  it('by default up to 20 undecidable examples are kept, while all are counted', () => {
    const r = replayDecisions(Array.from({ length: 21 }, undecidableOne));
    expect(r.undecidable).toBe(21);
    expect(r.undecidableExamples).toHaveLength(20);
  });

  it('by default up to 1000 scorers get a row of their own; the 1001st is pooled', () => {
    const recs = Array.from({ length: 1001 }, (_, i) => moveAB({ scorerName: `s${i}` }));
    const r = replayDecisions(recs);
    expect(r.scorers).toHaveLength(1001);
    expect(r.scorers.at(-1)).toMatchObject({ router: null, scorer: '(other)', decisions: 1 });
    expect(r.scorers.filter((row) => row.scorer === '(other)')).toHaveLength(1);
  });
});

describe('replay: the two sides', () => {
  it('each side counts decisions, verdicts, near-ties and their rates', () => {
    const recs = [moveAB(), moveAB(), menuABC(), plainMove()];
    const r = replayDecisions(recs, { thresholds: { nearTieMargin: 0.5 } });
    expect(r.before).toStrictEqual({
      decisions: 4,
      verdicts: { move: 3, stay: 0, menu: 1, unmatched: 0 },
      nearTies: 1,
      nearTieRate: 0.25,
      menuRate: 0.25,
    });
    // At 0.5 the two a/b moves become menus; the menu stays one; plainMove's gap is tanh(2) > 0.5.
    expect(r.after).toStrictEqual({
      decisions: 4,
      verdicts: { move: 1, stay: 0, menu: 3, unmatched: 0 },
      nearTies: 3,
      nearTieRate: 0.75,
      menuRate: 0.75,
    });
  });

  it('with no decision replayed, both rates are 0, not NaN', () => {
    const r = replayDecisions([undecidableOne()]);
    expect(r.before).toStrictEqual({
      decisions: 0,
      verdicts: { move: 0, stay: 0, menu: 0, unmatched: 0 },
      nearTies: 0,
      nearTieRate: 0,
      menuRate: 0,
    });
    expect(r.after).toStrictEqual(r.before);
  });
});

describe('replay: the flip matrix', () => {
  it('a fresh flip matrix has every cell, all zero, and no row shares another row', () => {
    const m = createFlipMatrix();
    expect(Object.keys(m)).toStrictEqual([...VERDICT_KINDS]);
    for (const from of VERDICT_KINDS) {
      expect(m[from]).toStrictEqual({ move: 0, stay: 0, menu: 0, unmatched: 0 });
    }
    m.move.menu++;
    expect(m.stay.menu).toBe(0);
    expect(createFlipMatrix().move.menu).toBe(0);
  });

  it('flipped counts the off-diagonal cells only, each of them', () => {
    const recs = [
      moveAB(), // move → menu at 0.5
      moveAB(), // move → menu
      menuABC(), // menu → menu: the diagonal
      decision({ scores: [s('a', -0.1)], policy: { floor: 0 } }), // unmatched → move with no floor
    ];
    const r = replayDecisions(recs, { thresholds: { nearTieMargin: 0.5, floor: null } });
    expect(r.flips.move.menu).toBe(2);
    expect(r.flips.menu.menu).toBe(1);
    expect(r.flips.unmatched.move).toBe(1);
    expect(r.flipped).toBe(3);
  });
});

describe('replay: what is counted apart', () => {
  it('a decision the filter excludes is counted as excluded and in neither side', () => {
    const r = replayDecisions([moveAB({ router: 'r1' }), moveAB({ router: 'r2' })], {
      where: { router: ['r1'] },
    });
    expect(r.excluded).toBe(1);
    expect(r.before.decisions).toBe(1);
    expect(r.consistency.audited).toBe(1);
  });

  it('records that are not decisions are neither replayed nor excluded', () => {
    const a = createReplayAnalysis({ where: { router: ['nowhere'] } });
    a.add(turn({ traceId: 'f'.repeat(32) }));
    const r = a.finish();
    expect(r.excluded).toBe(0);
    expect(r.before.decisions).toBe(0);
    expect(r.consistency.audited).toBe(0);
  });

  it('undecidable examples are capped at maxExamples, with where and why', () => {
    const recs = [undecidableOne(), undecidableOne(), undecidableOne()];
    const r = replayDecisions(recs, { maxExamples: 2 });
    expect(r.undecidable).toBe(3);
    expect(r.undecidableExamples).toHaveLength(2);
    expect(r.undecidableExamples[0]).toStrictEqual({
      at: {
        traceId: recs[0]!.traceId,
        spanId: recs[0]!.spanId,
        router: 'desk',
        scorer: 'embedding',
        file: 'mem',
        line: recs[0]!.source.line,
      },
      reason: expect.stringMatching(/runner-up is unknown/),
    });
  });

  it('a decision replayed from a cut record whose last candidate is dead is partial, and still counted', () => {
    const cut = decision({
      scores: [s('a', 0.9), s('b', 0.5), s('c', -0.5), s('d', -0.6)],
      policy: { floor: 0 },
      maxCandidates: 3,
    });
    expect(cut.omitted).toBe(1);
    const r = replayDecisions([cut, moveAB()]);
    expect(r.partial).toBe(1);
    expect(r.undecidable).toBe(0);
    expect(r.before.decisions).toBe(2);
  });

  it('a complete record is not partial', () => {
    expect(replayDecisions([moveAB(), menuABC()]).partial).toBe(0);
  });
});

describe('replay: move, menu and changed menus', () => {
  it('a move that becomes a menu counts as moveToMenu, not menuToMove', () => {
    const r = replayDecisions([moveAB()], { thresholds: { nearTieMargin: 0.5 } });
    expect(r.moveToMenu).toBe(1);
    expect(r.menuToMove).toBe(0);
    expect(r.menuChanged).toBe(0);
  });

  it('a menu that becomes a move counts as menuToMove, not moveToMenu', () => {
    const r = replayDecisions([moveAB({ policy: { nearTieMargin: 0.5, menuSize: 3 } })], {
      thresholds: { nearTieMargin: 0.15 },
    });
    expect(r.flips.menu.move).toBe(1);
    expect(r.menuToMove).toBe(1);
    expect(r.moveToMenu).toBe(0);
    expect(r.menuChanged).toBe(0);
  });

  it('a stay that becomes a menu is not a move turned menu', () => {
    const r = replayDecisions([clauseCase('agentfootprint-9.62')], { policy: 'contract' });
    expect(r.flips.stay.menu).toBe(1);
    expect(r.moveToMenu).toBe(0);
  });

  it('a menu that becomes a stay is not a menu turned move, nor a changed menu', () => {
    const r = replayDecisions([clauseCase('contract')], { policy: 'agentfootprint-9.62' });
    expect(r.flips.menu.stay).toBe(1);
    expect(r.menuToMove).toBe(0);
    expect(r.menuChanged).toBe(0);
  });

  it('a menu that stays a menu with a shorter list counts as menuChanged', () => {
    const r = replayDecisions([menuABC()], { thresholds: { menuSize: 2 } });
    expect(r.flips.menu.menu).toBe(1);
    expect(r.menuChanged).toBe(1);
    expect(r.flipped).toBe(0);
    expect(r.moveToMenu).toBe(0);
    expect(r.menuToMove).toBe(0);
  });

  it('a menu that stays a menu with a longer list that starts with the old one counts as menuChanged', () => {
    const d = menuABC({ policy: { nearTieMargin: 0.15, menuSize: 2 } });
    expect(d.offered).toStrictEqual(['a', 'b']);
    const r = replayDecisions([d], { thresholds: { menuSize: 3 } });
    expect(r.menuChanged).toBe(1);
  });

  it('a menu that stays the same menu is not changed', () => {
    const r = replayDecisions([menuABC()], { thresholds: { nearTieMargin: 0.2 } });
    expect(r.flips.menu.menu).toBe(1);
    expect(r.menuChanged).toBe(0);
  });

  it('a menu with the same entries in another order counts as changed, even if some places agree', () => {
    const d = menuABC();
    expect(d.offered).toStrictEqual(['a', 'b', 'c']);
    const r = replayDecisions([{ ...d, offered: ['a', 'c', 'b'] }]);
    expect(r.menuChanged).toBe(1);
  });

  it('a menu with the same length but other entries counts as changed', () => {
    // Tampered: the record says b, c; the policy offers a, b.
    const d = decision({
      scores: [s('a', 0.5), s('b', 0.49), s('c', 0)],
      policy: { nearTieMargin: 0.15, menuSize: 3 },
    });
    expect(d.offered).toStrictEqual(['a', 'b']);
    const r = replayDecisions([{ ...d, offered: ['b', 'a'] }]);
    expect(r.menuChanged).toBe(1);
  });

  it('a recorded menu with no list and a replayed one with a list are not the same menu', () => {
    const d = menuABC();
    const { offered: _offered, ...bare } = d;
    const r = replayDecisions([bare as DecisionRecord]);
    expect(r.flips.menu.menu).toBe(1);
    expect(r.menuChanged).toBe(1);
  });

  it('a move that stays a move, or a stay that stays, is neither a flip nor a changed menu', () => {
    const stay = decision({
      scores: [s('a', 0.5), s('b', 0.45)],
      incumbent: 'b',
      policy: { nearTieMargin: 0.15, floor: 0 },
    });
    expect(stay.verdict).toBe('stay');
    const r = replayDecisions([stay, moveAB()], { thresholds: { nearTieMargin: 0.1 } });
    expect(r).toMatchObject({ flipped: 0, moveToMenu: 0, menuToMove: 0, menuChanged: 0 });
  });
});

describe('replay: the per-scorer table', () => {
  it('each router/scorer pair has one row with its decisions, floors and unmatched before and after', () => {
    const recs = [
      decision({ scores: [s('a', 0.1), s('b', 0.05)], router: 'desk', scorerName: 'emb' }),
      decision({ scores: [s('a', 0.9), s('b', 0.05)], router: 'desk', scorerName: 'emb' }),
      decision({ scores: [s('a', -0.2)], policy: { floor: 0 }, router: 'desk', scorerName: 'kw' }),
    ];
    const r = replayDecisions(recs, { thresholds: { floor: 0.2 } });
    expect(r.scorers).toStrictEqual([
      {
        router: 'desk',
        scorer: 'emb',
        decisions: 2,
        flooredBefore: 0,
        flooredAfter: 2,
        unmatchedBefore: 0,
        unmatchedAfter: 1,
      },
      {
        router: 'desk',
        scorer: 'kw',
        decisions: 1,
        flooredBefore: 1,
        flooredAfter: 1,
        unmatchedBefore: 1,
        unmatchedAfter: 1,
      },
    ]);
  });

  it('a record with no router or scorer has a row keyed null, null', () => {
    const d = moveAB({ override: { router: undefined, scorer: undefined } });
    const r = replayDecisions([d]);
    expect(r.scorers).toStrictEqual([
      {
        router: null,
        scorer: null,
        decisions: 1,
        flooredBefore: 0,
        flooredAfter: 0,
        unmatchedBefore: 0,
        unmatchedAfter: 0,
      },
    ]);
  });

  it('a floor counts as recorded when it was declared, even with no effective floor kept', () => {
    const d = moveAB({ override: { floorDeclared: true } });
    expect(d.effectiveFloor).toBeUndefined();
    expect(replayDecisions([d]).scorers[0]!.flooredBefore).toBe(1);
  });

  it('a floor counts as recorded when an effective floor is kept, even if not flagged declared', () => {
    const d = moveAB({ override: { effectiveFloor: 0 } });
    expect(d.floorDeclared).toBe(false);
    expect(replayDecisions([d]).scorers[0]!.flooredBefore).toBe(1);
  });

  it('rows are ordered busiest first, then by router, then by scorer, a missing name last', () => {
    const recs = [
      moveAB({ router: 'b', scorerName: 'x' }),
      moveAB({ router: 'a', scorerName: 'y' }),
      moveAB({ router: 'a', scorerName: 'x' }),
      moveAB({ override: { router: undefined, scorer: 'a' } }),
      moveAB({ router: 'a', override: { scorer: undefined } }),
      moveAB({ router: 'z', scorerName: 'busy' }),
      moveAB({ router: 'z', scorerName: 'busy' }),
    ];
    const r = replayDecisions(recs);
    expect(r.scorers.map((row) => [row.router, row.scorer])).toStrictEqual([
      ['z', 'busy'],
      ['a', 'x'],
      ['a', 'y'],
      ['a', null],
      ['b', 'x'],
      [null, 'a'],
    ]);
  });

  it('the router decides the order before the scorer, whatever their lengths', () => {
    // 'a' + 'bd' and 'ab' + 'c' read alike if the two names ran together.
    const recs = [moveAB({ router: 'ab', scorerName: 'c' }), moveAB({ router: 'a', scorerName: 'bd' })];
    const r = replayDecisions(recs);
    expect(r.scorers.map((row) => row.router)).toStrictEqual(['a', 'ab']);
  });

  it('names sort by code point, the same in every locale: upper case before lower', () => {
    const recs = ['b', 'a', 'B'].map((router) => moveAB({ router }));
    expect(replayDecisions(recs).scorers.map((row) => row.router)).toStrictEqual(['B', 'a', 'b']);
  });

  it('a missing name sorts after a present one, whichever of the two was seen first', () => {
    for (const recs of [
      [moveAB({ override: { router: undefined } }), moveAB({ router: 'r' })],
      [moveAB({ router: 'r' }), moveAB({ override: { router: undefined } })],
    ]) {
      expect(replayDecisions(recs).scorers.map((row) => row.router)).toStrictEqual(['r', null]);
    }
    for (const recs of [
      [moveAB({ override: { scorer: undefined } }), moveAB({ scorerName: 's' })],
      [moveAB({ scorerName: 's' }), moveAB({ override: { scorer: undefined } })],
    ]) {
      expect(replayDecisions(recs).scorers.map((row) => row.scorer)).toStrictEqual(['s', null]);
    }
  });

  it('rows with no router are ordered by scorer', () => {
    for (const recs of [
      [
        moveAB({ scorerName: 'b', override: { router: undefined } }),
        moveAB({ scorerName: 'a', override: { router: undefined } }),
      ],
      [
        moveAB({ scorerName: 'a', override: { router: undefined } }),
        moveAB({ scorerName: 'b', override: { router: undefined } }),
      ],
    ]) {
      expect(replayDecisions(recs).scorers.map((row) => row.scorer)).toStrictEqual(['a', 'b']);
    }
  });

  it('past maxScorers rows, new pairs are pooled into one (other) row at the end, whatever its size', () => {
    const recs = [
      moveAB({ scorerName: 'first' }),
      moveAB({ scorerName: 'second' }),
      moveAB({ scorerName: 'third' }),
      moveAB({ scorerName: 'first' }),
      decision({ scores: [s('a', -0.2)], policy: { floor: 0 }, scorerName: 'fourth' }),
    ];
    const r = replayDecisions(recs, { maxScorers: 1 });
    expect(r.scorers).toStrictEqual([
      {
        router: 'desk',
        scorer: 'first',
        decisions: 2,
        flooredBefore: 0,
        flooredAfter: 0,
        unmatchedBefore: 0,
        unmatchedAfter: 0,
      },
      {
        router: null,
        scorer: '(other)',
        decisions: 3,
        flooredBefore: 1,
        flooredAfter: 1,
        unmatchedBefore: 1,
        unmatchedAfter: 1,
      },
    ]);
  });

  it('a pair already given a row keeps it after the cap is reached', () => {
    const recs = [moveAB({ scorerName: 'first' }), moveAB({ scorerName: 'second' })];
    const r = replayDecisions([...recs, moveAB({ scorerName: 'second' })], { maxScorers: 2 });
    expect(r.scorers.map((row) => [row.scorer, row.decisions])).toStrictEqual([
      ['second', 2],
      ['first', 1],
    ]);
  });

  it('unmatched is newly reachable only where more decisions are floored after than before', () => {
    const recs = [
      moveAB({ scorerName: 'floorless' }),
      decision({ scores: [s('a', 0.6), s('b', 0.2)], policy: { floor: 0 }, scorerName: 'floored' }),
    ];
    const r = replayDecisions(recs, { thresholds: { floor: 0.1 } });
    expect(r.unmatchedNowReachable).toStrictEqual([{ router: 'desk', scorer: 'floorless' }]);
  });
});

describe('replay: the flipped list', () => {
  it('lists nothing by default, however many flipped', () => {
    const r = replayDecisions([moveAB(), moveAB()], { thresholds: { nearTieMargin: 0.5 } });
    expect(r.flipped).toBe(2);
    expect(r.list).toStrictEqual([]);
  });

  it('lists exactly listLimit flipped decisions, the first ones, in input order', () => {
    const recs = [moveAB(), moveAB(), moveAB()];
    const r = replayDecisions(recs, { thresholds: { nearTieMargin: 0.5 }, listLimit: 2 });
    expect(r.list.map((f) => f.spanId)).toStrictEqual([recs[0]!.spanId, recs[1]!.spanId]);
  });

  it('a decision that did not flip is not listed', () => {
    const recs = [menuABC(), moveAB()];
    const r = replayDecisions(recs, { thresholds: { nearTieMargin: 0.5 }, listLimit: 5 });
    expect(r.list.map((f) => f.spanId)).toStrictEqual([recs[1]!.spanId]);
  });

  it('an entry has the location, the conversation, the time, both verdicts, both details and the gap', () => {
    const d = moveAB({ conversationId: 'conv-1', timeUnixMs: 1234 });
    const r = replayDecisions([d], { thresholds: { nearTieMargin: 0.5 }, listLimit: 1 });
    expect(r.list).toStrictEqual([
      {
        traceId: d.traceId,
        spanId: d.spanId,
        router: 'desk',
        scorer: 'embedding',
        file: 'mem',
        line: d.source.line,
        conversationId: 'conv-1',
        timeUnixMs: 1234,
        from: 'move',
        to: 'menu',
        fromDetail: 'a',
        toDetail: 'a, b',
        gap: d.runnerUp!.gap,
      },
    ]);
  });

  it('an entry has no conversation key when the decision has none, and no detail for stay or unmatched', () => {
    const d = decision({ scores: [s('a', -0.1)], policy: { floor: 0 } });
    expect(d.verdict).toBe('unmatched');
    expect(d.runnerUp).toBeUndefined();
    const r = replayDecisions([d], { thresholds: { floor: null }, listLimit: 1 });
    expect(r.list).toStrictEqual([
      {
        traceId: d.traceId,
        spanId: d.spanId,
        router: 'desk',
        scorer: 'embedding',
        file: 'mem',
        line: d.source.line,
        timeUnixMs: d.timeUnixMs,
        from: 'unmatched',
        to: 'move',
        toDetail: 'a',
      },
    ]);
  });

  it('a menu that becomes a stay has the menu as from-detail and no to-detail', () => {
    const d = clauseCase('contract');
    const r = replayDecisions([d], { listLimit: 1, policy: 'agentfootprint-9.62' });
    expect(r.list).toStrictEqual([
      {
        traceId: d.traceId,
        spanId: d.spanId,
        router: 'desk',
        scorer: 'embedding',
        file: 'mem',
        line: d.source.line,
        timeUnixMs: d.timeUnixMs,
        from: 'menu',
        to: 'stay',
        fromDetail: 'c, i',
        gap: d.runnerUp!.gap,
      },
    ]);
  });

  it('a stay has no detail even when its record carries a list', () => {
    const d = clauseCase('agentfootprint-9.62');
    const r = replayDecisions([{ ...d, offered: ['c', 'i'] }], { listLimit: 1, policy: 'contract' });
    expect(r.list).toHaveLength(1);
    expect(r.list[0]).not.toHaveProperty('fromDetail');
  });

  it('a stay that becomes a menu has no from-detail and the menu as to-detail', () => {
    const stay = clauseCase('agentfootprint-9.62');
    expect(stay.verdict).toBe('stay');
    const r = replayDecisions([stay], { listLimit: 1, policy: 'contract' });
    expect(r.list).toHaveLength(1);
    expect(r.list[0]).toMatchObject({ from: 'stay', to: 'menu', toDetail: 'c, i' });
    expect(r.list[0]).not.toHaveProperty('fromDetail');
    expect(r.list[0]!.gap).toBe(stay.runnerUp!.gap);
  });

  it('a menu recorded with no list has no from-detail', () => {
    const { offered: _offered, ...bare } = menuABC();
    const r = replayDecisions([bare as DecisionRecord], {
      thresholds: { nearTieMargin: 0.001 },
      listLimit: 1,
    });
    expect(r.list).toHaveLength(1);
    expect(r.list[0]).toMatchObject({ from: 'menu', to: 'move', toDetail: 'a' });
    expect(r.list[0]).not.toHaveProperty('fromDetail');
  });
});

describe('replay: the behaviour and the audit', () => {
  it('each decision is replayed under the behaviour its service shows: a 9.62 stay stays under auto', () => {
    const r = replayDecisions([clauseCase('agentfootprint-9.62')], { thresholds: { nearTieMargin: 1 } });
    expect(r.flips.stay.stay).toBe(1);
    expect(r.consistency.inconsistent).toBe(0);
    expect(r.policy.choice).toBe('auto');
    expect(r.policy.services).toMatchObject([
      { service: null, semantics: 'agentfootprint-9.62', resolvedBy: 'evidence', decisions: 1 },
    ]);
  });

  it('forced to the contract, the same 9.62 stay replays as a menu and is an inconsistency', () => {
    const d = clauseCase('agentfootprint-9.62');
    const r = replayDecisions([d], { policy: 'contract', listLimit: 1 });
    expect(r.flips.stay.menu).toBe(1);
    expect(r.policy.choice).toBe('contract');
    expect(r.consistency).toStrictEqual({
      audited: 1,
      inconsistent: 1,
      examples: [
        {
          at: {
            traceId: d.traceId,
            spanId: d.spanId,
            router: 'desk',
            scorer: 'embedding',
            file: 'mem',
            line: d.source.line,
          },
          differences: [expect.stringMatching(/verdict: recorded stay, replayed menu/)],
          semantics: 'contract',
        },
      ],
    });
  });

  it('inconsistency examples are capped at maxExamples', () => {
    const recs = [1, 2, 3].map(() => clauseCase('agentfootprint-9.62'));
    const r = replayDecisions(recs, { policy: 'contract', maxExamples: 2 });
    expect(r.consistency.inconsistent).toBe(3);
    expect(r.consistency.examples).toHaveLength(2);
  });

  it('the report keeps the thresholds asked for, as a copy', () => {
    const thresholds = { nearTieMargin: 0.3, floor: null };
    const r = replayDecisions([moveAB()], { thresholds });
    expect(r.thresholds).toStrictEqual({ nearTieMargin: 0.3, floor: null });
    expect(r.thresholds).not.toBe(thresholds);
  });
});

describe('replay: streaming', () => {
  it('add after finish throws, and says so', () => {
    const a = createReplayAnalysis();
    a.finish();
    expect(() => a.add(moveAB())).toThrow('replay: add() after finish()');
  });

  it('finish twice throws, and says so', () => {
    const a = createReplayAnalysis();
    a.finish();
    expect(() => a.finish()).toThrow('replay: finish() called twice');
  });

  it('the streaming analysis and replayDecisions give the same report', () => {
    const recs = [moveAB(), menuABC(), undecidableOne()];
    const a = createReplayAnalysis({ thresholds: { nearTieMargin: 0.5 }, listLimit: 3 });
    for (const d of recs) a.add(d);
    expect(a.finish()).toStrictEqual(
      replayDecisions(recs, { thresholds: { nearTieMargin: 0.5 }, listLimit: 3 }),
    );
  });
});
