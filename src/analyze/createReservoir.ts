/**
 * createReservoir — bounded quantiles: exact while small, a uniform sample beyond that merges exactly.
 *
 * Analyses must not keep every decision, yet reports want medians and percentiles. Up to `capacity` values
 * are kept verbatim (quantiles are then exact); past that, the values kept are those whose keys are the
 * `capacity` smallest (a bottom-k sample). A value's key is a hash of the decision it came from (sampleKey),
 * not of when it arrived, so the sample is uniform over decisions, the same input in any order or cut into any
 * parts gives the same sample, and two samples merge into exactly the sample of both inputs: what lets `serve`
 * keep an accumulator per slice of its window and `--jobs` workers each keep their own. Ties on a key are
 * broken by the value. Min and max are always exact. Quantiles are nearest-rank: the smallest kept value with
 * at least q·n values at or below it — always a value that was observed. Pure.
 */

/** A bounded sample of numbers with exact count, min and max. */
export interface Reservoir {
  /** Offer `value`, drawn by `key` (a uint32, sampleKey of the decision it came from). */
  add(value: number, key: number): void;
  /** Fold `other` in: this becomes the sample of both inputs; `other` is left as it was. */
  merge(other: Reservoir): void;
  readonly count: number;
  readonly min: number;
  readonly max: number;
  /** True while every value seen is kept (quantiles are exact). */
  readonly exact: boolean;
  /** The kept values, sorted ascending (a copy). */
  sorted(): number[];
  /** Visit each kept value with its key (any order). */
  forEachKept(visit: (value: number, key: number) => void): void;
}

/** Default number of values a reservoir keeps. */
export const DEFAULT_RESERVOIR_CAPACITY = 4096;

/**
 * The sampling key of a decision: FNV-1a over its trace and span ids, so every copy of a decision draws the
 * same key wherever and whenever it is read.
 */
export function sampleKey(traceId: string, spanId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < traceId.length; i++) h = Math.imul(h ^ traceId.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0x2f, 0x01000193);
  for (let i = 0; i < spanId.length; i++) h = Math.imul(h ^ spanId.charCodeAt(i), 0x01000193);
  // A final mix spreads the low bits FNV leaves similar for ids that differ in their last characters.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** A reservoir of at most `capacity` values. */
export function createReservoir(capacity: number = DEFAULT_RESERVOIR_CAPACITY): Reservoir {
  // A max-heap on (key, value) once full: the root is the pair the next smaller one replaces.
  const keys: number[] = [];
  const values: number[] = [];
  let count = 0;
  let min = Infinity;
  let max = -Infinity;

  const above = (i: number, j: number): boolean =>
    keys[i]! > keys[j]! || (keys[i] === keys[j] && values[i]! > values[j]!);
  const swap = (i: number, j: number): void => {
    const k = keys[i]!;
    keys[i] = keys[j]!;
    keys[j] = k;
    const v = values[i]!;
    values[i] = values[j]!;
    values[j] = v;
  };
  const siftUp = (from: number): void => {
    let i = from;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!above(i, parent)) return;
      swap(i, parent);
      i = parent;
    }
  };
  const siftDown = (): void => {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < keys.length && above(l, top)) top = l;
      if (r < keys.length && above(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  const offer = (value: number, key: number): void => {
    if (keys.length < capacity) {
      keys.push(key);
      values.push(value);
      siftUp(keys.length - 1);
      return;
    }
    if (capacity === 0) return;
    // Not below the largest kept pair: not in the sample.
    if (key > keys[0]! || (key === keys[0] && value >= values[0]!)) return;
    keys[0] = key;
    values[0] = value;
    siftDown();
  };

  const reservoir: Reservoir = {
    add(value, key) {
      count++;
      // Stryker disable next-line EqualityOperator: equivalent — an equal value leaves the same minimum.
      if (value < min) min = value;
      // Stryker disable next-line EqualityOperator: equivalent — an equal value leaves the same maximum.
      if (value > max) max = value;
      offer(value, key >>> 0);
    },
    merge(other) {
      count += other.count;
      if (other.min < min) min = other.min;
      if (other.max > max) max = other.max;
      other.forEachKept(offer);
    },
    get count() {
      return count;
    },
    get min() {
      return min;
    },
    get max() {
      return max;
    },
    get exact() {
      return count <= capacity;
    },
    sorted(): number[] {
      return values.slice().sort((a, b) => a - b);
    },
    forEachKept(visit) {
      for (let i = 0; i < keys.length; i++) visit(values[i]!, keys[i]!);
    },
  };
  return reservoir;
}
/** Nearest-rank quantile of an ascending array, q in [0, 1]; undefined when empty. */
export function nearestRank(sortedAsc: readonly number[], q: number): number | undefined {
  const n = sortedAsc.length;
  if (n === 0) return undefined;
  const rank = Math.min(n, Math.max(1, Math.ceil(q * n)));
  return sortedAsc[rank - 1];
}

/** The distribution reports print: min, p10, p25, median, p75, p90, max. */
export interface Distribution {
  readonly count: number;
  readonly min: number;
  readonly p10: number;
  readonly p25: number;
  readonly median: number;
  readonly p75: number;
  readonly p90: number;
  readonly max: number;
  /** False when the percentiles come from a sample (min, max and count stay exact). */
  readonly exact: boolean;
}

/** Summarize a reservoir; undefined when it saw nothing. */
export function describeDistribution(r: Reservoir): Distribution | undefined {
  if (r.count === 0) return undefined;
  const s = r.sorted();
  const q = (p: number): number => nearestRank(s, p)!;
  return {
    count: r.count,
    min: r.min,
    p10: q(0.1),
    p25: q(0.25),
    median: q(0.5),
    p75: q(0.75),
    p90: q(0.9),
    max: r.max,
    exact: r.exact,
  };
}
