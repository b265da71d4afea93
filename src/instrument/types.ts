/**
 * instrument/types — the public options of the routing instrumentation.
 *
 * One config shape for the tier-2 wrapper, and the small option shapes of `recordTurnRoute` and
 * `markMisrouted`. Every field is optional; `resolveInstrumentationConfig` fills the defaults.
 * Types only.
 */
import type { MeterProvider, Span, TracerProvider } from '@opentelemetry/api';
import type {
  IntentScore,
  PolicySemantics,
  RoutingPolicy,
  ScorerTraits,
  Tier2Verdict,
} from '../policy/types.js';

/** The inputs of one `decideTier2` call, as the wrapper saw them. */
export interface Tier2CallInput {
  readonly scores: readonly IntentScore[];
  readonly incumbentId: string | undefined;
  readonly policy: RoutingPolicy;
  readonly scorer?: ScorerTraits;
}

/** The arguments of one tier-2 call, as the wrapper received them. */
export type Tier2Call = Tier2CallInput;

/** Correlation for a routing span: the GenAI conversation and agent it belongs to. */
export interface RoutingContext {
  /** Written as `gen_ai.conversation.id`. */
  readonly conversationId?: string;
  /** Written as `gen_ai.agent.name`. */
  readonly agentName?: string;
}

/** User options of `instrumentDecideTier2`. */
export interface InstrumentationConfig {
  /**
   * Where spans go. @default the global provider (`trace.getTracerProvider()`; a no-op until an SDK registers),
   * read once, when the wrapper is made: with two copies of @opentelemetry/api in the app, wrap after the SDK
   * registers, or pass the provider (routescopeObservability reads it per routed turn instead)
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Also record the decisions counter and the runner-up gap histogram (docs/semconv.md, "Metrics") on this
   * provider's `routescope` meter, for every call, whether or not its span records. Opt-in: nothing global is
   * read. @default undefined (no metrics)
   */
  readonly meterProvider?: MeterProvider;
  /** Which routing graph this router serves, written as `agentfootprint.routing.router`. @default none */
  readonly routerName?: string;
  /** The scorer's name (`keyword`, `embedding`, …), static or per call. @default none */
  readonly scorerName?: string | ((call: Tier2Call) => string | undefined);
  /** Traits recorded when a call passes none (the wrapped function binds its scorer itself); never passed to it. @default none */
  readonly scorerTraits?: ScorerTraits;
  /** Conversation id / agent name, static or per call (only called while a span records). @default none */
  readonly context?: RoutingContext | ((call: Tier2Call) => RoutingContext | undefined);
  /** How many ranked candidates to record, best first; the count left out is recorded. @default 20 */
  readonly maxRecordedCandidates?: number;
  /**
   * Which published behaviour the wrapped function judges by, written as `agentfootprint.routing.policy.semantics`.
   * @default the behaviour of `decide` when it is routescope's `decideTier2` or `createDecideTier2(…)`; else none
   */
  readonly policySemantics?: PolicySemantics;
  /** Adds attributes to a recording span after routescope's own; a throw is logged and ignored. @default none */
  readonly attributesHook?: (span: Span, call: Tier2Call, verdict: Tier2Verdict) => void;
  /** `recordTurnRoute` records tier-1 witness text (user text: PII); the keyword always is. @default false */
  readonly recordWitness?: boolean;
  /** Applied to witness text before it is recorded; a throw drops the text. @default the identity */
  readonly redactWitness?: (text: string) => string;
}

/** The config with every default filled in. */
export interface ResolvedInstrumentationConfig {
  readonly tracerProvider: TracerProvider;
  readonly meterProvider: MeterProvider | undefined;
  readonly routerName: string | undefined;
  readonly scorerName: string | ((call: Tier2Call) => string | undefined) | undefined;
  readonly scorerTraits: ScorerTraits | undefined;
  readonly context: RoutingContext | ((call: Tier2Call) => RoutingContext | undefined) | undefined;
  readonly maxRecordedCandidates: number;
  readonly policySemantics: PolicySemantics | undefined;
  readonly attributesHook: ((span: Span, call: Tier2Call, verdict: Tier2Verdict) => void) | undefined;
  readonly recordWitness: boolean;
  readonly redactWitness: (text: string) => string;
}

/**
 * Options of `recordTurnRoute`: where to record, and the turn facts a `TurnRoute` does not carry. The shared
 * fields mean what they mean in `InstrumentationConfig`, so one config's values can be passed to both.
 */
export interface TurnRouteOptions extends Pick<
  InstrumentationConfig,
  'tracerProvider' | 'routerName' | 'recordWitness' | 'redactWitness'
> {
  /** Record on this span (it is not ended); else a new `agentfootprint.routing.turn` span is started and ended. */
  readonly span?: Span;
  /** Conversation id / agent name for the span. @default none */
  readonly context?: RoutingContext;
  /** The out-of-band tier-3 decider that resolved the menu (`by: 'decider'`). @default none */
  readonly decider?: { readonly provider: string; readonly model?: string; readonly picked?: string };
  /** A resume the cascade dropped (`by: 'none'`): the skill id and why. @default none */
  readonly droppedResume?: { readonly id?: string; readonly reason?: string };
}

/** What a misroute mark says: the skill that should have been picked, why, and who said so. */
export interface MisrouteMarkInput {
  /** The skill id the turn should have gone to. */
  readonly expected?: string;
  /** Why it was wrong (free text: keep user text out of it). */
  readonly reason?: string;
  /** Who marked it (`user-feedback`, `eval`, `human-review`, …). */
  readonly source?: string;
}

/** A routed turn identified by ids, for a mark added after its span ended (another process, later). */
export interface MisrouteTarget {
  /** 32 hex digits. */
  readonly traceId: string;
  /** 16 hex digits: the routing span; the feedback span becomes its child. */
  readonly spanId?: string;
}

/** Options of `markMisrouted`. */
export interface MarkMisroutedOptions {
  /** Where a feedback span goes. @default the global provider */
  readonly tracerProvider?: TracerProvider;
}

/** Why nothing is recorded (`status().reason.code`). */
export type NothingRecordedCode =
  | 'no-events'
  | 'no-turn-routed-yet'
  | 'minimal-tier'
  | 'no-routing-cascade'
  | 'no-sdk'
  | 'sdk-on-another-api-copy'
  | 'provider-without-sdk'
  | 'not-sampled';

/** A reason nothing is recorded: a stable code and a sentence that says what to do. */
export interface NothingRecorded {
  readonly code: NothingRecordedCode;
  readonly message: string;
}
