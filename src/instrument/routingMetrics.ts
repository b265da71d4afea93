/**
 * routingMetrics — the tier-2 wrapper's opt-in metrics: a decisions counter and a runner-up gap histogram.
 *
 * For users who run no Collector `spanmetrics`: the same facts the span carries (router, scorer name, verdict,
 * near-tie, floor declared; names in metricNames.ts), recorded on every call whether or not the span records —
 * sampling is a tracing decision, and a rate must count every decision. The instruments are created once per
 * wrapper. A meter, instrument or attribute that throws is logged through the diag channel and dropped, like
 * every other instrumentation failure; the verdict is never touched. Only the @opentelemetry/api metrics API
 * is used: no SDK is probed for, and the caller's meter provider decides where the numbers go.
 * No I/O.
 */
import type { Attributes, Counter, Histogram, MeterProvider } from '@opentelemetry/api';
import type { Tier2Verdict } from '../policy/types.js';
import {
  DEFAULT_GAP_HISTOGRAM_BOUNDARIES,
  METRIC_ATTRIBUTE_UNSET,
  METRIC_ROUTING_DECISIONS,
  METRIC_ROUTING_DECISIONS_UNIT,
  METRIC_ROUTING_GAP,
  METRIC_ROUTING_GAP_UNIT,
} from '../semconv/metricNames.js';
import { INSTRUMENTATION_SCOPE_NAME, logSwallowed } from './safeExecute.js';
import {
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_VERDICT,
} from '../semconv/semconv.js';
import type { Tier2Call } from './types.js';

/** The two instruments of one wrapper. */
export interface RoutingMetrics {
  readonly decisions: Counter;
  readonly gap: Histogram;
}

/** Create the decisions counter and the gap histogram on the provider's `routescope` meter (may throw). */
export function createRoutingMetrics(meterProvider: MeterProvider): RoutingMetrics {
  const meter = meterProvider.getMeter(INSTRUMENTATION_SCOPE_NAME);
  return {
    decisions: meter.createCounter(METRIC_ROUTING_DECISIONS, {
      description: 'Tier-2 routing decisions, by router, scorer, verdict, near-tie and floor-declared.',
      unit: METRIC_ROUTING_DECISIONS_UNIT,
    }),
    gap: meter.createHistogram(METRIC_ROUTING_GAP, {
      description:
        'Pairwise runner-up gap tanh((top - runnerUp) / 2) of tier-2 decisions that had a runner-up.',
      unit: METRIC_ROUTING_GAP_UNIT,
      advice: { explicitBucketBoundaries: [...DEFAULT_GAP_HISTOGRAM_BOUNDARIES] },
    }),
  };
}

/** A configured name as a bounded label value: anything but a non-empty string is METRIC_ATTRIBUTE_UNSET. */
function nameOrUnset(name: unknown): string {
  return typeof name === 'string' && name !== '' ? name : METRIC_ATTRIBUTE_UNSET;
}

/**
 * The metric attributes of one decision, computed exactly as encodeRoutingAttributes computes the span's
 * `verdict`, `near_tie` and `floor_declared`. Pure.
 */
export function buildRoutingMetricAttributes(
  routerName: unknown,
  scorerName: unknown,
  call: Tier2Call,
  verdict: Tier2Verdict,
): Attributes {
  return {
    [ATTR_ROUTING_ROUTER]: nameOrUnset(routerName),
    [ATTR_ROUTING_SCORER_NAME]: nameOrUnset(scorerName),
    [ATTR_ROUTING_VERDICT]: verdict.kind,
    [ATTR_ROUTING_NEAR_TIE]: !verdict.decisive && verdict.runnerUp !== undefined,
    [ATTR_ROUTING_FLOOR_DECLARED]: (call.policy.floor ?? call.scorer?.floor) !== undefined,
  };
}

/**
 * Count one decision and, when it had a runner-up with a finite gap of at least 0, record the gap. Never throws: each
 * instrument runs on its own, so a broken counter does not cost the histogram.
 */
export function recordRoutingMetrics(
  metrics: RoutingMetrics,
  routerName: unknown,
  scorerName: unknown,
  call: Tier2Call,
  verdict: Tier2Verdict,
): void {
  let attrs: Attributes;
  let gap: number | undefined;
  try {
    attrs = buildRoutingMetricAttributes(routerName, scorerName, call, verdict);
    gap = verdict.runnerUp?.gap;
  } catch (err) {
    logSwallowed('building the routing metric attributes', err);
    return;
  }
  try {
    metrics.decisions.add(1, attrs);
  } catch (err) {
    logSwallowed('counting the routing decision', err);
  }
  // A non-finite value would poison the histogram's sum for good, and a histogram takes no negative value (a
  // negative gap needs duplicate ids, judged by their last score); the span records either exactly instead.
  if (typeof gap !== 'number' || !Number.isFinite(gap) || gap < 0) return;
  try {
    metrics.gap.record(gap, attrs);
  } catch (err) {
    logSwallowed('recording the runner-up gap', err);
  }
}
