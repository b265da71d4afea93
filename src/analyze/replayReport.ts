/**
 * replayReport — what `replay` reports: both sides of the comparison, the flip matrix, the per-scorer floor
 * table, the flipped decisions and the consistency audit (`--format json` serializes it; see
 * docs/json-output.md). Types only.
 */
import type { PolicySemantics, Tier2VerdictKind } from '../policy/types.js';
import type { DecisionFilter } from './filterDecisions.js';
import type { PolicyChoice, ServiceBehaviour } from './policyAudit.js';
import type { ReplayThresholds } from './replayDecision.js';
import type { DecisionLocation } from './summarizeDecisions.js';
import type { VerdictCounts } from './verdictCounts.js';

/** One side of the comparison, with the same meaning as in `analyze`. */
export interface ReplaySide {
  readonly decisions: number;
  readonly verdicts: VerdictCounts;
  readonly nearTies: number;
  /** nearTies / decisions. */
  readonly nearTieRate: number;
  /** menu / decisions. */
  readonly menuRate: number;
}

/** recorded verdict → replayed verdict → count, every cell present. */
export type FlipMatrix = Record<Tier2VerdictKind, Record<Tier2VerdictKind, number>>;

/** One decision whose verdict kind changed. */
export interface FlippedDecision extends DecisionLocation {
  readonly conversationId?: string;
  readonly timeUnixMs: number;
  readonly from: Tier2VerdictKind;
  readonly to: Tier2VerdictKind;
  /** The move target or the menu, before and after, when there is one. */
  readonly fromDetail?: string;
  readonly toDetail?: string;
  readonly gap?: number;
}

/** Floors and `unmatched` per router/scorer, before and after. */
export interface ScorerFloorChange {
  readonly router: string | null;
  readonly scorer: string | null;
  readonly decisions: number;
  /** Decisions judged with some floor (unmatched reachable), recorded and replayed. */
  readonly flooredBefore: number;
  readonly flooredAfter: number;
  readonly unmatchedBefore: number;
  readonly unmatchedAfter: number;
}

/** A decision the audit could not reproduce. */
export interface InconsistentDecision {
  readonly at: DecisionLocation;
  readonly differences: readonly string[];
  /** The behaviour that judged it. */
  readonly semantics: PolicySemantics;
}

/** The replay report (`--format json` serializes it; see docs/json-output.md). */
export interface ReplayReport {
  readonly kind: 'replay';
  /** The thresholds that were changed (absent = kept as recorded; floor null = no floor). */
  readonly thresholds: ReplayThresholds;
  readonly where: DecisionFilter;
  /** `where` as text. */
  readonly selection: string;
  /** Decisions the filter excluded. */
  readonly excluded: number;
  /** Decisions the record cannot decide (candidates omitted where they matter); in neither side. */
  readonly undecidable: number;
  readonly undecidableExamples: readonly { readonly at: DecisionLocation; readonly reason: string }[];
  /** Replayed from a record with omitted candidates (the verdict is still exact; see replayDecision). */
  readonly partial: number;
  /** Recorded verdicts of the replayed decisions. */
  readonly before: ReplaySide;
  /** Replayed verdicts. */
  readonly after: ReplaySide;
  readonly flips: FlipMatrix;
  /** Decisions whose verdict kind changed (the off-diagonal of `flips`). */
  readonly flipped: number;
  readonly moveToMenu: number;
  readonly menuToMove: number;
  /** Menus that stayed menus but offer a different list. */
  readonly menuChanged: number;
  /** Per router/scorer: where `unmatched` becomes reachable (or unreachable). */
  readonly scorers: readonly ScorerFloorChange[];
  /** Scorers that judged some decisions with no floor and now have one: `unmatched` newly reachable. */
  readonly unmatchedNowReachable: readonly {
    readonly router: string | null;
    readonly scorer: string | null;
  }[];
  /** `--policy` and, per service, the behaviour that judged its decisions. */
  readonly policy: { readonly choice: PolicyChoice; readonly services: readonly ServiceBehaviour[] };
  /** The audit: each decision replayed under its recorded thresholds. */
  readonly consistency: {
    readonly audited: number;
    readonly inconsistent: number;
    readonly examples: readonly InconsistentDecision[];
  };
  /** Flipped decisions, in input order, up to `listLimit`. */
  readonly list: readonly FlippedDecision[];
}
