/**
 * routescope — public exports, listed by name.
 *
 * The policy (pure, dependency-free) and the instrumentation (depends on @opentelemetry/api alone) are the
 * library; the analyzer is the `routescope` CLI.
 */
export {
  decideTier2,
  createDecideTier2,
  policySemanticsOf,
  isAlive,
  POLICY_SEMANTICS,
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
  PolicySemantics,
  RouteWitness,
  TurnRoute,
  TurnRouteBy,
} from './policy/types.js';
export * from './instrument/semconv.js';
export * from './instrument/metricNames.js';
export { instrumentDecideTier2 } from './instrument/instrumentDecideTier2.js';
export { routescopeObservability } from './instrument/routescopeObservability.js';
export type {
  RoutescopeObservability,
  RoutescopeObservabilityConfig,
} from './instrument/routescopeObservability.js';
export { createRunSpanIndex, ATTR_AGENTFOOTPRINT_RUN_ID } from './instrument/runSpanIndex.js';
export type { RunSpanIndex } from './instrument/runSpanIndex.js';
export {
  readTurnRoutedEvent,
  isTurnRoutedEvent,
  TURN_ROUTED_EVENT_TYPE,
  DEFAULT_CATEGORICAL_SCORERS,
} from './policy/turnRoutedEvent.js';
export type {
  TurnRoutedReading,
  TurnRoutedDecision,
  TurnRoutedMeta,
  TurnRoutedInvalid,
  ReadTurnRoutedOptions,
} from './policy/turnRoutedEvent.js';
export { recordTurnRoute } from './instrument/recordTurnRoute.js';
export { markMisrouted } from './instrument/markMisrouted.js';
export {
  DEFAULT_INSTRUMENTATION_CONFIG,
  resolveInstrumentationConfig,
} from './instrument/resolveInstrumentationConfig.js';
export type {
  InstrumentationConfig,
  ResolvedInstrumentationConfig,
  RoutingContext,
  Tier2Call,
  TurnRouteOptions,
  MisrouteMarkInput,
  MisrouteTarget,
  MarkMisroutedOptions,
} from './instrument/types.js';
