import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWhereClauses } from '../../src/analyze/filterDecisions.js';
import { replayDecisions } from '../../src/analyze/replay.js';
import { replayDecision } from '../../src/analyze/replayDecision.js';
import { VERDICT_KINDS } from '../../src/analyze/verdictCounts.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { decisionArbitrary, recordOf } from './replayRecords.js';

const P = { nearTieMargin: 0.15, menuSize: 3 };
const s = (id: string, score: number) => ({ id, score });
/** Could this decision tie at all: two alive candidates and a scorer that is not categorical. */
const canTie = (d: DecisionRecord): boolean =>
  (d.aliveCount ?? 0) >= 2 && d.scorerTraits.categorical !== true;

describe('replay laws', () => {
  it('replay under the recorded thresholds reproduces every recorded verdict', () => {
    fc.assert(
      fc.property(fc.array(decisionArbitrary, { minLength: 1, maxLength: 30 }), (records) => {
        const r = replayDecisions(records);
        expect(r.consistency.inconsistent).toBe(0);
        expect(r.consistency.audited).toBe(records.length);
        expect(r.flipped).toBe(0);
        expect(r.after).toEqual(r.before);
        for (const k of VERDICT_KINDS) expect(r.flips[k][k]).toBe(r.before.verdicts[k]);
      }),
    );
  });

  it('margin 0: every decision that can tie is decisive, so there is no near-tie', () => {
    fc.assert(
      fc.property(fc.array(decisionArbitrary, { minLength: 1, maxLength: 30 }), (records) => {
        for (const d of records.filter(canTie)) {
          const o = replayDecision(d, { nearTieMargin: 0 });
          expect(o.kind === 'replayed' && o.decisive).toBe(true);
        }
        const r = replayDecisions(records, { thresholds: { nearTieMargin: 0 } });
        expect(r.after.nearTies).toBe(0);
        expect(r.after.verdicts.menu).toBe(0);
      }),
    );
  });

  it('margin 1: every decision that can tie is a near-tie (gap < 1 for finite scores)', () => {
    fc.assert(
      fc.property(fc.array(decisionArbitrary, { minLength: 1, maxLength: 30 }), (records) => {
        const r = replayDecisions(records, { thresholds: { nearTieMargin: 1 } });
        expect(r.after.nearTies).toBe(records.filter(canTie).length);
        expect(r.after.verdicts.move).toBe(records.filter((d) => !canTie(d) && d.verdict === 'move').length);
      }),
    );
  });

  it('the flip matrix rows add up to the recorded verdicts and its columns to the replayed ones', () => {
    fc.assert(
      fc.property(
        fc.array(decisionArbitrary, { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
        (records, margin, floor) => {
          const r = replayDecisions(records, { thresholds: { nearTieMargin: margin, floor } });
          for (const k of VERDICT_KINDS) {
            expect(VERDICT_KINDS.reduce((n, to) => n + r.flips[k][to], 0)).toBe(r.before.verdicts[k]);
            expect(VERDICT_KINDS.reduce((n, from) => n + r.flips[from][k], 0)).toBe(r.after.verdicts[k]);
          }
          expect(r.after.decisions).toBe(records.length);
        },
      ),
    );
  });
});

describe('replay report', () => {
  it('a wider margin turns a cold-start move into a menu, counted and listed', () => {
    const d = recordOf([s('billing', 0.6), s('refunds', 0.2)], undefined, P);
    expect(d.verdict).toBe('move');
    const r = replayDecisions([d], { thresholds: { nearTieMargin: 0.25 }, listLimit: 10 });
    expect(r.flips.move.menu).toBe(1);
    expect(r.moveToMenu).toBe(1);
    expect(r.before.nearTieRate).toBe(0);
    expect(r.after.nearTieRate).toBe(1);
    expect(r.list).toEqual([
      expect.objectContaining({
        from: 'move',
        to: 'menu',
        fromDetail: 'billing',
        toDetail: 'billing, refunds',
      }),
    ]);
  });

  it('--list is capped; the counts are not', () => {
    const recs = Array.from({ length: 5 }, () => recordOf([s('a', 0.6), s('b', 0.2)], undefined, P));
    const r = replayDecisions(recs, { thresholds: { nearTieMargin: 0.5 }, listLimit: 2 });
    expect(r.flipped).toBe(5);
    expect(r.list).toHaveLength(2);
  });

  it('a floor on a floorless scorer makes unmatched reachable, and says for which scorer', () => {
    const recs = [
      recordOf([s('a', 0.1), s('b', 0.05)], undefined, P, {}, { router: 'desk', scorer: 'embedding' }),
      recordOf([s('a', 0.9), s('b', 0.05)], undefined, P, {}, { router: 'desk', scorer: 'embedding' }),
      recordOf(
        [s('a', 0.9), s('b', 0.05)],
        undefined,
        P,
        { floor: 0 },
        { router: 'desk', scorer: 'keyword' },
      ),
    ];
    const r = replayDecisions(recs, { thresholds: { floor: 0.2 } });
    expect(r.unmatchedNowReachable).toEqual([{ router: 'desk', scorer: 'embedding' }]);
    const emb = r.scorers.find((x) => x.scorer === 'embedding')!;
    expect(emb).toMatchObject({ decisions: 2, flooredBefore: 0, flooredAfter: 2, unmatchedAfter: 1 });
    expect(r.after.verdicts.unmatched).toBe(1);
  });

  it('--no-floor takes unmatched away', () => {
    const d = recordOf([s('a', -0.1)], undefined, P, { floor: 0 });
    expect(d.verdict).toBe('unmatched');
    const r = replayDecisions([d], { thresholds: { floor: null } });
    expect(r.flips.unmatched.move).toBe(1);
    expect(r.unmatchedNowReachable).toEqual([]);
  });

  it('--where selects by router and scorer and counts the rest as excluded', () => {
    const recs = [
      recordOf([s('a', 1)], undefined, P, {}, { router: 'r1', scorer: 'x' }),
      recordOf([s('a', 1)], undefined, P, {}, { router: 'r2', scorer: 'x' }),
      recordOf([s('a', 1)], undefined, P, {}, { router: 'r1', scorer: 'y' }),
    ];
    const r = replayDecisions(recs, { where: parseWhereClauses(['router=r1', 'scorer=x']) });
    expect(r.before.decisions).toBe(1);
    expect(r.excluded).toBe(2);
    expect(r.selection).toBe('router=r1, scorer=x');
    expect(() => parseWhereClauses(['model=x'])).toThrow(/router, scorer, service/);
  });

  it('a recorded verdict the policy does not reproduce is reported as inconsistent, not as a flip', () => {
    const d = recordOf([s('a', 0.9), s('b', 0.1)], undefined, P);
    const tampered: DecisionRecord = { ...d, verdict: 'stay' };
    const r = replayDecisions([tampered]);
    expect(r.consistency.inconsistent).toBe(1);
    expect(r.consistency.examples[0]!.differences.join()).toMatch(/verdict: recorded stay, replayed move/);
  });

  it('a record the policy cannot decide is counted apart, with the reason', () => {
    const d = recordOf([s('a', 0.9)], undefined, P);
    const cut: DecisionRecord = { ...d, omitted: 3, candidateCount: 4 };
    const r = replayDecisions([cut]);
    expect(r.undecidable).toBe(1);
    expect(r.before.decisions).toBe(0);
    expect(r.undecidableExamples[0]!.reason).toMatch(/omitted/);
  });
});
