/**
 * crossSourceKey — what one routed turn looks like from both of the ways it can reach routescope.
 *
 * A `turn_routed` event becomes records twice over when both its spans (routescopeObservability's) and the
 * event log are read: same decision, different ids. What both carry, and so what the key is made of: the
 * conversation (`gen_ai.conversation.id` = `meta.sessionId`), the time to the millisecond (the spans start at
 * `meta.wallClockMs`), and what happened — for a decision the scorer, the verdict, its target or menu, the
 * candidate count, the decisive flag and the top three candidates with their raw scores (a non-finite one as
 * one token: a JSON log has turned it into null); for a turn route `by`, `from`, `to` and the menu. The run id
 * is not in it: the spans do not carry one. Relevance shares are not either (a span writes a non-finite one as
 * 0). The key is a 16-byte digest, so a key per decision is what the filter holds, whatever the record's size.
 * Pure.
 */
import { createHash } from 'node:crypto';
import type { DecisionRecord, TraceRecord, TurnRecord } from '../record/types.js';

/** Candidates of a decision that go into its key (a span records at least these unless told to record fewer). */
export const KEYED_CANDIDATES = 3;

function scoreToken(score: number): string | number {
  return Number.isFinite(score) ? score : 'non-finite';
}

/** The key of one decision or turn record; equal for the span and the event record of the same turn. */
export function crossSourceKey(record: DecisionRecord | TurnRecord): string {
  const shared = [
    record.conversationId ?? null,
    Number.isFinite(record.timeUnixMs) ? Math.round(record.timeUnixMs) : 'no time',
  ];
  const fields =
    record.kind === 'decision'
      ? [
          'decision',
          ...shared,
          record.scorer ?? null,
          record.verdict,
          record.to ?? null,
          record.offered ?? null,
          record.candidateCount,
          record.decisive,
          record.ranked.slice(0, KEYED_CANDIDATES).map((c) => [c.id, scoreToken(c.score)]),
        ]
      : ['turn', ...shared, record.by, record.from ?? null, record.to ?? null, record.offered ?? null];
  return createHash('sha256').update(JSON.stringify(fields)).digest().subarray(0, 16).toString('latin1');
}

/** A record's key, or none for a misroute record (it has no event-log twin). */
export function crossSourceKeyOf(record: TraceRecord): string | undefined {
  return record.kind === 'misroute' ? undefined : crossSourceKey(record);
}
