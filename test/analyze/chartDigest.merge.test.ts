import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChartDigest, digestForCharts, type ChartDigestConfig } from '../../src/analyze/chartDigest.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';
import { decisionArbitrary, generateWorkload } from './replayRecords.js';

/** Decisions over a year, under a few routers, so the timeline widens and the rows differ. */
const decisions = fc.array(
  fc.tuple(
    decisionArbitrary,
    fc.integer({ min: 0, max: 365 * 86_400_000 }),
    fc.constantFrom('desk', 'triage', undefined),
  ),
  { minLength: 10, maxLength: 120 },
);

/** Where to cut the records into parts: fractions of the length. */
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 });

function timed([d, t, router]: [DecisionRecord, number, string | undefined]): DecisionRecord {
  const { router: _dropped, ...rest } = d;
  return { ...rest, timeUnixMs: 1.7e12 + t, ...(router === undefined ? {} : { router }) };
}

/** The records cut at `fractions` into consecutive parts (some possibly empty). */
function partsOf<T>(records: readonly T[], fractions: readonly number[]): T[][] {
  const at = [
    0,
    ...fractions.map((f) => Math.floor(f * records.length)).sort((a, b) => a - b),
    records.length,
  ];
  return at.slice(1).map((end, i) => records.slice(at[i], end));
}

function mergedDigest(parts: readonly DecisionRecord[][], config: Partial<ChartDigestConfig>) {
  const total = createChartDigest(config);
  for (const part of parts) {
    const digest = createChartDigest(config);
    for (const r of part) digest.add(r);
    total.merge(digest);
  }
  return total.finish();
}

describe('chart digest merge', () => {
  it('law: digests of consecutive parts, merged in order, equal the digest of all records in one', () => {
    fc.assert(
      fc.property(decisions, cuts, fc.integer({ min: 1, max: 8 }), (raw, fractions, maxBuckets) => {
        const records = raw.map(timed);
        const config = { maxBuckets };
        expect(mergedDigest(partsOf(records, fractions), config)).toEqual(digestForCharts(records, config));
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('law: the order of merging does not matter while no cap is met', () => {
    fc.assert(
      fc.property(decisions, cuts, (raw, fractions) => {
        const parts = partsOf(raw.map(timed), fractions);
        const forward = mergedDigest(parts, { maxBuckets: 6 });
        const backward = mergedDigest([...parts].reverse(), { maxBuckets: 6 });
        // Rows and pairs keep the order they were first seen in; their counts are what must agree.
        const byKey = <T extends { router: string | null; scorer: string | null }>(rows: readonly T[]) =>
          [...rows].sort((a, b) => `${a.router}/${a.scorer}`.localeCompare(`${b.router}/${b.scorer}`));
        expect({ ...backward, scorers: byKey(backward.scorers) }).toEqual({
          ...forward,
          scorers: byKey(forward.scorers),
        });
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('merging leaves the other digest as it was', () => {
    const records = fc.sample(decisions, { numRuns: 1, seed: 3 })[0]!.map(timed);
    const other = createChartDigest({ maxBuckets: 4 });
    for (const r of records) other.add(r);
    const before = JSON.stringify(other.finish());
    const total = createChartDigest({ maxBuckets: 4 });
    total.merge(other);
    total.merge(other);
    expect(JSON.stringify(other.finish())).toBe(before);
    expect(total.finish().decisions).toBe(2 * records.length);
  });

  it('a pair cap counts the near-ties of pairs past it as dropped, in a merge as in a pass', () => {
    const records = generateWorkload(400);
    const one = digestForCharts(records, { maxPairs: 1 });
    expect(one.tiedPairs.pairsDropped).toBeGreaterThan(0);
    const merged = mergedDigest(partsOf(records, [0.3, 0.6]), { maxPairs: 1 });
    const counted = (d: typeof one) =>
      d.tiedPairs.cells.flat().reduce((n, c) => n + c, 0) / 2 +
      d.tiedPairs.notShown +
      d.tiedPairs.pairsDropped;
    expect(counted(merged)).toBe(counted(one));
    expect(counted(one)).toBe(one.nearTies);
  });

  it('refuses to merge what is not a chart digest', () => {
    const digest = createChartDigest();
    expect(() => digest.merge({ add() {}, merge() {}, finish: () => digestForCharts([]) })).toThrow(
      /createChartDigest/,
    );
  });
});
