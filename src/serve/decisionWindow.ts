/**
 * decisionWindow — the records `serve` keeps: the newest `maxDecisions` decisions, with the turn and misroute
 * records that arrived among them, oldest evicted first and counted.
 *
 * A long-running receiver must not grow with its input, and must not forget silently either: every record
 * evicted is counted by kind, and the page and /metrics show those counts. Turn and misroute records have no
 * limit of their own in the window's name, so they are bounded by a share of it (`otherPerDecision` times
 * `maxDecisions`), evicted oldest first as well. A version number moves with every change, so the page knows
 * when to render again. Pure. No I/O.
 */
import type { TraceRecord } from '../record/types.js';

/** How many records the window holds. */
export interface DecisionWindowConfig {
  /** Decisions kept (`--max-decisions`). @default 20000 */
  readonly maxDecisions: number;
  /** Turn and misroute records kept per decision of `maxDecisions`. @default 2 */
  readonly otherPerDecision: number;
}

/** The defaults `createDecisionWindow` uses. */
export const DEFAULT_DECISION_WINDOW_CONFIG: DecisionWindowConfig = Object.freeze({
  maxDecisions: 20_000,
  otherPerDecision: 2,
});

/** What the window evicted since it started, by kind. */
export interface EvictedCounts {
  decisions: number;
  turns: number;
  misroutes: number;
}

/** The window itself. */
export interface DecisionWindow {
  /** Add a record, evicting the oldest beyond the limits. */
  add(record: TraceRecord): void;
  /** Every record held, oldest first. */
  records(): Iterable<TraceRecord>;
  /** Decisions held now. */
  readonly decisions: number;
  /** Records of every kind held now. */
  readonly size: number;
  /** What was evicted so far. */
  readonly evicted: Readonly<EvictedCounts>;
  /** Moves with every add. */
  readonly version: number;
  readonly config: DecisionWindowConfig;
}

/**
 * A FIFO over a growable ring: decisions and other records share one order (the page replays them in arrival
 * order), each kind with its own count.
 */
export function createDecisionWindow(config: Partial<DecisionWindowConfig> = {}): DecisionWindow {
  const cfg: DecisionWindowConfig = { ...DEFAULT_DECISION_WINDOW_CONFIG, ...config };
  if (!Number.isInteger(cfg.maxDecisions) || cfg.maxDecisions < 1)
    throw new RangeError(`maxDecisions must be a whole number from 1, got ${cfg.maxDecisions}`);
  const maxOther = Math.max(1, Math.floor(cfg.maxDecisions * cfg.otherPerDecision));
  let ring: (TraceRecord | undefined)[] = new Array<TraceRecord | undefined>(64);
  let head = 0;
  let size = 0;
  let decisions = 0;
  let other = 0;
  let version = 0;
  const evicted: EvictedCounts = { decisions: 0, turns: 0, misroutes: 0 };

  const grow = (): void => {
    const next = new Array<TraceRecord | undefined>(ring.length * 2);
    for (let i = 0; i < size; i++) next[i] = ring[(head + i) % ring.length];
    ring = next;
    head = 0;
  };

  // Evict from the front until the kind over its limit is back under it; the records of the other kind
  // passed on the way are older still, so they go too (one order for all kinds keeps replay faithful).
  const evictOldest = (): void => {
    const r = ring[head]!;
    ring[head] = undefined;
    head = (head + 1) % ring.length;
    size--;
    if (r.kind === 'decision') {
      decisions--;
      evicted.decisions++;
    } else {
      other--;
      if (r.kind === 'turn') evicted.turns++;
      else evicted.misroutes++;
    }
  };

  return {
    add(record) {
      if (size === ring.length) grow();
      ring[(head + size) % ring.length] = record;
      size++;
      if (record.kind === 'decision') decisions++;
      else other++;
      while (decisions > cfg.maxDecisions || other > maxOther) evictOldest();
      version++;
    },
    *records() {
      for (let i = 0; i < size; i++) yield ring[(head + i) % ring.length]!;
    },
    get decisions() {
      return decisions;
    },
    get size() {
      return size;
    },
    get evicted() {
      return evicted;
    },
    get version() {
      return version;
    },
    config: cfg,
  };
}
