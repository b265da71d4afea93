/**
 * floorSource.test — one rule per `it` for where a call's floor came from: the policy's over the scorer's,
 * the scorer's alone, none, and a policy that carries only the effective floor (an agentfootprint event's).
 */
import { describe, expect, it } from 'vitest';
import { carriesEffectiveFloor, floorSourceOf, withEffectiveFloor } from '../../src/policy/floorSource.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';

const s = (id: string, score: number): { id: string; score: number } => ({ id, score });

describe('floorSourceOf', () => {
  it("a policy floor is the policy's, whether or not the scorer declares one", () => {
    expect(floorSourceOf({ nearTieMargin: 0.1, menuSize: 3, floor: 0.2 })).toBe('policy');
    expect(floorSourceOf({ nearTieMargin: 0.1, menuSize: 3, floor: 0.2 }, { floor: 0 })).toBe('policy');
  });

  it("no policy floor and a scorer floor → the scorer's", () => {
    expect(floorSourceOf({ nearTieMargin: 0.1, menuSize: 3 }, { floor: 0 })).toBe('scorer');
  });

  it('no floor anywhere → undefined', () => {
    expect(floorSourceOf({ nearTieMargin: 0.1, menuSize: 3 })).toBeUndefined();
    expect(floorSourceOf({ nearTieMargin: 0.1, menuSize: 3 }, { categorical: true })).toBeUndefined();
  });

  it('a policy carrying the effective floor → effective, never the policy', () => {
    expect(floorSourceOf(withEffectiveFloor(0.1, 3, 0))).toBe('effective');
  });

  it("a mark without a floor, or a copy that drops the mark, is a plain policy's", () => {
    expect(
      carriesEffectiveFloor({ nearTieMargin: 0.1, menuSize: 3, floorSource: 'effective' } as never),
    ).toBe(false);
    const { floorSource: _dropped, ...copy } = withEffectiveFloor(0.1, 3, 0);
    expect(floorSourceOf(copy)).toBe('policy');
  });
});

describe('withEffectiveFloor', () => {
  it('judges exactly as the same floor set on a plain policy', () => {
    const scores = [s('a', 0.3), s('b', 0.29), s('c', 0.1)];
    expect(decideTier2(scores, undefined, withEffectiveFloor(0.15, 3, 0.2))).toStrictEqual(
      decideTier2(scores, undefined, { nearTieMargin: 0.15, menuSize: 3, floor: 0.2 }),
    );
  });
});
