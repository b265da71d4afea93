/**
 * floorSources.test — where a decision's floor came from, one rule per `it`: the policy's over the scorer's,
 * the scorer's, the effective floor of an event (never guessed to be either), none; and the tally.
 */
import { describe, expect, it } from 'vitest';
import { FloorSourceTally, recordedFloorSource } from '../../src/analyze/floorSources.js';
import { decision, s } from './decisionBuilder.js';

const scores = [s('a', 0.9), s('b', 0.1)];
const fromEvent = () => {
  const d = decision({ scores, policy: { floor: 0 } });
  return { ...d, policy: { nearTieMargin: 0.15, menuSize: 3 }, floorSource: 'effective' as const };
};

describe('recordedFloorSource', () => {
  it("a policy floor is the policy's, a scorer floor alone the scorer's", () => {
    expect(recordedFloorSource(decision({ scores, policy: { floor: 0.2 }, scorer: { floor: 0 } }))).toBe(
      'policy',
    );
    expect(recordedFloorSource(decision({ scores, scorer: { floor: 0 } }))).toBe('scorer');
  });

  it("an event's floor is effective: neither the policy's nor the scorer's", () => {
    expect(recordedFloorSource(fromEvent())).toBe('effective');
  });

  it('an effective floor recorded with no other floor and no source is effective too; no floor at all is undefined', () => {
    const bare = decision({ scores });
    expect(recordedFloorSource(bare)).toBeUndefined();
    expect(recordedFloorSource({ ...bare, effectiveFloor: 0 })).toBe('effective');
  });
});

describe('FloorSourceTally', () => {
  it('counts each decision under its source, none for no floor', () => {
    const tally = new FloorSourceTally();
    for (const d of [
      decision({ scores, policy: { floor: 0.2 } }),
      decision({ scores, scorer: { floor: 0 } }),
      fromEvent(),
      fromEvent(),
      decision({ scores }),
    ])
      tally.add(d);
    expect(tally.finish()).toStrictEqual({ policy: 1, scorer: 1, effective: 2, none: 1 });
  });
});
