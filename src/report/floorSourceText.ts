/**
 * floorSourceText — how reports name where a floor came from.
 *
 * One wording for every report: the policy's floor, the scorer's, or the effective floor of an agentfootprint
 * event, which is the policy's or the scorer's and is never presented as either (the event does not say which;
 * nothing was overridden that anyone knows of). Pure.
 */
import type { FloorSource } from '../policy/types.js';

/** What an effective floor is, said once wherever one is shown. */
export const EFFECTIVE_FLOOR_NOTE =
  "effective floor: the policy's or the scorer's, the turn_routed event does not say which";

/** The floor's origin, as the explain report's floor row puts it after the number. */
export function describeFloorSource(source: FloorSource, scorerFloor: string | undefined): string {
  if (source === 'effective') return EFFECTIVE_FLOOR_NOTE;
  if (source === 'scorer') return "the scorer's";
  return scorerFloor === undefined ? "the policy's" : `the policy's, over the scorer's ${scorerFloor}`;
}
