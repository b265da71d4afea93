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
export {
  ROUTING_RECORD_VERSION,
  SPAN_ROUTING_TIER2,
  SPAN_ROUTING_TURN,
  SPAN_ROUTING_FEEDBACK,
  EVENT_ROUTING_MISROUTED,
  ATTR_ROUTING_RECORD_VERSION,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_TIER,
  ATTR_ROUTING_VERDICT,
  ATTR_ROUTING_TO,
  ATTR_ROUTING_OFFERED,
  ATTR_ROUTING_DECISIVE,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_CANDIDATE_COUNT,
  ATTR_ROUTING_CANDIDATE_ALIVE_COUNT,
  ATTR_ROUTING_CANDIDATE_OMITTED,
  ATTR_ROUTING_CANDIDATE_IDS,
  ATTR_ROUTING_CANDIDATE_SCORES,
  ATTR_ROUTING_CANDIDATE_RELEVANCES,
  ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES,
  ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES,
  ATTR_ROUTING_TOP_ID,
  ATTR_ROUTING_TOP_SCORE,
  ATTR_ROUTING_TOP_RELEVANCE,
  ATTR_ROUTING_RUNNER_UP_ID,
  ATTR_ROUTING_RUNNER_UP_GAP,
  ATTR_ROUTING_INCUMBENT_ID,
  ATTR_ROUTING_INCUMBENT_SCORED,
  ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN,
  ATTR_ROUTING_POLICY_MENU_SIZE,
  ATTR_ROUTING_POLICY_FLOOR,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_SCORER_FLOOR,
  ATTR_ROUTING_SCORER_CATEGORICAL,
  ATTR_ROUTING_EFFECTIVE_FLOOR,
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_POLICY_SEMANTICS,
  ATTR_ROUTING_SCORER_WINDOW,
  ATTR_ROUTING_SOURCE,
  ATTR_ROUTING_REBUILT_VERDICT,
  ATTR_ROUTING_REBUILT_DIFFERENCES,
  ATTR_ROUTING_BY,
  ATTR_ROUTING_FROM,
  ATTR_ROUTING_STAY_OFFERED,
  ATTR_ROUTING_WITNESS_TEXT,
  ATTR_ROUTING_WITNESS_KEYWORD,
  ATTR_ROUTING_DROPPED_RESUME_ID,
  ATTR_ROUTING_DROPPED_RESUME_REASON,
  ATTR_ROUTING_DECIDER_PROVIDER,
  ATTR_ROUTING_DECIDER_MODEL,
  ATTR_ROUTING_DECIDER_PICKED,
  ATTR_ROUTING_MISROUTE_EXPECTED,
  ATTR_ROUTING_MISROUTE_REASON,
  ATTR_ROUTING_MISROUTE_SOURCE,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_AGENT_ID,
  ATTR_SERVICE_NAME,
  ROUTING_ATTRIBUTE_KEYS,
  CORRELATION_ATTRIBUTE_KEYS,
  ROUTING_SPAN_AND_EVENT_NAMES,
} from './semconv/semconv.js';
export {
  METRIC_ROUTING_DECISIONS,
  METRIC_ROUTING_DECISIONS_UNIT,
  METRIC_ROUTING_GAP,
  METRIC_ROUTING_GAP_UNIT,
  DEFAULT_GAP_HISTOGRAM_BOUNDARIES,
  ROUTING_METRIC_ATTRIBUTE_KEYS,
  METRIC_ATTRIBUTE_UNSET,
  RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME,
  SPANMETRICS_NAMESPACE,
  toPrometheusName,
  PROM_ROUTING_DECISIONS_TOTAL,
  PROM_ROUTING_GAP_BUCKET,
  PROM_ROUTING_GAP_SUM,
  PROM_ROUTING_GAP_COUNT,
  PROM_SPANMETRICS_CALLS_TOTAL,
  PROM_SPANMETRICS_DURATION_BUCKET,
  PROMETHEUS_SERIES_NAMES,
  PROM_LABEL_ROUTER,
  PROM_LABEL_SCORER,
  PROM_LABEL_VERDICT,
  PROM_LABEL_NEAR_TIE,
  PROM_LABEL_FLOOR_DECLARED,
  PROM_LABEL_ENVIRONMENT,
  PROM_LABEL_SPAN_NAME,
  SPANMETRICS_TIER2_SPAN_NAME,
  PROMETHEUS_EXTRA_LABELS,
} from './semconv/metricNames.js';
export { instrumentDecideTier2 } from './instrument/instrumentDecideTier2.js';
export { routescopeObservability } from './instrument/routescopeObservability.js';
export type {
  RoutescopeObservability,
  RoutescopeObservabilityConfig,
} from './instrument/routescopeObservability.js';
export { STRATEGY_EVENT_TYPES, TURNS_BEFORE_NO_ROUTING_WARNING } from './instrument/strategyStatus.js';
export type { RoutescopeObservabilityStatus } from './instrument/strategyStatus.js';
export type { NothingRecorded, NothingRecordedCode } from './instrument/types.js';
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
