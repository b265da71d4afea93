import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayDecision } from '../../src/analyze/replayDecision.js';
import { replayDecisions } from '../../src/analyze/replay.js';
import { resolveTuneConfig, sweepMargins, tuneMargins, TUNE_CAVEAT } from '../../src/analyze/tune.js';
import type { MisrouteRecord, TraceRecord } from '../../src/record/types.js';
import { decisionArbitrary, generateWorkload, recordOf } from './replayRecords.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const P = { nearTieMargin: 0.15, menuSize: 3 };
const s = (id: string, score: number) => ({ id, score });

function feedback(traceId: string, parentSpanId?: string): MisrouteRecord {
  return {
    kind: 'misroute',
    traceId,
    spanId: 'f'.repeat(16),
    ...(parentSpanId === undefined ? {} : { parentSpanId }),
    timeUnixMs: 0,
    error: false,
    misroutes: [],
    source: { file: 'mem', line: 0 },
    mark: { expected: 'refunds' },
  };
}

describe('tune sweep', () => {
  it('every point of the curve equals a full replay at that margin', () => {
    fc.assert(
      fc.property(fc.array(decisionArbitrary, { minLength: 1, maxLength: 25 }), (records) => {
        const t = tuneMargins(records, { from: 0, to: 1, step: 0.125 });
        expect(t.curve.map((p) => p.margin)).toEqual(sweepMargins({ from: 0, to: 1, step: 0.125 }));
        for (const p of t.curve) {
          const r = replayDecisions(records, { thresholds: { nearTieMargin: p.margin } });
          expect(p.verdicts).toEqual(r.after.verdicts);
          expect(p.nearTies).toBe(r.after.nearTies);
        }
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('the near-tie and menu rates never fall as the margin widens', () => {
    const t = tuneMargins(generateWorkload(400));
    for (let k = 1; k < t.curve.length; k++) {
      expect(t.curve[k]!.nearTieRate).toBeGreaterThanOrEqual(t.curve[k - 1]!.nearTieRate);
      expect(t.curve[k]!.menuRate).toBeGreaterThanOrEqual(t.curve[k - 1]!.menuRate);
    }
    expect(t.curve[0]!.nearTies).toBe(0);
  });

  for (const target of [0.02, 0.05, 0.1, 0.2]) {
    it(`meets a target menu rate of ${target} within one sweep step on generated decisions`, () => {
      const records = generateWorkload(600, Math.round(target * 1000));
      const t = tuneMargins(records, { targetMenuRate: target });
      const rec = t.recommendation!;
      expect(rec.meets).toBe(true);
      // Checked with a full replay, not with the sweep's own numbers.
      const at = replayDecisions(records, { thresholds: { nearTieMargin: rec.margin } }).after;
      expect(at.menuRate).toBeLessThanOrEqual(target);
      const next = Number((rec.margin + 0.01).toFixed(10));
      if (next <= 0.5) {
        const over = replayDecisions(records, { thresholds: { nearTieMargin: next } }).after;
        expect(over.menuRate).toBeGreaterThan(target);
      }
    });
  }

  it('meets a target near-tie rate, and both targets at once', () => {
    const records = generateWorkload(500, 3);
    const t = tuneMargins(records, { targetNearTieRate: 0.15 });
    const k = t.curve.findIndex((p) => p.margin === t.recommendation!.margin);
    expect(t.curve[k]!.nearTieRate).toBeLessThanOrEqual(0.15);
    if (k + 1 < t.curve.length) expect(t.curve[k + 1]!.nearTieRate).toBeGreaterThan(0.15);
    const both = tuneMargins(records, { targetNearTieRate: 0.15, targetMenuRate: 0.01 });
    expect(both.recommendation!.margin).toBeLessThanOrEqual(t.recommendation!.margin);
    expect(both.recommendation!.point.menuRate).toBeLessThanOrEqual(0.01);
  });

  it('a sweep that starts too wide says no margin meets the target', () => {
    const records = generateWorkload(300, 5);
    const t = tuneMargins(records, { targetNearTieRate: 0, from: 0.3, to: 0.5 });
    expect(t.recommendation).toMatchObject({ meets: false, margin: 0.3 });
  });

  it('says it tunes rates, not accuracy', () => {
    const t = tuneMargins([]);
    expect(t.caveat).toBe(TUNE_CAVEAT);
    expect(t.caveat).toMatch(/rates, not accuracy/);
    expect(t.recommendation).toBeUndefined();
  });

  it('rejects a sweep or a target that cannot work', () => {
    expect(() => resolveTuneConfig({ step: 0 })).toThrow(/step/);
    expect(() => resolveTuneConfig({ from: 0.5, to: 0.1 })).toThrow(/from <= to/);
    expect(() => resolveTuneConfig({ targetMenuRate: 2 })).toThrow(/menu rate/);
  });
});

describe('tune and misroute marks', () => {
  it('counts known misroutes caught as a menu, recorded and under the recommendation', () => {
    // Two misrouted cold-start moves with gaps tanh(0.2) and tanh(0.5): a margin between catches only the first.
    const a = recordOf(
      [s('billing', 0.6), s('refunds', 0.2)],
      undefined,
      P,
      {},
      { misroutes: [{ expected: 'refunds' }] },
    );
    const b = recordOf([s('billing', 1.0), s('refunds', 0)], undefined, P, {}, { traceId: 'b'.repeat(32) });
    const filler = Array.from({ length: 8 }, () => recordOf([s('x', 3), s('y', 0)], undefined, P));
    const records: TraceRecord[] = [
      a,
      b,
      ...filler,
      feedback('b'.repeat(32), b.spanId),
      feedback('c'.repeat(32)),
    ];
    const t = tuneMargins(records, { targetMenuRate: 0.1 });
    expect(t.recommendation!.margin).toBeGreaterThanOrEqual(0.2);
    expect(t.recommendation!.margin).toBeLessThanOrEqual(Math.tanh(0.5));
    expect(t.misroutes).toEqual({
      known: 2,
      unjoined: 1,
      caughtRecorded: 0,
      shareRecorded: 0,
      caughtRecommended: 1,
      shareRecommended: 0.5,
    });
    expect(t.curve.at(-1)!.misroutesCaught).toBe(2);
  });

  it('a feedback mark that arrives before its decision still joins it', () => {
    const d = recordOf([s('a', 0.6), s('b', 0.5)], undefined, P, {}, { traceId: 'd'.repeat(32) });
    const t = tuneMargins([feedback('d'.repeat(32)), d]);
    expect(t.misroutes).toMatchObject({ known: 1, unjoined: 0, caughtRecorded: 1 });
  });

  it('without marks there is no misroute block and no misroute column', () => {
    const t = tuneMargins(generateWorkload(20));
    expect(t.misroutes).toBeUndefined();
    expect(t.curve[0]!.misroutesCaught).toBeUndefined();
  });
});

describe('tune floor sweep', () => {
  it('sweeps a floor for each floorless scorer; each floor makes about its share unmatched', () => {
    const records = generateWorkload(900, 11);
    const t = tuneMargins(records);
    expect(t.floors.map((f) => f.scorer)).toEqual(['embedding']);
    const f = t.floors[0]!;
    expect(f.decisions).toBe(300);
    for (const row of f.rows) {
      expect(row.unmatchedRate).toBeGreaterThanOrEqual(row.share - 1e-9);
      expect(row.unmatchedRate).toBeLessThanOrEqual(row.share + 2 / f.sampled);
    }
  });

  it('recommends the highest floor whose replayed unmatched rate meets the target', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (rows, target) => {
          const records = rows.map((scores) =>
            recordOf(
              scores.map((score, i) => s(`c${i}`, Math.round(score * 20) / 20)),
              undefined,
              P,
              {},
              { router: 'r', scorer: 'embedding' },
            ),
          );
          const f = tuneMargins(records, { targetUnmatchedRate: target }).floors[0]!;
          const unmatchedUnder = (floor: number) =>
            records.filter((d) => {
              const o = replayDecision(d, { floor });
              return o.kind === 'replayed' && o.verdict === 'unmatched';
            }).length / records.length;
          const tops = [...new Set(records.map((d) => d.ranked[0]!.score))].sort((a, b) => a - b);
          if (f.recommended === undefined) {
            // Not even the weakest top score meets the target.
            expect(unmatchedUnder(tops[0]!)).toBeGreaterThan(target);
            return;
          }
          expect(f.recommended.unmatchedRate).toBe(unmatchedUnder(f.recommended.floor));
          expect(f.recommended.unmatchedRate).toBeLessThanOrEqual(target);
          const higher = tops.find((t) => t > f.recommended!.floor);
          if (higher !== undefined) expect(unmatchedUnder(higher)).toBeGreaterThan(target);
        },
      ),
    );
  });

  it('without a target unmatched rate there is no recommended floor', () => {
    const t = tuneMargins(generateWorkload(300, 3));
    expect(t.floors.every((f) => f.recommended === undefined)).toBe(true);
    expect(t.targets.unmatchedRate).toBeUndefined();
  });
});
