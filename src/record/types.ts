/**
 * record/types — the normalized decision, turn and misroute records every layer shares.
 *
 * One record per routing span: where it came from (file and line, service, router, scorer, ids, time,
 * conversation) and the full decision as the instrumentation recorded it, with non-finite scores restored.
 * The readers in trace/ produce these records and the analyses take them and nothing else, so a new trace format
 * never touches an analysis; they live on the ground floor so neither layer imports the other.
 * Types only.
 */
import type {
  PolicySemantics,
  RankedIntentScore,
  RoutingPolicy,
  ScorerTraits,
  Tier2VerdictKind,
  TurnRouteBy,
} from '../policy/types.js';

/** The decision itself, as rebuilt from a routing span's attributes. */
export interface RecordedDecision {
  readonly verdict: Tier2VerdictKind;
  /** The skill moved to (`move` only). */
  readonly to?: string;
  /** The near-tie or unmatched menu (`menu` only). */
  readonly offered?: readonly string[];
  readonly decisive: boolean;
  /** At least two alive, not categorical, gap below the margin. */
  readonly nearTie: boolean;
  /** Recorded candidates, best first; raw scores with non-finite ones restored exactly. */
  readonly ranked: readonly RankedIntentScore[];
  /** How many candidates the scorer judged (recorded + omitted). */
  readonly candidateCount: number;
  /** How many candidates the instrumentation left out of `ranked` (its record limit). */
  readonly omitted: number;
  /** Candidates strictly above the effective floor with a finite score, when recorded. */
  readonly aliveCount?: number;
  readonly runnerUp?: { readonly id: string; readonly gap: number };
  readonly incumbent?: { readonly id: string; readonly scored: boolean };
  /**
   * The policy as the caller passed it; `floor` here is the policy's own, and is absent when only the
   * effective floor is known (`floorSource: 'effective'`).
   */
  readonly policy: RoutingPolicy;
  /** The scorer's declared traits. */
  readonly scorerTraits: ScorerTraits;
  /** The floor that judged, `policy.floor ?? scorer.floor`; absent when no floor was declared anywhere. */
  readonly effectiveFloor?: number;
  /**
   * `effective` when only the floor that judged is known, not whether the policy or the scorer set it (a
   * record from agentfootprint's `turn_routed` event). Absent otherwise: the floor is the policy's when
   * `policy.floor` is set, else the scorer's (analyze/floorSources.ts reads it either way).
   */
  readonly floorSource?: 'effective';
  /** False = `unmatched` was unreachable (a floorless scorer). */
  readonly floorDeclared: boolean;
  /**
   * The published behaviour the producer judged with, when it recorded one (`policy.semantics`); absent when
   * the span names none, or names one this routescope does not know (then `--policy auto` infers it).
   */
  readonly semantics?: PolicySemantics;
  /** Which path wrote the record: the `decideTier2` wrapper, or the framework's `turn_routed` event. */
  readonly recordedBy?: RecordedBy;
  /** Prior turns the scorer saw (the framework's classifier window), when reported. */
  readonly scorerWindow?: number;
  /**
   * A record rebuilt from a `turn_routed` event (which carries no verdict kind): the verdict the producer's
   * behaviour gives on the event's own numbers, and where it disagrees with what the event says happened.
   */
  readonly rebuilt?: { readonly verdict: Tier2VerdictKind; readonly differences: readonly string[] };
}

/** Which path wrote a decision record (`agentfootprint.routing.source`). */
export type RecordedBy = 'wrapper' | 'turn_routed';

/** Where a record was read from. */
export interface RecordSource {
  /** The input as the user named it (`-` for stdin, a URL for a trace store). */
  readonly file: string;
  /** 1-based line (JSON lines) or record number (framed files); 0 for whole-document inputs. */
  readonly line: number;
}

/** Span-level context shared by decision and turn records. */
export interface SpanContextFields {
  /** 32 lower-case hex digits. */
  readonly traceId: string;
  /**
   * True when routescope made the trace id up: an event-log record whose event carried no trace id gets one
   * derived from its run, which `explain` takes but no trace store holds. Absent for a span's own id.
   */
  readonly syntheticTraceId?: true;
  /** 16 lower-case hex digits. */
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly service?: string;
  readonly router?: string;
  readonly scorer?: string;
  readonly conversationId?: string;
  readonly agentName?: string;
  /** Span start, milliseconds since the Unix epoch (fractional). */
  readonly timeUnixMs: number;
  /** The span ended with ERROR status (the wrapped routing call threw). */
  readonly error: boolean;
  /** Misroute marks found on the span (events), in order. */
  readonly misroutes: readonly MisrouteMark[];
  readonly source: RecordSource;
}

/** One tier-2 routing decision rebuilt from a span. */
export interface DecisionRecord extends SpanContextFields, RecordedDecision {
  readonly kind: 'decision';
}

/** A turn-level route (tiers 1 and 3 included) rebuilt from a span. */
export interface TurnRecord extends SpanContextFields {
  readonly kind: 'turn';
  readonly by: TurnRouteBy;
  readonly from?: string;
  readonly to?: string;
  readonly offered?: readonly string[];
  readonly stayOffered?: boolean;
  readonly witnessKeyword?: string;
  readonly witnessText?: string;
  readonly droppedResume?: { readonly id?: string; readonly reason?: string };
  readonly decider?: { readonly provider?: string; readonly model?: string; readonly picked?: string };
}

/** A misroute mark carried by a feedback span (marked after the routing span ended), joined by trace id. */
export interface MisrouteRecord extends SpanContextFields {
  readonly kind: 'misroute';
  readonly mark: MisrouteMark;
}

/** What a reader yields: one record per routing, turn or feedback span. */
export type TraceRecord = DecisionRecord | TurnRecord | MisrouteRecord;

/** A correctness signal: the turn was marked as misrouted after the fact. */
export interface MisrouteMark {
  readonly expected?: string;
  readonly reason?: string;
  readonly source?: string;
  readonly timeUnixMs?: number;
}
