// The overview, hot spots and floorless analyses merge: analyses of consecutive parts of the records, merged in
// order, report exactly what one pass over all of them reports (what serve's window slices and --jobs rely on).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFloorlessAnalysis, type FloorlessConfig } from '../../src/analyze/findFloorlessScorers.js';
import { createHotspotAnalysis, type HotspotConfig } from '../../src/analyze/findNearTieHotspots.js';
import { createPolicyAudit } from '../../src/analyze/policyAudit.js';
import { createSummaryAnalysis, type SummaryConfig } from '../../src/analyze/summarizeDecisions.js';
import type { TraceRecord } from '../../src/record/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';
import { recordArbitrary } from './mixedRecords.js';

const records = fc.array(recordArbitrary, { minLength: 1, maxLength: 80 });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 });

/** The records cut at `fractions` into consecutive parts (some possibly empty). */
function partsOf<T>(all: readonly T[], fractions: readonly number[]): T[][] {
  const at = [0, ...fractions.map((f) => Math.floor(f * all.length)).sort((a, b) => a - b), all.length];
  return at.slice(1).map((end, i) => all.slice(at[i], end));
}

interface Mergeable<R> {
  add(r: TraceRecord): void;
  merge(other: this): void;
  finish(): R;
}

function onePass<R>(make: () => Mergeable<R>, all: readonly TraceRecord[]): R {
  const a = make();
  for (const r of all) a.add(r);
  return a.finish();
}

function merged<R>(make: () => Mergeable<R>, parts: readonly TraceRecord[][]): R {
  const total = make();
  for (const part of parts) {
    const a = make();
    for (const r of part) a.add(r);
    total.merge(a);
  }
  return total.finish();
}

// Small samples and caps of examples, so the runs cross them; the group and name caps stay above what is drawn.
const summaryConfigs = fc.record<Partial<SummaryConfig>>({
  maxExamples: fc.integer({ min: 1, max: 4 }),
  policy: fc.constantFrom('auto', 'contract', 'agentfootprint-9.62'),
});
const hotspotConfigs = fc.record<Partial<HotspotConfig>>({
  gapSample: fc.integer({ min: 1, max: 6 }),
  maxExamples: fc.integer({ min: 1, max: 3 }),
  by: fc.constantFrom([], ['router'], ['service', 'router', 'scorer']),
});
const floorlessConfigs = fc.record<Partial<FloorlessConfig>>({
  sample: fc.integer({ min: 1, max: 6 }),
  maxExamples: fc.integer({ min: 1, max: 3 }),
  weakestPercent: fc.constantFrom(10, 50),
});

describe('analyses merge', () => {
  it('law: overviews of consecutive parts, merged in order, equal the overview of all records', () => {
    fc.assert(
      fc.property(records, cuts, summaryConfigs, (all, fractions, config) => {
        const make = () => createSummaryAnalysis(config);
        expect(merged(make, partsOf(all, fractions))).toEqual(onePass(make, all));
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('law: hot spots of consecutive parts, merged in order, equal the hot spots of all records', () => {
    fc.assert(
      fc.property(records, cuts, hotspotConfigs, (all, fractions, config) => {
        const make = () => createHotspotAnalysis(config);
        expect(merged(make, partsOf(all, fractions))).toEqual(onePass(make, all));
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('law: floorless groups of consecutive parts, merged in order, equal those of all records', () => {
    fc.assert(
      fc.property(records, cuts, floorlessConfigs, (all, fractions, config) => {
        const make = () => createFloorlessAnalysis(config);
        expect(merged(make, partsOf(all, fractions))).toEqual(onePass(make, all));
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('law: the merged-in analysis is left as it was (it can be merged again: serve merges a slice per render)', () => {
    fc.assert(
      fc.property(records, (all) => {
        for (const make of [
          () => createSummaryAnalysis({ maxExamples: 2 }),
          () => createHotspotAnalysis({ gapSample: 2 }),
          () => createFloorlessAnalysis({ sample: 2 }),
        ] as (() => Mergeable<unknown>)[]) {
          const part = make();
          for (const r of all) part.add(r);
          const twice = make();
          twice.merge(part);
          twice.merge(part);
          expect(twice.finish()).toEqual(onePass(make, [...all, ...all]));
        }
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('an analysis merges only its own kind, and an audit only one of the same --policy', () => {
    const summary = createSummaryAnalysis();
    expect(() => summary.merge({} as never)).toThrow(/createSummaryAnalysis/);
    expect(() => createHotspotAnalysis().merge({} as never)).toThrow(/createHotspotAnalysis/);
    expect(() => createFloorlessAnalysis().merge({} as never)).toThrow(/createFloorlessAnalysis/);
    expect(() => createPolicyAudit('auto').merge(createPolicyAudit('contract'))).toThrow(
      /cannot merge a contract audit into a auto one/,
    );
  });
});
