/**
 * floorSource — where the floor that judged a call came from, and the policy that carries only an effective one.
 *
 * A hand-written router passes its policy and its scorer's traits apart, so which of the two set the floor is
 * known. An agentfootprint `turn_routed` event is different: its `policy.floor` is the floor the framework
 * judged with (`policy.floor ?? scorer.floor`), and nothing on the event says which one that was. The event
 * reader therefore hands on a policy marked as carrying the effective floor, so whoever records it (the span
 * encoder, the event-log reader) says "effective" instead of passing the number off as the policy's own.
 * The mark is an ordinary field: `decideTier2` ignores it, and a copy that drops it is a plain policy again.
 * Pure.
 */
import type { FloorSource, RoutingPolicy, ScorerTraits } from './types.js';

/** A policy whose `floor` is the effective floor (`policy.floor ?? scorer.floor`), not the policy's own. */
export interface EffectiveFloorPolicy extends RoutingPolicy {
  readonly floor: number;
  readonly floorSource: 'effective';
}

/** The policy of a call whose only known floor is `floor`, the one that judged. */
export function withEffectiveFloor(
  nearTieMargin: number,
  menuSize: number,
  floor: number,
): EffectiveFloorPolicy {
  return { nearTieMargin, menuSize, floor, floorSource: 'effective' };
}

/** Does `policy` carry the effective floor rather than a floor of its own? */
export function carriesEffectiveFloor(policy: RoutingPolicy): policy is EffectiveFloorPolicy {
  return (policy as { floorSource?: unknown }).floorSource === 'effective' && policy.floor !== undefined;
}

/** Where the floor of a call came from; undefined when neither the policy nor the scorer declares one. */
export function floorSourceOf(policy: RoutingPolicy, scorer: ScorerTraits = {}): FloorSource | undefined {
  if (carriesEffectiveFloor(policy)) return 'effective';
  if (policy.floor !== undefined) return 'policy';
  return scorer.floor === undefined ? undefined : 'scorer';
}
