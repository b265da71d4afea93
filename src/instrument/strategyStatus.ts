/**
 * strategyStatus — what the agentfootprint strategy has seen and recorded, and, while it has recorded nothing,
 * why: the setups that give zero routing spans without an error anywhere.
 *
 * Four silent zeros are told apart here (docs/instrumentation.md, "Nothing shows up?"):
 * - events arrive but never a `turn_routed`, and only `agent.*` / `error.*` ones: the observability tier is
 *   `'minimal'`, which lets only those through;
 * - events of other kinds arrive too, but never a `turn_routed`: the skill graph does not run the routing
 *   cascade (no `classify`, no `continuity: 'conversation'`);
 * - `turn_routed` events arrive and no SDK is reachable: none is registered, or one is, through a copy of
 *   @opentelemetry/api that routescope's copy cannot share globals with (tracerSource tells which);
 * - an SDK is reached and its sampler records none of the routing spans.
 * The first three are told once through diag (`warn`); sampling is the app's own choice, so the last is not
 * warned about. Every one stays readable in `status()`. The tally is counters and one flag,
 * so an event routescope only counts costs a comparison or two; the reasons are worked out when asked.
 */
import { TURN_ROUTED_EVENT_TYPE } from '../policy/turnRoutedEvent.js';
import { tell } from './safeExecute.js';
import type { TracerSource } from './tracerSource.js';
import type { NothingRecorded } from './types.js';

/** The framework's event for a finished agent turn: `agent.*`, so every observability tier passes it. */
export const TURN_END_EVENT_TYPE = 'agentfootprint.agent.turn_end';
/** The framework's event for an LLM call: not `agent.*` nor `error.*`, so the `'minimal'` tier drops it. */
export const LLM_START_EVENT_TYPE = 'agentfootprint.stream.llm_start';
/**
 * The event types the strategy asks the framework for (`relevantEventTypes`): `turn_routed`, which it records,
 * and two it only counts, to tell why no `turn_routed` comes. `composeObservability` passes every type anyway.
 */
export const STRATEGY_EVENT_TYPES: readonly string[] = [
  TURN_ROUTED_EVENT_TYPE,
  TURN_END_EVENT_TYPE,
  LLM_START_EVENT_TYPE,
];
/** Finished turns without one `turn_routed` before the strategy says so (a cold start may emit none). */
export const TURNS_BEFORE_NO_ROUTING_WARNING = 3;

/** A snapshot of what the strategy has seen and recorded (`strategy.status()`). */
export interface RoutescopeObservabilityStatus {
  /** Events handed to `exportEvent` (before `stop`), of every type. */
  readonly eventsReceived: number;
  /** Of those, `agentfootprint.skill.turn_routed` events. */
  readonly turnsReceived: number;
  /** Of those, the turns no OpenTelemetry SDK could record: the tracer provider was still the API's no-op. */
  readonly turnsWithoutSdk: number;
  /** True once a routed turn found an SDK behind the tracer provider. */
  readonly sdkFound: boolean;
  /** Routing spans (`agentfootprint.routing.tier2` and `.turn`) the SDK recorded. */
  readonly spansRecorded: number;
  /** `agentfootprint.agent.turn_end` events: finished agent turns. */
  readonly turnsEnded: number;
  /**
   * Events handed to `exportEvent` while it was recording another (an attributesHook or a span processor that
   * calls it): dropped, not recorded, and told once through diag.
   */
  readonly reentrantDropped: number;
  /** While `spansRecorded` is 0: why; `null` once a routing span was recorded. */
  readonly reason: NothingRecorded | null;
}

/** The counters behind `status()`, kept by the strategy as events arrive. */
export interface StrategyTally {
  /** An event of another type than `turn_routed` (its `type`, whatever it is). */
  otherEvent(type: unknown): void;
  /** A `turn_routed` event. */
  turnRouted(): void;
  /** Routing spans recorded for one turn. */
  recorded(spans: number): void;
  /** An event handed to `exportEvent` from inside `exportEvent`: dropped. */
  reentered(): void;
  status(): RoutescopeObservabilityStatus;
}

/** A tally for one strategy, reading the SDK's side from `tracers`. */
export function createStrategyTally(tracers: TracerSource): StrategyTally {
  let eventsReceived = 0;
  let turnsReceived = 0;
  let turnsEnded = 0;
  let spansRecorded = 0;
  let reentrantDropped = 0;
  // An event the `'minimal'` tier would have dropped has arrived: the tier is not 'minimal'.
  let sawOtherKinds = false;
  let toldNoRouting = false;

  const reason = (): NothingRecorded | null => {
    if (spansRecorded > 0) return null;
    if (eventsReceived === 0) return NO_EVENTS;
    if (turnsReceived === 0) {
      if (turnsEnded < TURNS_BEFORE_NO_ROUTING_WARNING) return NO_TURN_ROUTED_YET;
      return sawOtherKinds ? NO_ROUTING_CASCADE : MINIMAL_TIER;
    }
    if (!tracers.sdkFound) return tracers.whyNoSdk();
    return NOT_SAMPLED;
  };

  return {
    otherEvent(type) {
      eventsReceived++;
      // Every finished turn is counted; what the other events say matters only until a turn was routed.
      if (type === TURN_END_EVENT_TYPE) turnsEnded++;
      if (turnsReceived > 0) return;
      if (type !== TURN_END_EVENT_TYPE && !sawOtherKinds && !passesMinimalTier(type)) sawOtherKinds = true;
      if (!toldNoRouting && turnsEnded >= TURNS_BEFORE_NO_ROUTING_WARNING) {
        toldNoRouting = true;
        tell((sawOtherKinds ? NO_ROUTING_CASCADE : MINIMAL_TIER).message);
      }
    },
    turnRouted() {
      eventsReceived++;
      turnsReceived++;
    },
    recorded(spans) {
      spansRecorded += spans;
    },
    reentered() {
      if (reentrantDropped++ === 0) tell(REENTERED);
    },
    status: () => ({
      eventsReceived,
      turnsReceived,
      turnsWithoutSdk: tracers.turnsWithoutSdk,
      sdkFound: tracers.sdkFound,
      spansRecorded,
      turnsEnded,
      reentrantDropped,
      reason: reason(),
    }),
  };
}

/** What the framework's `'minimal'` observability tier lets through: `agentfootprint.error.*` and `.agent.*`. */
function passesMinimalTier(type: unknown): boolean {
  return (
    typeof type === 'string' &&
    (type.startsWith('agentfootprint.agent.') || type.startsWith('agentfootprint.error.'))
  );
}

const STATUS_HINT = '(`strategy.status()`; docs/instrumentation.md, "Nothing shows up?")';

const NO_EVENTS: NothingRecorded = {
  code: 'no-events',
  message:
    'no agentfootprint event has reached the strategy: pass it to `agent.enable.observability({ strategy })` ' +
    `(or add it to composeObservability) before the agent runs ${STATUS_HINT}`,
};

const NO_TURN_ROUTED_YET: NothingRecorded = {
  code: 'no-turn-routed-yet',
  message:
    `events arrive but no ${TURN_ROUTED_EVENT_TYPE} yet, and fewer than ${TURNS_BEFORE_NO_ROUTING_WARNING} ` +
    `agent turns have finished: too early to tell why ${STATUS_HINT}`,
};

const MINIMAL_TIER: NothingRecorded = {
  code: 'minimal-tier',
  message:
    `${TURNS_BEFORE_NO_ROUTING_WARNING} agent turns finished without one ${TURN_ROUTED_EVENT_TYPE} event, and ` +
    "every event that arrived was an agent.* or error.* one: the observability tier is probably 'minimal', which " +
    "lets only those through. Enable it with tier 'standard' (the default): " +
    `agent.enable.observability({ strategy, tier: 'standard' }) ${STATUS_HINT}`,
};

const NO_ROUTING_CASCADE: NothingRecorded = {
  code: 'no-routing-cascade',
  message:
    `${TURNS_BEFORE_NO_ROUTING_WARNING} agent turns finished without one ${TURN_ROUTED_EVENT_TYPE} event, while ` +
    'events of other kinds arrived: the skill graph does not run the routing cascade, which alone emits it. Give ' +
    "the graph a scorer (skillGraph().classify(scorer, policy)) or continuity: 'conversation' " +
    STATUS_HINT,
};

const REENTERED =
  'exportEvent was called from inside exportEvent (an attributesHook, a span processor or a logger that hands ' +
  'events back while one is being recorded): that event was dropped, as is every such call; ' +
  '`strategy.status().reentrantDropped` counts them';

const NOT_SAMPLED: NothingRecorded = {
  code: 'not-sampled',
  message:
    'routed turns found the OpenTelemetry SDK, but its sampler recorded none of the routing spans (a ratio or ' +
    `parent-based sampler, or AlwaysOff): no routing span was recorded ${STATUS_HINT}`,
};
