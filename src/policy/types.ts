/**
 * policy/types — the public types of the tier-2 routing policy, as the published contract states them.
 *
 * These mirror agentfootprint's `routingPolicy` contract so that a verdict produced by the framework and one
 * produced here are the same shape: the instrumentation records either, the analyzer replays with ours.
 * Types only.
 */

/** One candidate as a scorer hands it over: an id and the scorer's raw number (may be non-finite). */
export interface IntentScore {
  readonly id: string;
  readonly score: number;
}

/** The cascade's tie policy. Defaults are `NEAR_TIE_MARGIN` and `MENU_SIZE`. */
export interface RoutingPolicy {
  /** Pairwise near-tie margin: the top-2 softmax gap `tanh((top − runnerUp) / 2)` below which tier 2 ties. */
  readonly nearTieMargin: number;
  /** Cap on a near-tie menu (an `unmatched` menu offers every entry, uncapped). */
  readonly menuSize: number;
  /** Overrides the scorer's own declared floor when set. */
  readonly floor?: number;
}

/**
 * Where the floor that judged came from: `policy` (the caller's policy set it, over any scorer floor),
 * `scorer` (the scorer declared it and the policy set none), or `effective` (only the floor that judged is
 * known: an agentfootprint `turn_routed` event reports `policy.floor ?? scorer.floor` as `policy.floor`, and
 * nothing on it says which of the two it was).
 */
export type FloorSource = 'policy' | 'scorer' | 'effective';

/**
 * The traits of the scorer whose numbers are judged: its declared floor (absent = it cannot honestly say
 * "no match") and whether it is categorical (one id or none — a pick is decisive by construction).
 */
export interface ScorerTraits {
  readonly floor?: number;
  readonly categorical?: boolean;
}

/** One ranked candidate on the record: raw score and full-softmax share. */
export interface RankedIntentScore {
  readonly id: string;
  /** The scorer's RAW output (may be non-finite — honest). */
  readonly score: number;
  /** Full-softmax share across ALL candidates, 0..1. */
  readonly relevance: number;
}

/** The recorded evidence every verdict carries. */
export interface Tier2Numbers {
  /** EVERY candidate, ranked by sanitized score, best first. */
  readonly ranked: readonly RankedIntentScore[];
  /** The pairwise top-vs-second gap that was judged; absent with fewer than two candidates above the floor. */
  readonly runnerUp?: { readonly id: string; readonly gap: number };
  /** Whether tier 2 cleared the margin and the floor. */
  readonly decisive: boolean;
}

/** The tier-2 verdict, with the numbers that produced it. */
export type Tier2Verdict =
  | (Tier2Numbers & { readonly kind: 'move'; readonly to: string })
  | (Tier2Numbers & { readonly kind: 'stay' })
  | (Tier2Numbers & { readonly kind: 'menu'; readonly offered: readonly string[] })
  | (Tier2Numbers & { readonly kind: 'unmatched' });

/** The four verdict kinds, in the order reports list them. */
export type Tier2VerdictKind = Tier2Verdict['kind'];

/**
 * A published behaviour of the policy: `contract` (the type contract, with the incumbent-at/below-floor clause)
 * or `agentfootprint-9.62` (the release real agents run: a near-tie with any incumbent stays).
 */
export type PolicySemantics = 'contract' | 'agentfootprint-9.62';

/** The signature of `decideTier2`, which the instrumentation wraps. */
export type DecideTier2 = (
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  scorer?: ScorerTraits,
) => Tier2Verdict;

/**
 * The evidence a tier-1 data matcher routed on: the matched text out of the user message (whitespace
 * collapsed, at most 80 characters including an ellipsis) and the keyword that made the rule true.
 */
export interface RouteWitness {
  readonly text: string;
  readonly keyword?: string;
}

/** Which tier decided the turn's start. */
export type TurnRouteBy = 'entry' | 'intent' | 'continuity' | 'menu' | 'decider' | 'none';

/** The turn-start verdict as the loop may act on it (the `turn_routed` payload's actionable twin). */
export interface TurnRoute {
  /** The tier that decided: `entry` tier-1 rule, `intent` decisive tier 2, `continuity` incumbent held,
   * `menu` a menu is outstanding, `decider` an out-of-band decider resolved it, `none` nothing actionable. */
  readonly by: TurnRouteBy;
  /** The inherited cursor (continuity), when one existed. */
  readonly from?: string;
  /** Where the turn starts. Absent = menu pending / none. */
  readonly to?: string;
  /** The tier-3 menu, while one is actionable. */
  readonly offered?: readonly string[];
  /** STAY was a first-class option in that menu (mid-conversation). */
  readonly stayOffered?: boolean;
  /** Advisory relevance shares for the envelope (full-softmax, 0..1). */
  readonly relevance?: ReadonlyArray<{ readonly id: string; readonly relevance: number }>;
  /** The evidence a tier-1 `match:` rule routed on; present only on `by: 'entry'`. */
  readonly witness?: RouteWitness;
}
