/**
 * windowSlices — serve's window as a ring of slices of accumulators, so a render merges, never replays.
 *
 * Every record the window keeps is also added, as the window holds it, to the newest slice's analyses
 * (sliceAnalyses). A slice closes when it holds its share of any of the window's limits — decisions, other
 * records, packed bytes — and a new one opens. Eviction takes the window's oldest records one at a time; a
 * slice all of whose records are gone is dropped. So a view of the window is the merge of the slices, plus,
 * when the oldest slice has lost some of its records but not all, a replay of what it still holds: at most one
 * slice's records, never the window. Limits are a share (`1/SLICES`) of the window's, at most
 * `MAX_SLICE_DECISIONS` decisions and `MAX_SLICE_BYTES` bytes, so that replay stays short at any window size.
 * Synchronous: a view is made in one go, of the records the window holds at that moment. Pure. No I/O.
 */
import type { PolicyChoice } from '../../analyze/policyAudit.js';
import type { TraceRecord } from '../../record/types.js';
import type { DecisionWindowConfig } from '../decisionWindow.js';
import { createSliceAnalyses, mergeSlices, type MergedView, type SliceAnalyses } from './sliceAnalyses.js';

/** The share of the window's limits one slice holds. */
export const SLICES = 64;
/** The most decisions a slice holds, whatever the window's size (bounds the replay of a partly evicted slice). */
export const MAX_SLICE_DECISIONS = 2048;
/** The most packed bytes a slice holds. */
export const MAX_SLICE_BYTES = 1024 * 1024;

/** What a slice holds, by record number: records are numbered 0, 1, 2… as the window takes them. */
interface Slice {
  readonly first: number;
  end: number;
  decisions: number;
  others: number;
  bytes: number;
  readonly analyses: SliceAnalyses;
}

/** Where the window's records are, for the replay of a partly evicted slice. */
export interface NumberedRecords {
  /** The number of the oldest record held. */
  readonly firstNumber: number;
  /** The records held numbered from `from` to before `to`, oldest first. */
  recordsBetween(from: number, to: number): Iterable<TraceRecord>;
}

/** The ring. */
export interface WindowSlices {
  /** Add the record the window just took (as it holds it), its number and its packed size. */
  add(record: TraceRecord, number: number, bytes: number): void;
  /** Drop the slices whose every record is older than `firstNumber` (the window's oldest). */
  evictBefore(firstNumber: number): void;
  /** The analyses of the records `window` holds now, merged and finished. */
  view(window: NumberedRecords): MergedView;
  /** Slices held. */
  readonly size: number;
}

/** Each limit of a slice, from the window's. */
export function sliceLimits(
  config: Pick<DecisionWindowConfig, 'maxDecisions' | 'otherPerDecision' | 'maxBytes'>,
): {
  decisions: number;
  others: number;
  bytes: number;
} {
  const decisions = Math.min(MAX_SLICE_DECISIONS, Math.max(1, Math.ceil(config.maxDecisions / SLICES)));
  return {
    decisions,
    others: Math.max(1, Math.ceil(decisions * config.otherPerDecision)),
    bytes: Math.min(MAX_SLICE_BYTES, Math.max(1, Math.ceil(config.maxBytes / SLICES))),
  };
}

/** An empty ring for a window of `config`, judged under `policy`. */
export function createWindowSlices(
  config: Pick<DecisionWindowConfig, 'maxDecisions' | 'otherPerDecision' | 'maxBytes'>,
  policy: PolicyChoice,
): WindowSlices {
  const limits = sliceLimits(config);
  const slices: Slice[] = [];
  let open: Slice | undefined;

  const isFull = (s: Slice): boolean =>
    s.decisions >= limits.decisions || s.others >= limits.others || s.bytes >= limits.bytes;

  return {
    add(record, number, bytes) {
      if (open === undefined || isFull(open)) {
        open = {
          first: number,
          end: number,
          decisions: 0,
          others: 0,
          bytes: 0,
          analyses: createSliceAnalyses(policy),
        };
        slices.push(open);
      }
      open.analyses.add(record);
      open.end = number + 1;
      open.bytes += bytes;
      if (record.kind === 'decision') open.decisions++;
      else open.others++;
    },
    evictBefore(firstNumber) {
      let gone = 0;
      while (gone < slices.length && slices[gone]!.end <= firstNumber) gone++;
      if (gone === 0) return;
      if (slices[gone - 1] === open) open = undefined;
      slices.splice(0, gone);
    },
    view(window) {
      this.evictBefore(window.firstNumber);
      const sets = slices.map((s) => s.analyses);
      const oldest = slices[0];
      if (oldest !== undefined && oldest.first < window.firstNumber) {
        // Part of the oldest slice was evicted: what it still holds is replayed into a set of its own.
        const rest = createSliceAnalyses(policy);
        for (const r of window.recordsBetween(window.firstNumber, oldest.end)) rest.add(r);
        sets[0] = rest;
      }
      return mergeSlices(sets, policy);
    },
    get size() {
      return slices.length;
    },
  };
}
