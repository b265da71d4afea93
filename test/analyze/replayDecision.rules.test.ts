/**
 * replayDecision.rules.test — the replayed decision exactly (strictly: no key set to undefined), and each
 * kind of difference between a record and its replay stated as its own rule, under both behaviours where
 * they differ. The laws and the omitted-candidate cases are in replayDecision.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { replayDecision, replayedFloor, type ReplayOutcome } from '../../src/analyze/replayDecision.js';
import { pairwiseGap } from '../../src/policy/routingPolicy.js';
import { decision, s } from './decisionBuilder.js';

const replayed = (o: ReplayOutcome) => {
  if (o.kind !== 'replayed') throw new Error(`expected a replay, got: ${o.reason}`);
  return o;
};
const differencesOf = (o: ReplayOutcome) => replayed(o).differences;

describe('the replayed decision', () => {
  it('a complete move: every field, and no key for what does not apply', () => {
    const r = replayed(replayDecision(decision({ scores: [s('a', 2), s('b', 1)] })));
    expect(r).toStrictEqual({
      kind: 'replayed',
      complete: true,
      verdict: 'move',
      to: 'a',
      decisive: true,
      nearTie: false,
      runnerUp: { id: 'b', gap: pairwiseGap(2, 1) },
      aliveCount: 2,
      semantics: 'contract',
      policy: { nearTieMargin: 0.15, menuSize: 3 },
      scorerTraits: {},
      undecided: [],
      differences: [],
    });
  });

  it('a menu with a floor: offered and the effective floor are kept, no target', () => {
    const r = replayed(
      replayDecision(decision({ scores: [s('a', 0.9), s('b', 0.85)], scorer: { floor: 0 } })),
    );
    expect(r).toMatchObject({ verdict: 'menu', offered: ['a', 'b'], effectiveFloor: 0, nearTie: true });
    expect(Object.hasOwn(r, 'to')).toBe(false);
  });

  it('a lone candidate: no runner-up key; an omitted count that is not a positive number counts as none', () => {
    for (const omitted of [0, -3, NaN]) {
      const r = replayed(replayDecision(decision({ scores: [s('a', 1)], override: { omitted } })));
      expect(r.complete, String(omitted)).toBe(true);
      expect(Object.hasOwn(r, 'runnerUp')).toBe(false);
    }
  });

  it('every candidate omitted is undecidable, naming how many', () => {
    const rec = decision({ scores: [s('a', 1)], override: { ranked: [], omitted: 4 } });
    expect(replayDecision(rec)).toStrictEqual({
      kind: 'undecidable',
      reason: 'all 4 candidates were omitted from the record',
    });
  });

  it('a near-tie whose scored incumbent was omitted: undecidable under the contract, with the reason', () => {
    const rec = decision({
      scores: [s('a', 0.9), s('b', 0.89), s('c', 0.88), s('i', 0.1)],
      incumbent: 'i',
      maxCandidates: 3,
    });
    expect(replayDecision(rec)).toStrictEqual({
      kind: 'undecidable',
      reason:
        'near-tie with an incumbent that was scored but omitted from the record, so stay or menu cannot be decided',
    });
    const unscored = decision({
      scores: [s('a', 0.9), s('b', 0.89), s('c', 0.88), s('d', 0.1)],
      incumbent: 'i',
      maxCandidates: 3,
    });
    expect(replayDecision(unscored).kind).toBe('replayed');
  });

  it('replayedFloor: the floor a replay judges with — the override, null for none, else the recorded one', () => {
    const rec = decision({ scores: [s('a', 1)], scorer: { floor: 0.2 } });
    expect(replayedFloor(rec)).toBe(0.2);
    expect(replayedFloor(rec, { floor: 0.5 })).toBe(0.5);
    expect(replayedFloor(rec, { floor: null })).toBeUndefined();
    expect(replayedFloor(decision({ scores: [s('a', 1)] }))).toBeUndefined();
  });
});

describe('the differences between a record and its replay', () => {
  const base = () => decision({ scores: [s('a', 2), s('b', 1)] });

  it('another verdict kind, and another move target, each one line', () => {
    expect(differencesOf(replayDecision({ ...base(), verdict: 'stay', to: undefined }))).toStrictEqual([
      'verdict: recorded stay, replayed move',
    ]);
    expect(differencesOf(replayDecision({ ...base(), to: 'b' }))).toStrictEqual([
      'move target: recorded b, replayed a',
    ]);
  });

  it('another menu: another member or another length; the same menu is no difference', () => {
    const menu = decision({ scores: [s('a', 0.9), s('b', 0.85), s('c', 0.84)] });
    expect(differencesOf(replayDecision(menu))).toStrictEqual([]);
    expect(differencesOf(replayDecision({ ...menu, offered: ['a', 'c', 'b'] }))).toStrictEqual([
      'menu: recorded [a, c, b], replayed [a, b, c]',
    ]);
    expect(differencesOf(replayDecision({ ...menu, offered: ['a', 'b'] }))).toStrictEqual([
      'menu: recorded [a, b], replayed [a, b, c]',
    ]);
    expect(differencesOf(replayDecision({ ...menu, offered: undefined }))).toStrictEqual([
      'menu: recorded [], replayed [a, b, c]',
    ]);
  });

  it('the decisive flag, the runner-up and its gap are each compared', () => {
    expect(differencesOf(replayDecision({ ...base(), decisive: false }))).toStrictEqual([
      'decisive: recorded false, replayed true',
    ]);
    expect(differencesOf(replayDecision({ ...base(), runnerUp: undefined }))).toStrictEqual([
      'runner-up: none recorded, replayed b',
    ]);
    expect(
      differencesOf(replayDecision({ ...base(), runnerUp: { id: 'c', gap: pairwiseGap(2, 1) } })),
    ).toStrictEqual(['runner-up: recorded c, replayed b']);
    const lone = decision({ scores: [s('a', 2)] });
    expect(differencesOf(replayDecision({ ...lone, runnerUp: { id: 'b', gap: 0.5 } }))).toStrictEqual([
      'runner-up: recorded b, replayed none',
    ]);
    expect(
      differencesOf(
        replayDecision({ ...base(), runnerUp: { id: 'b', gap: pairwiseGap(2, 1) * (1 + 1e-12) } }),
      ),
    ).toStrictEqual([]);
  });

  it('the alive count, when both sides know it', () => {
    expect(differencesOf(replayDecision({ ...base(), aliveCount: 3 }))).toStrictEqual([
      'alive count: recorded 3, replayed 2',
    ]);
    expect(differencesOf(replayDecision({ ...base(), aliveCount: undefined }))).toStrictEqual([]);
  });

  it('a complete record: the first rank that differs, and only the first', () => {
    const rec = base();
    const swapped = { ...rec, ranked: [rec.ranked[1]!, rec.ranked[0]!] };
    expect(differencesOf(replayDecision(swapped))).toStrictEqual(['rank 1: recorded b, replayed a']);
  });

  it('a recorded relevance other than the softmax is a difference naming the candidate', () => {
    const rec = base();
    const off = {
      ...rec,
      ranked: [
        { ...rec.ranked[0]!, relevance: 0.5 },
        { ...rec.ranked[1]!, relevance: 0.5 },
      ],
    };
    expect(differencesOf(replayDecision(off))).toStrictEqual([
      `relevance of a: recorded 0.5, replayed ${String(rec.ranked[0]!.relevance)}`,
    ]);
  });

  it('the recorded floor: effective floor and floor declared must follow policy.floor ?? scorer.floor', () => {
    const floored = decision({ scores: [s('a', 2), s('b', 1)], scorer: { floor: 0 } });
    expect(differencesOf(replayDecision({ ...floored, floorDeclared: false }))).toStrictEqual([
      'floor declared: recorded false, policy and scorer give true',
    ]);
    expect(differencesOf(replayDecision({ ...base(), floorDeclared: true }))).toStrictEqual([
      'floor declared: recorded true, policy and scorer give false',
    ]);
    expect(differencesOf(replayDecision({ ...base(), effectiveFloor: 0 }))).toStrictEqual([
      'effective floor: recorded 0, policy and scorer give undefined',
    ]);
  });

  it('a record that knows only the effective floor is judged with it, and agrees with itself', () => {
    const judged = decision({ scores: [s('a', 2), s('b', 0.4), s('c', 0.1)], policy: { floor: 0.5 } });
    const effective = {
      ...judged,
      policy: { nearTieMargin: judged.policy.nearTieMargin, menuSize: judged.policy.menuSize },
      floorSource: 'effective' as const,
    };
    const r = replayed(replayDecision(effective));
    expect(r.differences).toStrictEqual([]);
    expect(r.effectiveFloor).toBe(0.5);
    expect(r.aliveCount).toBe(1);
    expect(replayedFloor(effective)).toBe(0.5);
    expect(replayedFloor(effective, { floor: null })).toBeUndefined();
    expect(replayedFloor(effective, { floor: 0 })).toBe(0);
  });

  it('the recorded floor is checked only when replaying under the recorded thresholds', () => {
    const wrong = { ...base(), floorDeclared: true };
    for (const t of [{ nearTieMargin: 0.2 }, { menuSize: 4 }, { floor: 0 }]) {
      expect(differencesOf(replayDecision(wrong, t)), JSON.stringify(t)).not.toContain(
        'floor declared: recorded true, policy and scorer give false',
      );
    }
  });
});

describe('a menu on a record with omitted candidates', () => {
  const five = [s('a', 0.9), s('b', 0.89), s('c', 0.88), s('d', 0.87), s('e', 0.86)];

  it('a full menu is decided, even with the cluster running past the record', () => {
    const r = replayed(replayDecision(decision({ scores: five, maxCandidates: 3 })));
    expect(r).toMatchObject({ verdict: 'menu', offered: ['a', 'b', 'c'] });
    expect(r.undecided).toStrictEqual(['relevance', 'alive count']);
  });

  it('a menu short of its cap whose last recorded candidate ties with the top is undecided: only its prefix is compared', () => {
    const rec = decision({ scores: five, maxCandidates: 3, policy: { menuSize: 5 } });
    const r = replayed(replayDecision(rec));
    expect(r.offered).toStrictEqual(['a', 'b', 'c']);
    expect(r.undecided).toStrictEqual(['relevance', 'alive count', 'offered']);
    expect(rec.offered).toStrictEqual(['a', 'b', 'c', 'd', 'e']);
    expect(r.differences).toStrictEqual([]);
    expect(differencesOf(replayDecision({ ...rec, offered: ['a', 'c', 'b', 'd', 'e'] }))).toStrictEqual([
      'menu: recorded [a, c, b, d, e], replayed [a, b, c]',
    ]);
  });

  it('a menu short of its cap whose last recorded candidate is at or past the margin is decided', () => {
    const far = [s('a', 0.9), s('b', 0.89), s('c', 0.2), s('d', 0.1)];
    for (const policy of [{}, { nearTieMargin: pairwiseGap(0.9, 0.2) }]) {
      const r = replayed(replayDecision(decision({ scores: far, maxCandidates: 3, policy })));
      expect(r).toMatchObject({ verdict: 'menu', offered: ['a', 'b'] });
      expect(r.undecided, JSON.stringify(policy)).toStrictEqual(['relevance', 'alive count']);
    }
  });
});
