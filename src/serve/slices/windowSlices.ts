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
 *
 * The analyses are paid for only while someone watches: a slice opened more than `idleMs` after the last view
 * only counts its records, and the slices' analyses are let go then. The next view catches up once, slice by
 * slice (`catchUp`: a replay of each slice without analyses, in steps that give the event loop back), and from
 * then on every record is added as it arrives again. A view itself is synchronous, of the records the window
 * holds at that moment (a slice not caught up is replayed then and there). No I/O; the clock is injected.
 */
import type { PolicyChoice } from '../../analyze/policyAudit.js';
import type { TraceRecord } from '../../record/types.js';
import type { DecisionWindowConfig } from '../decisionWindow.js';
import type { Slicer } from '../sliceWork.js';
import { createSliceAnalyses, mergeSlices, type MergedView, type SliceAnalyses } from './sliceAnalyses.js';

/** The share of the window's limits one slice holds. */
export const SLICES = 64;
/** The most decisions a slice holds, whatever the window's size (bounds the replay of a partly evicted slice). */
export const MAX_SLICE_DECISIONS = 2048;
/** The most packed bytes a slice holds. */
export const MAX_SLICE_BYTES = 1024 * 1024;

/** How long after the last view the slices still analyse each record as it arrives. */
export const WATCH_IDLE_MS = 5 * 60_000;

/** When analyses are kept (tests inject both). */
export interface SliceWatchOptions {
  /** How long after a view records are still analysed at arrival (WATCH_IDLE_MS). */
  readonly idleMs?: number;
  /** The clock, in milliseconds (performance.now). */
  readonly now?: () => number;
}

/** What a slice holds, by record number: records are numbered 0, 1, 2… as the window takes them. */
interface Slice {
  readonly first: number;
  end: number;
  decisions: number;
  others: number;
  bytes: number;
  /** Its records' analyses; undefined while nobody watched (replayed when a view asks). */
  analyses: SliceAnalyses | undefined;
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
  /**
   * Count as watched, and replay into analyses of their own, a step of `slicer` at a time, the slices held whole
   * that have none: what a view needs first, without holding the event loop for the whole window.
   */
  catchUp(window: NumberedRecords, slicer: Slicer): Promise<void>;
  /** The analyses of the records `window` holds now, merged and finished (counts as watched). */
  view(window: NumberedRecords): MergedView;
  /** Slices held. */
  readonly size: number;
  /** Slices holding analyses now. */
  readonly analysed: number;
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
  watch: SliceWatchOptions = {},
): WindowSlices {
  const limits = sliceLimits(config);
  const idleMs = watch.idleMs ?? WATCH_IDLE_MS;
  const now = watch.now ?? ((): number => performance.now());
  const slices: Slice[] = [];
  let open: Slice | undefined;
  let watchedUntil = -Infinity;
  let catching: Promise<void> | undefined;

  const isFull = (s: Slice): boolean =>
    s.decisions >= limits.decisions || s.others >= limits.others || s.bytes >= limits.bytes;
  const markWatched = (): void => {
    watchedUntil = now() + idleMs;
  };
  /** The analyses of what `window` still holds of `s`, replayed now. */
  const replay = (s: Slice, window: NumberedRecords): SliceAnalyses => {
    const set = createSliceAnalyses(policy);
    for (const r of window.recordsBetween(Math.max(s.first, window.firstNumber), s.end)) set.add(r);
    return set;
  };
  /** `s` replayed a step at a time; kept only when the window still holds all of it at the end. */
  const replayInSteps = async (s: Slice, window: NumberedRecords, slicer: Slicer): Promise<void> => {
    const set = createSliceAnalyses(policy);
    let next = s.first;
    // The open slice may grow while this waits: read its end again after every pause; the last records
    // are added in the same step as the set is kept, so none arrives in between.
    while (next < s.end) {
      for (const r of window.recordsBetween(next, s.end)) {
        set.add(r);
        next++;
        const pause = slicer.pause();
        if (pause !== undefined) {
          await pause;
          break;
        }
      }
      if (window.firstNumber > s.first || !slices.includes(s)) return;
    }
    if (s.analyses === undefined && window.firstNumber <= s.first) s.analyses = set;
  };
  const ring: WindowSlices = {
    add(record, number, bytes) {
      if (open === undefined || isFull(open)) {
        const watched = now() < watchedUntil;
        // Nobody has looked for a while: let the analyses go, and stop paying for them at arrival.
        if (!watched) for (const s of slices) s.analyses = undefined;
        open = {
          first: number,
          end: number,
          decisions: 0,
          others: 0,
          bytes: 0,
          analyses: watched ? createSliceAnalyses(policy) : undefined,
        };
        slices.push(open);
      }
      open.analyses?.add(record);
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
    catchUp(window, slicer) {
      markWatched();
      catching ??= (async () => {
        try {
          for (const s of [...slices])
            if (s.analyses === undefined && window.firstNumber <= s.first)
              await replayInSteps(s, window, slicer);
        } finally {
          catching = undefined;
        }
      })();
      return catching;
    },
    view(window) {
      markWatched();
      this.evictBefore(window.firstNumber);
      const sets = slices.map((s) => {
        // Part of the oldest slice was evicted: what it still holds is replayed into a set of its own.
        if (s.first < window.firstNumber) return replay(s, window);
        s.analyses ??= replay(s, window);
        return s.analyses;
      });
      return mergeSlices(sets, policy);
    },
    get size() {
      return slices.length;
    },
    get analysed() {
      return slices.reduce((n, s) => n + (s.analyses === undefined ? 0 : 1), 0);
    },
  };
  return ring;
}
