/**
 * metricNames — every metric name, metric attribute key and Prometheus series/label name routescope uses.
 *
 * Two label sets carry the same facts: the Collector's `spanmetrics` connector turning routing spans into
 * `traces_span_metrics_*` series, and the direct metrics the instrumentation records when given a meter
 * provider. Both use the span attribute keys of semconv.ts as metric attribute keys, so both reach Prometheus
 * with the same label names (`agentfootprint.routing.router` → `agentfootprint_routing_router`); only the
 * series names differ. Alert rules, dashboards and their tests name these constants' strings.
 * Names follow the OTel naming rules: one universe for metric and attribute names (so the gap histogram is not
 * called `agentfootprint.routing.runner_up.gap`, which is already an attribute), a counter of discrete things
 * with a `{…}` unit is plural, no `total` in OTel names. The Prometheus spellings are those of the OTel JS
 * Prometheus exporter: invalid characters → `_`, a monotonic sum gains `_total`, a histogram becomes
 * `_bucket`/`_sum`/`_count`, and no unit suffix is added.
 * No I/O.
 */
import {
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_VERDICT,
  SPAN_ROUTING_TIER2,
} from './semconv.js';

/** Counter: one per tier-2 decision, with the attributes of ROUTING_METRIC_ATTRIBUTE_KEYS. */
export const METRIC_ROUTING_DECISIONS = 'agentfootprint.routing.decisions';
/** Unit of METRIC_ROUTING_DECISIONS (an annotation: no Prometheus suffix comes of it). */
export const METRIC_ROUTING_DECISIONS_UNIT = '{decision}';
/** Histogram: the pairwise runner-up gap `tanh((top − runnerUp) / 2)`, recorded when a runner-up exists. */
export const METRIC_ROUTING_GAP = 'agentfootprint.routing.gap';
/** Unit of METRIC_ROUTING_GAP: dimensionless, 0..1. */
export const METRIC_ROUTING_GAP_UNIT = '1';
/**
 * Bucket boundaries for METRIC_ROUTING_GAP. The default near-tie margin (0.15) is a boundary, so the
 * `le="0.15"` bucket counts the near-ties under the default policy.
 */
export const DEFAULT_GAP_HISTOGRAM_BOUNDARIES: readonly number[] = Object.freeze([
  0.01, 0.025, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.3, 0.5, 0.75, 1,
]);

/**
 * The attribute keys of both metrics — and the spanmetrics dimensions. Bounded by design: routers and scorers
 * are configured names, verdict has four values, the flags two. Candidate ids are never metric attributes.
 */
export const ROUTING_METRIC_ATTRIBUTE_KEYS = [
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_VERDICT,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_FLOOR_DECLARED,
] as const;

/** Value for the router or scorer attribute when the caller configured none (also the spanmetrics default). */
export const METRIC_ATTRIBUTE_UNSET = 'unknown';

/**
 * Resource key the alert rules read "production" from. The instrumentation never writes it; the host's SDK
 * resource does. spanmetrics looks dimensions up in resource attributes too; the JS Prometheus exporter
 * copies it onto every series with `withResourceConstantLabels: /^deployment\.environment\.name$/`.
 */
export const RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME = 'deployment.environment.name';

/** The spanmetrics connector namespace the collector configs set (also the current default). */
export const SPANMETRICS_NAMESPACE = 'traces.span.metrics';

/** A metric or attribute name as the OTel JS Prometheus exporter writes it: invalid characters → `_`, runs collapsed. */
export function toPrometheusName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_]/g, '_').replace(/_{2,}/g, '_');
}

// — Prometheus series names —
/** METRIC_ROUTING_DECISIONS in Prometheus (a monotonic sum gains `_total`). */
export const PROM_ROUTING_DECISIONS_TOTAL = 'agentfootprint_routing_decisions_total';
/** METRIC_ROUTING_GAP buckets in Prometheus. */
export const PROM_ROUTING_GAP_BUCKET = 'agentfootprint_routing_gap_bucket';
/** METRIC_ROUTING_GAP sum in Prometheus. */
export const PROM_ROUTING_GAP_SUM = 'agentfootprint_routing_gap_sum';
/** METRIC_ROUTING_GAP count in Prometheus. */
export const PROM_ROUTING_GAP_COUNT = 'agentfootprint_routing_gap_count';
/** spanmetrics call counter (one per span) in Prometheus, under SPANMETRICS_NAMESPACE. */
export const PROM_SPANMETRICS_CALLS_TOTAL = 'traces_span_metrics_calls_total';
/** spanmetrics duration histogram buckets in Prometheus (unit ms → `_milliseconds`, added by the Collector). */
export const PROM_SPANMETRICS_DURATION_BUCKET = 'traces_span_metrics_duration_milliseconds_bucket';

/** Every Prometheus series name the alert rules and dashboards may read. */
export const PROMETHEUS_SERIES_NAMES = [
  PROM_ROUTING_DECISIONS_TOTAL,
  PROM_ROUTING_GAP_BUCKET,
  PROM_ROUTING_GAP_SUM,
  PROM_ROUTING_GAP_COUNT,
  PROM_SPANMETRICS_CALLS_TOTAL,
  PROM_SPANMETRICS_DURATION_BUCKET,
] as const;

// — Prometheus label names —
/** Router label (both label sets). */
export const PROM_LABEL_ROUTER = 'agentfootprint_routing_router';
/** Scorer-name label (both label sets). */
export const PROM_LABEL_SCORER = 'agentfootprint_routing_scorer_name';
/** Verdict label (both label sets). */
export const PROM_LABEL_VERDICT = 'agentfootprint_routing_verdict';
/** Near-tie label, "true" / "false" (both label sets). */
export const PROM_LABEL_NEAR_TIE = 'agentfootprint_routing_near_tie';
/** Floor-declared label, "true" / "false" (both label sets). */
export const PROM_LABEL_FLOOR_DECLARED = 'agentfootprint_routing_floor_declared';
/** Environment label, from RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME. */
export const PROM_LABEL_ENVIRONMENT = 'deployment_environment_name';
/** spanmetrics' span-name label; its value for a tier-2 decision is SPAN_ROUTING_TIER2. */
export const PROM_LABEL_SPAN_NAME = 'span_name';
/** The span name spanmetrics series are filtered on. */
export const SPANMETRICS_TIER2_SPAN_NAME = SPAN_ROUTING_TIER2;

/**
 * Labels that are not routing attributes but may appear in rules and dashboards: spanmetrics' defaults,
 * the environment, the histogram bound, the scrape target and the rule files' own `metrics_source`.
 */
export const PROMETHEUS_EXTRA_LABELS = [
  PROM_LABEL_SPAN_NAME,
  'service_name',
  'span_kind',
  'status_code',
  PROM_LABEL_ENVIRONMENT,
  'le',
  'job',
  'instance',
  'metrics_source',
] as const;
