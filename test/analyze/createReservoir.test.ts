// createReservoir — exact while small, a seeded uniform sample beyond; nearest-rank quantiles of kept values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESERVOIR_CAPACITY,
  createReservoir,
  describeDistribution,
  nearestRank,
} from '../../src/analyze/createReservoir.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

describe('createReservoir', () => {
  it('keeps 4096 values by default', () => {
    expect(DEFAULT_RESERVOIR_CAPACITY).toBe(4096);
    const r = createReservoir();
    for (let i = 0; i < 4096; i++) r.add(i);
    expect(r.exact).toBe(true);
    r.add(4096);
    expect(r.exact).toBe(false);
    expect(r.sorted()).toHaveLength(4096);
  });

  it('an empty reservoir has count 0, min +Infinity, max -Infinity, nothing kept, and is exact', () => {
    const r = createReservoir(3);
    expect([r.count, r.min, r.max, r.exact]).toStrictEqual([0, Infinity, -Infinity, true]);
    expect(r.sorted()).toStrictEqual([]);
  });

  it('up to capacity every value is kept, sorted on the way out, and the reservoir is exact', () => {
    const r = createReservoir(3);
    for (const v of [5, -1, 3]) r.add(v);
    expect(r.sorted()).toStrictEqual([-1, 3, 5]);
    expect([r.count, r.min, r.max, r.exact]).toStrictEqual([3, -1, 5, true]);
  });

  it('past capacity it keeps capacity values, all of them seen, and count, min and max stay exact', () => {
    const r = createReservoir(4);
    const seen = Array.from({ length: 100 }, (_, i) => (i * 37) % 101);
    for (const v of seen) r.add(v);
    expect(r.count).toBe(100);
    expect(r.exact).toBe(false);
    expect(r.min).toBe(Math.min(...seen));
    expect(r.max).toBe(Math.max(...seen));
    const kept = r.sorted();
    expect(kept).toHaveLength(4);
    for (const v of kept) expect(seen).toContain(v);
  });

  it('past capacity later values do get in (the sample is not just the first ones)', () => {
    const r = createReservoir(10);
    for (let i = 0; i < 10; i++) r.add(0);
    for (let i = 0; i < 990; i++) r.add(1);
    // A uniform sample of ten from 1000 values, 99% of them 1: some 1 is kept.
    expect(r.sorted()).toContain(1);
    expect(r.sorted()).toHaveLength(10);
  });

  it('the same seed gives the same sample, another seed another one', () => {
    const fill = (seed: number) => {
      const r = createReservoir(5, seed);
      for (let i = 0; i < 200; i++) r.add(i);
      return r.sorted();
    };
    expect(fill(7)).toStrictEqual(fill(7));
    expect(fill(7)).not.toStrictEqual(fill(8));
  });

  it('sorted() is a copy: changing it changes nothing kept', () => {
    const r = createReservoir(3);
    r.add(1);
    r.sorted().push(99);
    expect(r.sorted()).toStrictEqual([1]);
  });

  it('sorts numbers by value, not as text', () => {
    const r = createReservoir(3);
    for (const v of [10, 9, 100]) r.add(v);
    expect(r.sorted()).toStrictEqual([9, 10, 100]);
  });

  it('over many inputs the kept values are a sub-multiset of the values seen', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (xs, cap) => {
          const r = createReservoir(cap);
          for (const x of xs) r.add(x);
          const kept = r.sorted();
          expect(kept).toHaveLength(Math.min(cap, xs.length));
          const left = [...xs];
          for (const k of kept) {
            const at = left.indexOf(k);
            expect(at).toBeGreaterThanOrEqual(0);
            left.splice(at, 1);
          }
        },
      ),
      { numRuns: propertyRuns(100) },
    );
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
    for (let i = 20; i >= 1; i--) r.add(i);
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
    for (const v of [4, 1, 9, 6, 3]) r.add(v);
    const d = describeDistribution(r)!;
    expect(d).toMatchObject({ count: 5, min: 1, max: 9, exact: false });
  });
});
