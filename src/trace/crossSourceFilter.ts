/**
 * crossSourceFilter — a routed turn read both as spans and from an event log counts once.
 *
 * Each decision or turn record that came from a `turn_routed` event, as a routescopeObservability span or as a
 * line of the event log, is offered here with its crossSourceKey. Per key the filter counts the records of each
 * source: a record that finds one of the other source not yet paired is that record's twin, dropped and counted
 * (`duplicateAcrossSources`, `duplicateTurnsAcrossSources`). So the counts do not depend on which source is
 * read first. Neither does the record kept, within bounds: the span is the richer one (real trace and span
 * ids, parent, service), so event records are held back — up to `hold` of them, released at the end, or oldest
 * first past that — and a span that arrives for a held one takes its place. Two records of one source with one
 * key are two turns, never a duplicate (the span filter and the event filter catch real repeats). Memory: one
 * 16-byte key and two counters per keyed record, in two generations of `generation` keys (a twin further back
 * is not caught), plus at most `hold` held records. No I/O.
 */
import type { TraceRecord } from '../record/types.js';
import type { ReadStats } from './types.js';

/** Event records held back for a span twin, at most, before the oldest is released. */
export const DEFAULT_HELD_EVENT_RECORDS = 10_000;

/** Which way a record reached routescope. */
export type RecordArrival = 'span' | 'event';

/** Pairs records of the two sources by key; see the module comment. */
export interface CrossSourceFilter {
  /** Take one keyed record: pushed to `out`, held back (an event record), or dropped as a twin and counted. */
  offer(record: TraceRecord, key: string, arrival: RecordArrival, out: TraceRecord[]): void;
  /** Push every record still held to `out`, in the order they arrived. */
  release(out: TraceRecord[]): void;
}

interface Held {
  /** The held record; cleared once it is released or replaced, so nothing keeps it alive. */
  record: TraceRecord | undefined;
  readonly pairing: Pairing;
}

interface Pairing {
  spans: number;
  events: number;
  /** Event records of this key still held, oldest first. */
  held?: Held[];
}

/** A filter counting into `stats`; `hold` 0 holds nothing (the first record of a pair is kept). */
export function createCrossSourceFilter(
  stats: ReadStats,
  generation: number,
  hold: number,
): CrossSourceFilter {
  let current = new Map<string, Pairing>();
  let previous = new Map<string, Pairing>();
  let queue: Held[] = [];
  let head = 0;
  let live = 0;

  const pairingOf = (key: string): Pairing => {
    let p = current.get(key);
    if (p !== undefined) return p;
    p = previous.get(key);
    if (p !== undefined) previous.delete(key);
    else p = { spans: 0, events: 0 };
    if (current.size >= generation) {
      previous = current;
      current = new Map();
    }
    current.set(key, p);
    return p;
  };

  const countTwin = (record: TraceRecord): void => {
    if (record.kind === 'decision') stats.duplicateAcrossSources++;
    else stats.duplicateTurnsAcrossSources++;
  };

  /** Take `h` out of its key's held list and forget its record; the record, for whoever needs it. */
  const unhold = (h: Held): TraceRecord | undefined => {
    const record = h.record;
    if (record === undefined) return undefined;
    h.record = undefined;
    live--;
    const held = h.pairing.held!;
    held.splice(held.indexOf(h), 1);
    if (held.length === 0) delete h.pairing.held;
    return record;
  };

  // Replaced and released entries are dropped from the queue once they outnumber the held ones, so the queue
  // stays within a small multiple of `hold` however many event records pass through.
  const compact = (): void => {
    if (queue.length - head <= 2 * live + 1024) return;
    queue = queue.slice(head).filter((h) => h.record !== undefined);
    head = 0;
  };

  const releaseOldest = (out: TraceRecord[]): void => {
    while (head < queue.length) {
      const record = unhold(queue[head++]!);
      if (record !== undefined) {
        out.push(record);
        break;
      }
    }
    compact();
  };

  return {
    offer(record, key, arrival, out) {
      const p = pairingOf(key);
      if (arrival === 'span') {
        const twin = p.events > p.spans;
        p.spans++;
        if (!twin) {
          out.push(record);
          return;
        }
        countTwin(record);
        // The oldest event record of this key, if it never went out: the span takes its place.
        if (p.held !== undefined) {
          unhold(p.held[0]!);
          out.push(record);
          compact();
        }
        return;
      }
      const twin = p.spans > p.events;
      p.events++;
      if (twin) {
        countTwin(record);
        return;
      }
      if (hold <= 0) {
        out.push(record);
        return;
      }
      const h: Held = { record, pairing: p };
      queue.push(h);
      (p.held ??= []).push(h);
      live++;
      if (live > hold) releaseOldest(out);
    },
    release(out) {
      for (let i = head; i < queue.length; i++) {
        const record = unhold(queue[i]!);
        if (record !== undefined) out.push(record);
      }
      queue = [];
      head = 0;
    },
  };
}
