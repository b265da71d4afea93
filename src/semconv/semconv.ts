/**
 * semconv — every span name, event name and attribute key routescope writes or reads, in one place.
 *
 * The instrumentation writes these keys; the readers rebuild decisions from them; the collector pipelines,
 * dashboards, alert rules and docs/semconv.md name the same strings, and tests check that they agree.
 * Custom keys live under `agentfootprint.routing.*` (the framework already owns `agentfootprint.*`);
 * correlation reuses the GenAI keys. Ranked candidates are parallel arrays (see docs/semconv.md for why).
 * No I/O.
 */

/** Version of the attribute layout below; readers refuse to guess about a layout newer than they know. */
export const ROUTING_RECORD_VERSION = 1;

/** Span for one tier-2 `decideTier2` call. */
export const SPAN_ROUTING_TIER2 = 'agentfootprint.routing.tier2';
/** Span (or attributes on the caller's span) for the turn-level route: tiers 1 and 3 included. */
export const SPAN_ROUTING_TURN = 'agentfootprint.routing.turn';
/** Span carrying a misroute mark added after the fact, for a trace whose routing span has already ended. */
export const SPAN_ROUTING_FEEDBACK = 'agentfootprint.routing.feedback';
/** Span event marking a routed turn as misrouted (a correctness signal added after the fact). */
export const EVENT_ROUTING_MISROUTED = 'agentfootprint.routing.misrouted';

// — record layout —
export const ATTR_ROUTING_RECORD_VERSION = 'agentfootprint.routing.record_version';
// — where the decision was made —
export const ATTR_ROUTING_ROUTER = 'agentfootprint.routing.router';
export const ATTR_ROUTING_TIER = 'agentfootprint.routing.tier';
// — the verdict —
export const ATTR_ROUTING_VERDICT = 'agentfootprint.routing.verdict';
export const ATTR_ROUTING_TO = 'agentfootprint.routing.to';
export const ATTR_ROUTING_OFFERED = 'agentfootprint.routing.offered';
export const ATTR_ROUTING_DECISIVE = 'agentfootprint.routing.decisive';
export const ATTR_ROUTING_NEAR_TIE = 'agentfootprint.routing.near_tie';
// — the ranked candidates (parallel arrays, best first) —
export const ATTR_ROUTING_CANDIDATE_COUNT = 'agentfootprint.routing.candidate.count';
export const ATTR_ROUTING_CANDIDATE_ALIVE_COUNT = 'agentfootprint.routing.candidate.alive_count';
export const ATTR_ROUTING_CANDIDATE_OMITTED = 'agentfootprint.routing.candidate.omitted';
export const ATTR_ROUTING_CANDIDATE_IDS = 'agentfootprint.routing.candidate.ids';
export const ATTR_ROUTING_CANDIDATE_SCORES = 'agentfootprint.routing.candidate.scores';
export const ATTR_ROUTING_CANDIDATE_RELEVANCES = 'agentfootprint.routing.candidate.relevances';
export const ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES = 'agentfootprint.routing.candidate.nonfinite_indexes';
export const ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES = 'agentfootprint.routing.candidate.nonfinite_values';
// — the top and the runner-up —
export const ATTR_ROUTING_TOP_ID = 'agentfootprint.routing.top.id';
export const ATTR_ROUTING_TOP_SCORE = 'agentfootprint.routing.top.score';
export const ATTR_ROUTING_TOP_RELEVANCE = 'agentfootprint.routing.top.relevance';
export const ATTR_ROUTING_RUNNER_UP_ID = 'agentfootprint.routing.runner_up.id';
export const ATTR_ROUTING_RUNNER_UP_GAP = 'agentfootprint.routing.runner_up.gap';
// — the incumbent —
export const ATTR_ROUTING_INCUMBENT_ID = 'agentfootprint.routing.incumbent.id';
export const ATTR_ROUTING_INCUMBENT_SCORED = 'agentfootprint.routing.incumbent.scored';
// — the thresholds that judged —
export const ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN = 'agentfootprint.routing.policy.near_tie_margin';
export const ATTR_ROUTING_POLICY_MENU_SIZE = 'agentfootprint.routing.policy.menu_size';
export const ATTR_ROUTING_POLICY_FLOOR = 'agentfootprint.routing.policy.floor';
export const ATTR_ROUTING_SCORER_NAME = 'agentfootprint.routing.scorer.name';
export const ATTR_ROUTING_SCORER_FLOOR = 'agentfootprint.routing.scorer.floor';
export const ATTR_ROUTING_SCORER_CATEGORICAL = 'agentfootprint.routing.scorer.categorical';
export const ATTR_ROUTING_EFFECTIVE_FLOOR = 'agentfootprint.routing.effective_floor';
export const ATTR_ROUTING_FLOOR_DECLARED = 'agentfootprint.routing.floor_declared';
/**
 * Where the effective floor came from when the span cannot say it otherwise: `effective` = only the floor
 * that judged is known (an agentfootprint event's), so no `policy.floor` or `scorer.floor` is written. Absent:
 * the floor's source is told by which of `policy.floor` and `scorer.floor` the span carries.
 */
export const ATTR_ROUTING_FLOOR_SOURCE = 'agentfootprint.routing.floor_source';
/** The value of `agentfootprint.routing.floor_source` on a span whose only known floor is the effective one. */
export const FLOOR_SOURCE_EFFECTIVE = 'effective';
/** Which published behaviour of the policy judged: `contract` or `agentfootprint-9.62` (absent = unknown). */
export const ATTR_ROUTING_POLICY_SEMANTICS = 'agentfootprint.routing.policy.semantics';
/** How many prior turns the scorer saw (the classifier's window), when the framework reports it. */
export const ATTR_ROUTING_SCORER_WINDOW = 'agentfootprint.routing.scorer.window';
// — a decision rebuilt from the framework's turn_routed event —
/** Which path wrote the record: `wrapper` (instrumentDecideTier2) or `turn_routed` (the framework's event). */
export const ATTR_ROUTING_SOURCE = 'agentfootprint.routing.source';
/** The verdict the configured behaviour gives on the event's own numbers (the event carries no kind). */
export const ATTR_ROUTING_REBUILT_VERDICT = 'agentfootprint.routing.rebuilt.verdict';
/** Where that rebuilt verdict and what the event says happened disagree, one line each (absent = they agree). */
export const ATTR_ROUTING_REBUILT_DIFFERENCES = 'agentfootprint.routing.rebuilt.differences';
// — the turn-level route (tiers 1 and 3) —
export const ATTR_ROUTING_BY = 'agentfootprint.routing.by';
export const ATTR_ROUTING_FROM = 'agentfootprint.routing.from';
export const ATTR_ROUTING_STAY_OFFERED = 'agentfootprint.routing.stay_offered';
export const ATTR_ROUTING_WITNESS_TEXT = 'agentfootprint.routing.witness.text';
export const ATTR_ROUTING_WITNESS_KEYWORD = 'agentfootprint.routing.witness.keyword';
export const ATTR_ROUTING_DROPPED_RESUME_ID = 'agentfootprint.routing.dropped_resume.id';
export const ATTR_ROUTING_DROPPED_RESUME_REASON = 'agentfootprint.routing.dropped_resume.reason';
export const ATTR_ROUTING_DECIDER_PROVIDER = 'agentfootprint.routing.decider.provider';
export const ATTR_ROUTING_DECIDER_MODEL = 'agentfootprint.routing.decider.model';
export const ATTR_ROUTING_DECIDER_PICKED = 'agentfootprint.routing.decider.picked';
// — the misroute mark (event attributes) —
export const ATTR_ROUTING_MISROUTE_EXPECTED = 'agentfootprint.routing.misroute.expected';
export const ATTR_ROUTING_MISROUTE_REASON = 'agentfootprint.routing.misroute.reason';
export const ATTR_ROUTING_MISROUTE_SOURCE = 'agentfootprint.routing.misroute.source';

// — GenAI semantic-convention keys reused for correlation —
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
export const ATTR_GEN_AI_AGENT_ID = 'gen_ai.agent.id';
// — resource key readers group by —
export const ATTR_SERVICE_NAME = 'service.name';

/** Every routing key above, for the tests that check docs, dashboards and pipelines against this module. */
export const ROUTING_ATTRIBUTE_KEYS = [
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
  ATTR_ROUTING_FLOOR_SOURCE,
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
] as const;

/** The GenAI and resource keys routescope reads or writes besides its own. */
export const CORRELATION_ATTRIBUTE_KEYS = [
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_AGENT_ID,
  ATTR_SERVICE_NAME,
] as const;

/** Span and event names routescope writes. */
export const ROUTING_SPAN_AND_EVENT_NAMES = [
  SPAN_ROUTING_TIER2,
  SPAN_ROUTING_TURN,
  SPAN_ROUTING_FEEDBACK,
  EVENT_ROUTING_MISROUTED,
] as const;
