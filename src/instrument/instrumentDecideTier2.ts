/**
 * instrumentDecideTier2 — one OpenTelemetry span per tier-2 routing call, holding everything needed to rebuild
 * and re-judge the decision offline. Depends on `@opentelemetry/api` alone.
 *
 * routing call                span (kind INTERNAL)                    attributes (docs/semconv.md)
 * --------------------------  --------------------------------------  --------------------------------------
 * decideTier2 (wrapped)       agentfootprint.routing.tier2            verdict, to, offered, decisive,
 *                                                                     near_tie, candidate.*, top.*,
 *                                                                     runner_up.*, incumbent.*, policy.*,
 *                                                                     scorer.*, effective_floor,
 *                                                                     floor_declared, router, gen_ai.*,
 *                                                                     policy.semantics, source
 * recordTurnRoute (tier 1/3)  agentfootprint.routing.turn, or yours   by, from, to, offered, stay_offered,
 *                                                                     witness.*, decider.*, dropped_resume.*
 * markMisrouted               event agentfootprint.routing.misrouted  misroute.expected, .reason, .source
 *                             (on agentfootprint.routing.feedback
 *                             once the routing span has ended)
 *
 * PII rule: no user text by default. Witness text (the matched words of the user message) is recorded only with
 * `recordWitness: true`, and then through `redactWitness`; the witness keyword (the rule's own word) always is.
 * The wrapper never throws into the host and never changes its result; with no SDK, or a span that is not
 * recording, it builds no attribute at all — the hot path allocates nothing of its own before that check.
 * Metrics (opt-in, `meterProvider`): every call that returns a verdict is counted and its runner-up gap recorded
 * (routingMetrics.ts), whether or not its span records; a call that throws is counted by no metric.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, Span, SpanOptions } from '@opentelemetry/api';
import type { DecideTier2, IntentScore, RoutingPolicy, ScorerTraits, Tier2Verdict } from '../policy/types.js';
import { writeRoutingAttributes } from './encodeRoutingAttributes.js';
import { resolveInstrumentationConfig } from './resolveInstrumentationConfig.js';
import { addRoutingContext, putString } from './addRoutingContext.js';
import { createRoutingMetrics, recordRoutingMetrics } from './routingMetrics.js';
import type { RoutingMetrics } from './routingMetrics.js';
import {
  createRecordingProbe,
  endQuietly,
  INSTRUMENTATION_SCOPE_NAME,
  logSwallowed,
  safeExecute,
  startRecordingSpan,
} from './safeExecute.js';
import { policySemanticsOf } from '../policy/routingPolicy.js';
import {
  ATTR_ROUTING_POLICY_SEMANTICS,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_SOURCE,
  SPAN_ROUTING_TIER2,
} from '../semconv/semconv.js';
import type {
  InstrumentationConfig,
  ResolvedInstrumentationConfig,
  RoutingContext,
  Tier2Call,
} from './types.js';

// Stryker disable next-line ObjectLiteral: equivalent for the OpenTelemetry SDK, whose default span kind is INTERNAL.
const TIER2_SPAN_OPTIONS: SpanOptions = Object.freeze({ kind: SpanKind.INTERNAL });

/** The value of `agentfootprint.routing.source` on spans the wrapper writes. */
export const ROUTING_SOURCE_WRAPPER = 'wrapper';

/**
 * Wrap a `decideTier2` so every call records one span (child of the active context), and with a
 * `meterProvider` also the routing metrics. The wrapper returns the very verdict object `decide` returned, and
 * rethrows whatever it throws, unchanged, after recording it.
 */
export function instrumentDecideTier2(decide: DecideTier2, config?: InstrumentationConfig): DecideTier2 {
  const resolved = safeExecute('resolving the instrumentation config', () =>
    resolveInstrumentationConfig(config),
  );
  if (resolved === undefined) return decide;
  const settings: ResolvedInstrumentationConfig =
    resolved.policySemantics === undefined
      ? { ...resolved, policySemantics: policySemanticsOf(decide) }
      : resolved;
  const tracer = safeExecute('getting a tracer', () =>
    settings.tracerProvider.getTracer(INSTRUMENTATION_SCOPE_NAME),
  );
  const meterProvider = settings.meterProvider;
  const metrics =
    meterProvider === undefined
      ? undefined
      : safeExecute('creating the routing metrics', () => createRoutingMetrics(meterProvider));
  if (tracer === undefined && metrics === undefined) return decide;
  const mayRecord = createRecordingProbe(settings.tracerProvider);

  return function instrumentedDecideTier2(
    scores: readonly IntentScore[],
    incumbentId: string | undefined,
    policy: RoutingPolicy,
    scorer?: ScorerTraits,
  ): Tier2Verdict {
    const span =
      tracer === undefined || !mayRecord()
        ? undefined
        : startRecordingSpan(tracer, SPAN_ROUTING_TIER2, TIER2_SPAN_OPTIONS);
    if (span === undefined) {
      if (metrics === undefined) return decide(scores, incumbentId, policy, scorer);
      return decideAndCount(metrics, settings, decide, scores, incumbentId, policy, scorer);
    }
    return decideAndRecord(span, settings, metrics, decide, scores, incumbentId, policy, scorer);
  };
}

/** No recording span: decide, then feed the metrics alone (a throw passes through untouched and uncounted). */
function decideAndCount(
  metrics: RoutingMetrics,
  settings: ResolvedInstrumentationConfig,
  decide: DecideTier2,
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  scorer: ScorerTraits | undefined,
): Tier2Verdict {
  const verdict = decide(scores, incumbentId, policy, scorer);
  const call: Tier2Call = { scores, incumbentId, policy, scorer: scorer ?? settings.scorerTraits };
  recordRoutingMetrics(metrics, settings.routerName, resolveScorerName(settings, call), call, verdict);
  return verdict;
}

function decideAndRecord(
  span: Span,
  settings: ResolvedInstrumentationConfig,
  metrics: RoutingMetrics | undefined,
  decide: DecideTier2,
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  scorer: ScorerTraits | undefined,
): Tier2Verdict {
  const call: Tier2Call = { scores, incumbentId, policy, scorer: scorer ?? settings.scorerTraits };
  let verdict: Tier2Verdict;
  try {
    verdict = decide(scores, incumbentId, policy, scorer);
  } catch (err) {
    recordFailure(span, settings, call, err);
    throw err;
  }
  // One call of a per-call scorerName function serves both the span and the metrics.
  const scorerName = resolveScorerName(settings, call);
  recordVerdict(span, settings, call, verdict, scorerName);
  endQuietly(span);
  if (metrics !== undefined) recordRoutingMetrics(metrics, settings.routerName, scorerName, call, verdict);
  return verdict;
}

function recordVerdict(
  span: Span,
  settings: ResolvedInstrumentationConfig,
  call: Tier2Call,
  verdict: Tier2Verdict,
  scorerName: unknown,
): void {
  // Straight onto the span, key by key in the documented order: no intermediate 20-odd-key object for the SDK
  // to walk and copy (the SDK validates each value the same way either way). A throw part-way is logged and
  // leaves the keys set so far; the reader reports such a span as incomplete, never as a decision.
  try {
    writeRoutingAttributes(span, call, verdict, settings.maxRecordedCandidates);
  } catch (err) {
    logSwallowed('setting the tier-2 attributes', err);
  }
  const attrs: Attributes = {};
  addCallAttributes(attrs, settings, call, scorerName);
  safeExecute('setting the call attributes', () => span.setAttributes(attrs));
  const hook = settings.attributesHook;
  if (hook !== undefined) safeExecute('the attributesHook', () => hook(span, call, verdict));
}

function recordFailure(
  span: Span,
  settings: ResolvedInstrumentationConfig,
  call: Tier2Call,
  err: unknown,
): void {
  const attrs: Attributes = {};
  addCallAttributes(attrs, settings, call, resolveScorerName(settings, call));
  safeExecute('recording the routing error', () => {
    span.setAttributes(attrs);
    // Stryker disable next-line StringLiteral: equivalent — String() of a string is that string.
    span.recordException(err instanceof Error || typeof err === 'string' ? err : String(err));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: err instanceof Error ? err.message : 'decideTier2 threw a non-Error value',
    });
  });
  endQuietly(span);
}

/** The scorer name of one call: the static one, or what the function returns (a throw is logged: none). */
function resolveScorerName(settings: ResolvedInstrumentationConfig, call: Tier2Call): unknown {
  const scorerName = settings.scorerName;
  return typeof scorerName === 'function'
    ? safeExecute('the scorerName function', () => scorerName(call))
    : scorerName;
}

/** Router, scorer name and correlation ids; each user function runs on its own so one failure loses one key. */
function addCallAttributes(
  attrs: Attributes,
  settings: ResolvedInstrumentationConfig,
  call: Tier2Call,
  scorerName: unknown,
): void {
  putString(attrs, ATTR_ROUTING_ROUTER, settings.routerName);
  putString(attrs, ATTR_ROUTING_SCORER_NAME, scorerName);
  putString(attrs, ATTR_ROUTING_POLICY_SEMANTICS, settings.policySemantics);
  attrs[ATTR_ROUTING_SOURCE] = ROUTING_SOURCE_WRAPPER;
  const context = settings.context;
  const ids: RoutingContext | undefined =
    typeof context === 'function' ? safeExecute('the context function', () => context(call)) : context;
  if (ids !== undefined && ids !== null) {
    safeExecute('reading the routing context', () => addRoutingContext(attrs, ids));
  }
}
