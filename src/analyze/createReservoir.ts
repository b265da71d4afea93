/**
 * createReservoir — bounded quantiles: exact while small, a uniform reservoir sample beyond.
 *
 * Analyses must not keep every decision, yet reports want medians and percentiles. Up to `capacity` values
 * are kept verbatim (quantiles are then exact); past that, reservoir sampling (Vitter's algorithm R) keeps a
 * uniform sample of `capacity` values, driven by a seeded generator so the same input always gives the same
 * report. Min and max are always exact. Quantiles are nearest-rank: the smallest kept value with at least
 * q·n values at or below it — always a value that was observed. Pure.
 */

/** A bounded sample of numbers with exact count, min and max. */
export interface Reservoir {
  add(value: number): void;
  readonly count: number;
  readonly min: number;
  readonly max: number;
  /** True while every value seen is kept (quantiles are exact). */
  readonly exact: boolean;
  /** The kept values, sorted ascending (a copy). */
  sorted(): number[];
}

/** Default number of values a reservoir keeps. */
export const DEFAULT_RESERVOIR_CAPACITY = 4096;

/** A reservoir of at most `capacity` values; `seed` fixes the sampling. */
export function createReservoir(capacity: number = DEFAULT_RESERVOIR_CAPACITY, seed = 0x9e3779b9): Reservoir {
  const kept: number[] = [];
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  let state = seed >>> 0;
  const random = (): number => {
    // mulberry32: small, fast, good enough for sampling; deterministic by design.
    // Stryker disable next-line ArithmeticOperator: equivalent — any well-mixed generator samples uniformly; which values a sample keeps is not specified.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    // Stryker disable next-line ArithmeticOperator: equivalent — as above.
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    add(value: number): void {
      count++;
      // Stryker disable next-line EqualityOperator: equivalent — an equal value leaves the same minimum.
      if (value < min) min = value;
      // Stryker disable next-line EqualityOperator: equivalent — an equal value leaves the same maximum.
      if (value > max) max = value;
      if (kept.length < capacity) {
        kept.push(value);
        return;
      }
      const j = Math.floor(random() * count);
      if (j < capacity) kept[j] = value;
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
      return kept.slice().sort((a, b) => a - b);
    },
  };
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
