import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestForCharts } from '../../src/analyze/chartDigest.js';
import { decisionArbitrary, generateWorkload, recordOf } from './replayRecords.js';

const P = { nearTieMargin: 0.15, menuSize: 3 };
const s = (id: string, score: number) => ({ id, score });

describe('chart digest', () => {
  it('time buckets widen to stay within the cap and never lose a decision', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(decisionArbitrary, fc.integer({ min: 0, max: 400 * 86_400_000 })), {
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 10 }),
        (pairs, maxBuckets) => {
          const recs = pairs.map(([d, t]) => ({ ...d, timeUnixMs: 1.6e12 + t }));
          const g = digestForCharts(recs, { maxBuckets });
          const b = g.timeline.buckets;
          expect(b.reduce((n, x) => n + x.decisions, 0)).toBe(recs.length);
          expect(b.reduce((n, x) => n + x.nearTies, 0)).toBe(g.nearTies);
          for (let i = 1; i < b.length; i++) expect(b[i]!.startMs).toBeGreaterThan(b[i - 1]!.startMs);
          // The last rung (four weeks) may exceed the cap only for spans of years; 400 days fit in 15.
          if (g.timeline.bucketMs < 2419200e3) expect(b.length).toBeLessThanOrEqual(maxBuckets);
          for (const x of b) expect(x.startMs % g.timeline.bucketMs).toBe(0);
        },
      ),
    );
  });

  it('the gap histogram holds every recorded gap in its bin', () => {
    const recs = [
      recordOf([s('a', 0.6), s('b', 0.55)], undefined, P), // gap ≈ 0.025 → bin 1
      recordOf([s('a', 0.6), s('b', 0.2)], undefined, P), // gap ≈ 0.197 → bin 7
      recordOf([s('a', 0.6)], undefined, P), // no runner-up
    ];
    const g = digestForCharts(recs);
    expect(g.gaps.bins).toHaveLength(40);
    expect(g.gaps.bins.reduce((n, b) => n + b.count, 0)).toBe(2);
    const bin = (gap: number) => g.gaps.bins[Math.floor(gap * 40)]!;
    expect(bin(recs[0]!.runnerUp!.gap)).toMatchObject({ count: 1, nearTies: 1 });
    expect(bin(recs[1]!.runnerUp!.gap)).toMatchObject({ count: 1, nearTies: 0 });
    expect(g.margins).toEqual([{ margin: 0.15, decisions: 3 }]);
  });

  it('tied pairs form a symmetric matrix over the most involved skills', () => {
    const recs = [
      recordOf([s('a', 0.5), s('b', 0.49)], undefined, P),
      recordOf([s('b', 0.5), s('a', 0.49)], undefined, P),
      recordOf([s('c', 0.5), s('a', 0.49)], undefined, P),
      recordOf([s('d', 0.5), s('e', 0.49)], undefined, P),
    ];
    const g = digestForCharts(recs, { maxSkills: 3 });
    expect(g.tiedPairs.skills).toEqual(['a', 'b', 'c']);
    expect(g.tiedPairs.cells).toEqual([
      [0, 2, 1],
      [2, 0, 0],
      [1, 0, 0],
    ]);
    expect(g.tiedPairs.notShown).toBe(1);
  });

  it('counts floorless decisions per router and scorer', () => {
    const g = digestForCharts(generateWorkload(90));
    const emb = g.scorers.find((x) => x.scorer === 'embedding')!;
    const kw = g.scorers.find((x) => x.scorer === 'keyword')!;
    expect(emb).toMatchObject({ decisions: 30, floorless: 30 });
    expect(kw).toMatchObject({ decisions: 60, floorless: 0 });
  });
});
