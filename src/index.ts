/**
 * routescope — public exports, listed by name.
 *
 * The policy (pure, dependency-free) and the instrumentation (depends on @opentelemetry/api alone) are the
 * library; the analyzer is the `routescope` CLI.
 */
export {
  decideTier2,
  resolveRoutingPolicy,
  menuOutstanding,
  isNearTie,
  pairwiseGap,
  softmaxRelevance,
  sanitizeScore,
  effectiveFloor,
  NEAR_TIE_MARGIN,
  MENU_SIZE,
  DEFAULT_ROUTING_POLICY,
} from './policy/routingPolicy.js';
export type {
  IntentScore,
  RoutingPolicy,
  ScorerTraits,
  RankedIntentScore,
  Tier2Numbers,
  Tier2Verdict,
  Tier2VerdictKind,
  DecideTier2,
  RouteWitness,
  TurnRoute,
  TurnRouteBy,
} from './policy/types.js';
export * from './instrument/semconv.js';
