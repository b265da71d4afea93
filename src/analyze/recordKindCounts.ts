/**
 * recordKindCounts — how many records of each kind a pass saw, for the input section of every report: the
 * CLI's passes over files and serve's replays of its window count them the same way. Pure.
 */
import type { TraceRecord } from '../record/types.js';

/** Records seen, per kind. */
export interface RecordKindCounts {
  decisions: number;
  turns: number;
  misroutes: number;
}

/** Counts at zero. */
export function createRecordKindCounts(): RecordKindCounts {
  return { decisions: 0, turns: 0, misroutes: 0 };
}

/** Count `record` under its kind. */
export function countRecordKind(counts: RecordKindCounts, record: TraceRecord): void {
  if (record.kind === 'decision') counts.decisions++;
  else if (record.kind === 'turn') counts.turns++;
  else counts.misroutes++;
}

/** Add `other`'s counts to `counts`. */
export function mergeRecordKindCounts(counts: RecordKindCounts, other: Readonly<RecordKindCounts>): void {
  counts.decisions += other.decisions;
  counts.turns += other.turns;
  counts.misroutes += other.misroutes;
}
