// createReservoir — exact while small, a bottom-k sample by decision key beyond, which merges exactly;
// nearest-rank quantiles of kept values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESERVOIR_CAPACITY,
  createReservoir,
  describeDistribution,
  nearestRank,
  sampleKey,
  type Reservoir,
} from '../../src/analyze/createReservoir.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

/** The key of the i-th value in these tests: a decision's key, as analyses draw it. */
const keyOf = (i: number): number => sampleKey(`trace-${i}`, `span-${i}`);

function filled(capacity: number, values: readonly (readonly [number, number])[]): Reservoir {
  const r = createReservoir(capacity);
  for (const [v, k] of values) r.add(v, k);
  return r;
}

/** Values with keys (keys drawn small so ties on a key happen). */
const keyed = fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 40 })), {
  maxLength: 60,
});

describe('createReservoir', () => {
  it('keeps 4096 values by default', () => {
    expect(DEFAULT_RESERVOIR_CAPACITY).toBe(4096);
    const r = createReservoir();
    for (let i = 0; i < 4096; i++) r.add(i, keyOf(i));
    expect(r.exact).toBe(true);
    r.add(4096, keyOf(4096));
    expect(r.exact).toBe(false);
    expect(r.sorted()).toHaveLength(4096);
  });

  it('an empty reservoir has count 0, min +Infinity, max -Infinity, nothing kept, and is exact', () => {
    const r = createReservoir(3);
    expect([r.count, r.min, r.max, r.exact]).toStrictEqual([0, Infinity, -Infinity, true]);
    expect(r.sorted()).toStrictEqual([]);
  });

  it('up to capacity every value is kept, sorted on the way out, and the reservoir is exact', () => {
    const r = filled(3, [
      [5, 9],
      [-1, 1],
      [3, 4],
    ]);
    expect(r.sorted()).toStrictEqual([-1, 3, 5]);
    expect([r.count, r.min, r.max, r.exact]).toStrictEqual([3, -1, 5, true]);
  });

  it('past capacity it keeps the values of the smallest keys, and count, min and max stay exact', () => {
    const seen = Array.from({ length: 100 }, (_, i) => [(i * 37) % 101, keyOf(i)] as const);
    const r = filled(4, seen);
    expect(r.count).toBe(100);
    expect(r.exact).toBe(false);
    expect(r.min).toBe(Math.min(...seen.map(([v]) => v)));
    expect(r.max).toBe(Math.max(...seen.map(([v]) => v)));
    const smallest = [...seen].sort((a, b) => a[1] - b[1]).slice(0, 4);
    expect(r.sorted()).toStrictEqual(smallest.map(([v]) => v).sort((a, b) => a - b));
  });

  it('past capacity later values do get in (the sample is not just the first ones)', () => {
    const r = createReservoir(10);
    for (let i = 0; i < 10; i++) r.add(0, keyOf(i));
    for (let i = 10; i < 1000; i++) r.add(1, keyOf(i));
    // Ten of 1000 decisions by their keys, 99% of them 1: some 1 is kept.
    expect(r.sorted()).toContain(1);
    expect(r.sorted()).toHaveLength(10);
  });

  it('a tie on the key keeps the smaller value', () => {
    expect(
      filled(1, [
        [7, 5],
        [3, 5],
        [9, 5],
      ]).sorted(),
    ).toStrictEqual([3]);
    expect(
      filled(1, [
        [7, 6],
        [3, 5],
      ]).sorted(),
    ).toStrictEqual([3]);
    expect(
      filled(1, [
        [3, 6],
        [7, 5],
      ]).sorted(),
    ).toStrictEqual([7]);
  });

  it('law: the sample does not depend on the order the values came in', () => {
    fc.assert(
      fc.property(keyed, fc.integer({ min: 1, max: 8 }), fc.integer(), (xs, cap, seed) => {
        const shuffled = fc.sample(fc.shuffledSubarray(xs, { minLength: xs.length }), {
          numRuns: 1,
          seed,
        })[0]!;
        const a = filled(cap, xs);
        const b = filled(cap, shuffled);
        expect(b.sorted()).toStrictEqual(a.sorted());
        expect([b.count, b.min, b.max]).toStrictEqual([a.count, a.min, a.max]);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('law: reservoirs of parts, merged, equal the reservoir of all values; the merged-in one is unchanged', () => {
    fc.assert(
      fc.property(keyed, keyed, fc.integer({ min: 1, max: 8 }), (xs, ys, cap) => {
        const merged = filled(cap, xs);
        const other = filled(cap, ys);
        const before = other.sorted();
        merged.merge(other);
        const whole = filled(cap, [...xs, ...ys]);
        expect(merged.sorted()).toStrictEqual(whole.sorted());
        expect([merged.count, merged.min, merged.max, merged.exact]).toStrictEqual([
          whole.count,
          whole.min,
          whole.max,
          whole.exact,
        ]);
        expect(other.sorted()).toStrictEqual(before);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('sorted() is a copy: changing it changes nothing kept', () => {
    const r = createReservoir(3);
    r.add(1, 1);
    r.sorted().push(99);
    expect(r.sorted()).toStrictEqual([1]);
  });

  it('sorts numbers by value, not as text', () => {
    const r = filled(3, [
      [10, 1],
      [9, 2],
      [100, 3],
    ]);
    expect(r.sorted()).toStrictEqual([9, 10, 100]);
  });

  it('over many inputs the kept values are a sub-multiset of the values seen', () => {
    fc.assert(
      fc.property(keyed, fc.integer({ min: 1, max: 8 }), (xs, cap) => {
        const kept = filled(cap, xs).sorted();
        expect(kept).toHaveLength(Math.min(cap, xs.length));
        const left = xs.map(([v]) => v);
        for (const k of kept) {
          const at = left.indexOf(k);
          expect(at).toBeGreaterThanOrEqual(0);
          left.splice(at, 1);
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe('sampleKey', () => {
  it('is the same for the same ids and differs when any character does', () => {
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect(sampleKey(trace, '00f067aa0ba902b7')).toBe(sampleKey(trace, '00f067aa0ba902b7'));
    expect(sampleKey(trace, '00f067aa0ba902b7')).not.toBe(sampleKey(trace, '00f067aa0ba902b8'));
    expect(sampleKey(trace, '00f067aa0ba902b7')).not.toBe(
      sampleKey(trace.replace('4b', '4c'), '00f067aa0ba902b7'),
    );
    // The ids are kept apart: moving a character from one to the other changes the key.
    expect(sampleKey('ab', 'c')).not.toBe(sampleKey('a', 'bc'));
  });

  it('spreads sequential span ids evenly over the key space (a uniform sample needs it)', () => {
    const bins = new Array<number>(16).fill(0);
    for (let i = 0; i < 16_000; i++) {
      bins[sampleKey('0af7651916cd43dd8448eb211c80319c', i.toString(16).padStart(16, '0')) >>> 28]!++;
    }
    for (const n of bins) expect(Math.abs(n - 1000)).toBeLessThan(150);
  });
});

describe('nearestRank', () => {
  it('the smallest value with at least q·n values at or below it', () => {
    const xs = [1, 2, 3, 4];
    expect(nearestRank(xs, 0.25)).toBe(1);
    expect(nearestRank(xs, 0.26)).toBe(2);
    expect(nearestRank(xs, 0.5)).toBe(2);
    expect(nearestRank(xs, 1)).toBe(4);
  });

  it('q 0 takes the first value and q above 1 the last', () => {
    expect(nearestRank([3, 5, 8], 0)).toBe(3);
    expect(nearestRank([3, 5, 8], 1.5)).toBe(8);
  });

  it('nothing to rank gives undefined', () => {
    expect(nearestRank([], 0.5)).toBeUndefined();
  });
});

describe('describeDistribution', () => {
  it('an empty reservoir has no distribution', () => {
    expect(describeDistribution(createReservoir())).toBeUndefined();
  });

  it('min, p10, p25, median, p75, p90 and max of the kept values, exact while nothing was dropped', () => {
    const r = createReservoir(20);
    for (let i = 20; i >= 1; i--) r.add(i, keyOf(i));
    expect(describeDistribution(r)).toStrictEqual({
      count: 20,
      min: 1,
      p10: 2,
      p25: 5,
      median: 10,
      p75: 15,
      p90: 18,
      max: 20,
      exact: true,
    });
  });

  it('from a sample: the count, min and max stay exact, and it says it is not exact', () => {
    const r = createReservoir(2);
    for (const v of [4, 1, 9, 6, 3]) r.add(v, keyOf(v));
    const d = describeDistribution(r)!;
    expect(d).toMatchObject({ count: 5, min: 1, max: 9, exact: false });
  });
});
