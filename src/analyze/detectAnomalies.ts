/**
 * detectAnomalies — what the routing contract never expects to see in one recorded decision.
 *
 * The policy does not validate its thresholds (a margin <= 0 makes everything decisive, a NaN one empties
 * every menu) and the framework de-duplicates candidates before scoring, so an observer has to flag these.
 * The strongest check is the replay: the recorded verdict must be what the policy gives on the recorded
 * numbers and thresholds; when it is not, the host ran another version of the policy or has a bug.
 * Pure.
 */
import type { PolicySemantics } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';
import { replayDecision, type ReplayOutcome } from './replayDecision.js';

/** One anomaly found on a decision, with the evidence. */
export type Anomaly =
  | { readonly kind: 'odd-margin'; readonly margin: number }
  | { readonly kind: 'odd-menu-size'; readonly menuSize: number }
  | { readonly kind: 'duplicate-candidates'; readonly ids: readonly string[] }
  | {
      readonly kind: 'inconsistent';
      readonly differences: readonly string[];
      /** The behaviour the replay judged with. */
      readonly semantics: PolicySemantics;
    };

/** The anomaly kinds, in report order. */
export const ANOMALY_KINDS = ['odd-margin', 'odd-menu-size', 'duplicate-candidates', 'inconsistent'] as const;

/** What one decision shows: its anomalies and the replay they came from. */
export interface DecisionCheck {
  readonly anomalies: readonly Anomaly[];
  readonly replay: ReplayOutcome;
}

/** Check one decision, its replay judged by `semantics` (default the contract). */
export function detectAnomalies(
  record: DecisionRecord,
  semantics: PolicySemantics = 'contract',
): DecisionCheck {
  const anomalies = detectThresholdAnomalies(record);
  const replay = replayDecision(record, {}, semantics);
  if (replay.kind === 'replayed' && replay.differences.length > 0) {
    anomalies.push({ kind: 'inconsistent', differences: replay.differences, semantics });
  }
  return { anomalies, replay };
}

/** The anomalies that need no replay: odd thresholds and duplicate candidate ids. */
export function detectThresholdAnomalies(record: DecisionRecord): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const margin = record.policy.nearTieMargin;
  if (!Number.isFinite(margin) || margin <= 0) anomalies.push({ kind: 'odd-margin', margin });
  const menuSize = record.policy.menuSize;
  if (!Number.isFinite(menuSize) || menuSize < 2) anomalies.push({ kind: 'odd-menu-size', menuSize });
  const duplicates = findDuplicateIds(record.ranked.map((c) => c.id));
  if (duplicates.length > 0) anomalies.push({ kind: 'duplicate-candidates', ids: duplicates });
  return anomalies;
}

/** Ids that occur more than once, each listed once, in first-seen order. */
export function findDuplicateIds(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) dup.add(id);
    else seen.add(id);
  }
  return [...dup];
}
