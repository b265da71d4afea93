import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  replayDecision,
  type ReplayOutcome,
  type ReplayedDecision,
} from '../../src/analyze/replayDecision.js';
import { decision, s } from './decisionBuilder.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

function replayed(o: ReplayOutcome): ReplayedDecision {
  if (o.kind !== 'replayed') throw new Error(`expected a replay, got: ${o.reason}`);
  return o;
}

describe('replayDecision', () => {
  it('a complete consistent record replays to the recorded verdict with no differences', () => {
    const r = replayed(replayDecision(decision({ scores: [s('a', 2), s('b', 1)] })));
    expect(r).toMatchObject({ complete: true, verdict: 'move', to: 'a', decisive: true, differences: [] });
  });

  it('a recorded verdict the policy does not give is a difference', () => {
    const rec = decision({ scores: [s('a', 2), s('b', 1)], override: { verdict: 'stay', to: undefined } });
    const r = replayed(replayDecision(rec));
    expect(r.differences).toContain('verdict: recorded stay, replayed move');
  });

  it('a different move target is a difference', () => {
    const rec = decision({ scores: [s('a', 2), s('b', 1)], override: { to: 'b' } });
    expect(replayed(replayDecision(rec)).differences).toContain('move target: recorded b, replayed a');
  });

  it('a recorded gap the numbers do not give is a difference', () => {
    const rec = decision({ scores: [s('a', 2), s('b', 1)], override: { runnerUp: { id: 'b', gap: 0.9 } } });
    expect(replayed(replayDecision(rec)).differences.some((d) => d.startsWith('gap:'))).toBe(true);
  });

  it('a recorded effective floor other than policy.floor ?? scorer.floor is a difference', () => {
    const rec = decision({
      scores: [s('a', 2), s('b', 1)],
      scorer: { floor: 0 },
      override: { effectiveFloor: 0.5 },
    });
    expect(replayed(replayDecision(rec)).differences.some((d) => d.startsWith('effective floor'))).toBe(true);
  });

  it('omitted candidates below a dead last one keep the verdict exact; only relevance is undecided', () => {
    const rec = decision({
      scores: [s('a', 0.9), s('b', 0.1), s('c', 0.05), s('d', 0.01)],
      scorer: { floor: 0.2 },
      maxCandidates: 2,
    });
    const r = replayed(replayDecision(rec));
    expect(r).toMatchObject({
      complete: false,
      verdict: 'move',
      to: 'a',
      undecided: ['relevance'],
      differences: [],
    });
  });

  it('omitted candidates below a live last one leave the alive count undecided but the top two decided', () => {
    const rec = decision({ scores: [s('a', 3), s('b', 1), s('c', 0.5), s('d', 0.2)], maxCandidates: 2 });
    const r = replayed(replayDecision(rec));
    expect(r).toMatchObject({ verdict: 'move', runnerUp: { id: 'b' }, differences: [] });
    expect(r.undecided).toContain('alive count');
  });

  it('one live recorded candidate with omitted ones is undecidable (the runner-up is unknown)', () => {
    const rec = decision({ scores: [s('a', 3), s('b', 1), s('c', 0.5)], maxCandidates: 1 });
    expect(replayDecision(rec)).toMatchObject({ kind: 'undecidable' });
  });

  it('a categorical scorer with one recorded candidate is still decided (decisive by construction)', () => {
    const rec = decision({
      scores: [s('a', 1), s('b', 0.5), s('c', 0.5)],
      scorer: { categorical: true },
      maxCandidates: 1,
    });
    const r = replayed(replayDecision(rec));
    expect(r).toMatchObject({ verdict: 'move', to: 'a', differences: [] });
    expect(r.undecided).toContain('runner-up');
  });

  it('a near-tie whose scored incumbent was omitted is undecidable (stay or menu)', () => {
    const rec = decision({
      scores: [s('a', 1), s('b', 0.99), s('c', 0.98), s('inc', 0.5)],
      incumbent: 'inc',
      scorer: { floor: 0 },
      maxCandidates: 2,
    });
    expect(replayDecision(rec)).toMatchObject({ kind: 'undecidable' });
  });

  it('a cold menu whose tied cluster may run past the record leaves the menu undecided', () => {
    const rec = decision({
      scores: [s('a', 1), s('b', 0.99), s('c', 0.98), s('d', 0.97)],
      policy: { menuSize: 4 },
      maxCandidates: 2,
    });
    const r = replayed(replayDecision(rec));
    expect(r.verdict).toBe('menu');
    expect(r.undecided).toContain('offered');
    expect(r.differences).toEqual([]);
  });

  it('every candidate omitted is undecidable', () => {
    const rec = decision({ scores: [s('a', 1), s('b', 0.5)], maxCandidates: 0 });
    expect(replayDecision(rec)).toMatchObject({ kind: 'undecidable' });
  });

  it('other thresholds judge instead of the recorded ones (what-if)', () => {
    const rec = decision({ scores: [s('a', 1), s('b', 0.9)] }); // gap 0.05 < 0.15: cold menu
    expect(replayed(replayDecision(rec)).verdict).toBe('menu');
    expect(replayed(replayDecision(rec, { nearTieMargin: 0.01 }))).toMatchObject({
      verdict: 'move',
      to: 'a',
    });
    expect(replayed(replayDecision(rec, { floor: 1 }))).toMatchObject({ verdict: 'unmatched' });
  });

  it('floor null removes every floor, so unmatched becomes unreachable', () => {
    const rec = decision({ scores: [s('a', 0.1)], scorer: { floor: 0.5 } });
    expect(rec.verdict).toBe('unmatched');
    expect(replayed(replayDecision(rec, { floor: null }))).toMatchObject({ verdict: 'move', to: 'a' });
  });

  const arbScores = fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { minLength: 0, maxLength: 6 })
    .chain((ids) =>
      fc.tuple(
        fc.constant(ids),
        fc.array(
          fc.oneof(
            { weight: 8, arbitrary: fc.double({ min: -3, max: 3, noNaN: true }) },
            { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
          ),
          { minLength: ids.length, maxLength: ids.length },
        ),
      ),
    )
    .map(([ids, scores]) => ids.map((id, i) => s(id, scores[i]!)));
  const arbSpec = fc.record({
    scores: arbScores,
    incumbent: fc.option(fc.constantFrom('a', 'b', 'c', 'z'), { nil: undefined }),
    margin: fc.double({ min: 0.001, max: 0.9, noNaN: true }),
    menuSize: fc.integer({ min: 2, max: 5 }),
    floor: fc.option(fc.double({ min: -2, max: 2, noNaN: true }), { nil: undefined }),
    categorical: fc.boolean(),
    maxCandidates: fc.integer({ min: 0, max: 7 }),
  });

  it('law: replaying a record under its recorded thresholds reproduces it, whatever was omitted', () => {
    fc.assert(
      fc.property(arbSpec, (p) => {
        const rec = decision({
          scores: p.scores,
          ...(p.incumbent === undefined ? {} : { incumbent: p.incumbent }),
          policy: { nearTieMargin: p.margin, menuSize: p.menuSize },
          scorer: { ...(p.floor === undefined ? {} : { floor: p.floor }), categorical: p.categorical },
          maxCandidates: p.maxCandidates,
        });
        const r = replayDecision(rec);
        if (r.kind === 'replayed') expect(r.differences).toEqual([]);
        if (rec.omitted === 0) expect(r.kind).toBe('replayed');
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('law: margin 0 makes every decision with two alive candidates decisive', () => {
    fc.assert(
      fc.property(arbSpec, (p) => {
        const rec = decision({ scores: p.scores, policy: { nearTieMargin: p.margin } });
        const r = replayDecision(rec, { nearTieMargin: 0 });
        if (r.kind === 'replayed') expect(r.decisive || r.verdict === 'unmatched').toBe(true);
      }),
    );
  });
});

describe('replayDecision under each published behaviour', () => {
  // The clause case: a near-tie between c and i, the incumbent f scored at the floor.
  const clause = {
    scores: [s('f', 0), s('c', 1), s('i', 1)],
    incumbent: 'f',
    policy: { nearTieMargin: 1, floor: 0 },
  };

  it('the clause case replays to a menu of the new candidates under the contract', () => {
    const r = replayed(replayDecision(decision(clause), {}, 'contract'));
    expect(r).toMatchObject({ verdict: 'menu', offered: ['c', 'i'], semantics: 'contract' });
  });

  it('the clause case replays to stay under agentfootprint-9.62', () => {
    const r = replayed(replayDecision(decision(clause), {}, 'agentfootprint-9.62'));
    expect(r).toMatchObject({ verdict: 'stay', semantics: 'agentfootprint-9.62' });
  });

  it('a 9.62 stay at the clause case is consistent under 9.62 and inconsistent under the contract', () => {
    const rec = decision({ ...clause, behaviour: 'agentfootprint-9.62' });
    expect(replayed(replayDecision(rec, {}, 'agentfootprint-9.62')).differences).toEqual([]);
    expect(replayed(replayDecision(rec, {}, 'contract')).differences).toContain(
      'verdict: recorded stay, replayed menu',
    );
  });

  it('the default behaviour is the contract', () => {
    expect(replayed(replayDecision(decision(clause))).semantics).toBe('contract');
  });

  it('a near-tie whose scored incumbent was omitted is decidable under 9.62: it stays', () => {
    const rec = decision({
      scores: [s('a', 1), s('b', 0.99), s('c', 0.98), s('inc', 0.5)],
      incumbent: 'inc',
      scorer: { floor: 0 },
      maxCandidates: 2,
      behaviour: 'agentfootprint-9.62',
    });
    expect(replayed(replayDecision(rec, {}, 'agentfootprint-9.62'))).toMatchObject({
      verdict: 'stay',
      differences: [],
    });
  });
});
