// verdictCounts — the verdict mix and the near-tie rule every analysis shares.
import { describe, expect, it } from 'vitest';
import {
  RateCounter,
  VERDICT_KINDS,
  createVerdictCounts,
  isFloorless,
  isRecordedNearTie,
  rateOf,
} from '../../src/analyze/verdictCounts.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { decision, s } from './decisionBuilder.js';

const tie = (): DecisionRecord => decision({ scores: [s('a', 0.51), s('b', 0.5)] });
const far = (): DecisionRecord => decision({ scores: [s('a', 10), s('b', 0)] });

describe('verdictCounts', () => {
  it('verdict kinds are listed move, stay, menu, unmatched', () => {
    expect(VERDICT_KINDS).toStrictEqual(['move', 'stay', 'menu', 'unmatched']);
  });

  it('fresh counts are zero for every kind, and each call gives new counts', () => {
    const a = createVerdictCounts();
    expect(a).toStrictEqual({ move: 0, stay: 0, menu: 0, unmatched: 0 });
    a.move++;
    expect(createVerdictCounts().move).toBe(0);
  });

  it('a decisive decision is no near-tie', () => {
    expect(isRecordedNearTie(far())).toBe(false);
    expect(isRecordedNearTie({ ...tie(), decisive: true })).toBe(false);
  });

  it('a decision that is not decisive is a near-tie when two or more candidates were alive', () => {
    expect(isRecordedNearTie(tie())).toBe(true);
    expect(isRecordedNearTie({ ...tie(), aliveCount: 2 })).toBe(true);
    expect(isRecordedNearTie({ ...tie(), aliveCount: 1 })).toBe(false);
  });

  it('with no alive count recorded, a runner-up stands for two alive', () => {
    const { aliveCount: _a, ...noCount } = tie();
    expect(isRecordedNearTie(noCount as DecisionRecord)).toBe(true);
    const { runnerUp: _r, ...neither } = noCount as DecisionRecord;
    expect(isRecordedNearTie(neither as DecisionRecord)).toBe(false);
  });

  it('a rate is part over whole, 0 when the whole is 0', () => {
    expect(rateOf(1, 4)).toBe(0.25);
    expect(rateOf(0, 0)).toBe(0);
    expect(rateOf(3, 0)).toBe(0);
  });

  it('floorless means no floor declared and none in effect', () => {
    expect(isFloorless(far())).toBe(true);
    expect(isFloorless({ ...far(), floorDeclared: true })).toBe(false);
    expect(isFloorless({ ...far(), effectiveFloor: 0 })).toBe(false);
    expect(isFloorless(decision({ scores: [s('a', 1)], policy: { floor: 0 } }))).toBe(false);
  });
});

describe('RateCounter', () => {
  it('counts decisions, verdicts and near-ties, and gives their rates', () => {
    const c = new RateCounter();
    for (const d of [tie(), far(), far(), decision({ scores: [s('a', -1)], policy: { floor: 0 } })]) c.add(d);
    expect(c.toRates()).toStrictEqual({
      decisions: 4,
      verdicts: { move: 2, stay: 0, menu: 1, unmatched: 1 },
      nearTies: 1,
      nearTieRate: 0.25,
      menuRate: 0.25,
      unmatchedRate: 0.25,
    });
  });

  it('with nothing counted every rate is 0', () => {
    expect(new RateCounter().toRates()).toStrictEqual({
      decisions: 0,
      verdicts: { move: 0, stay: 0, menu: 0, unmatched: 0 },
      nearTies: 0,
      nearTieRate: 0,
      menuRate: 0,
      unmatchedRate: 0,
    });
  });

  it('the rates are a copy: counting on does not change rates already taken', () => {
    const c = new RateCounter();
    c.add(far());
    const before = c.toRates();
    c.add(far());
    expect(before.verdicts.move).toBe(1);
  });
});
