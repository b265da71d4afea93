/**
 * findCounterfactuals.laws.test — the counterfactuals are complete as well as sound: when some margin or
 * floor change would have changed the verdict, one is reported, and it is the nearest one; when none is
 * reported, none exists. Checked under both behaviours against a brute-force oracle that replays the decision
 * at every value that can matter (each score, just beside it, between scores, far out). Also the helpers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findCounterfactuals,
  nextDown,
  nextUp,
  verdictChanged,
} from '../../src/analyze/findCounterfactuals.js';
import { replayDecision, summarizeVerdict, type ReplayThresholds } from '../../src/analyze/replayDecision.js';
import type { PolicySemantics } from '../../src/policy/types.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';
import { decision, s } from './decisionBuilder.js';

const scoreArb = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -2, max: 2, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, 0.5, 1, -1) },
  { weight: 1, arbitrary: fc.constant(NaN) },
);
const callArb = fc.record({
  scores: fc
    .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 4 })
    .chain((ids) =>
      fc
        .array(scoreArb, { minLength: ids.length, maxLength: ids.length })
        .map((xs) => ids.map((id, i) => s(id, xs[i]!))),
    ),
  incumbent: fc.option(fc.constantFrom('a', 'b', 'z'), { nil: undefined }),
  margin: fc.oneof(fc.double({ min: 0.01, max: 0.8, noNaN: true }), fc.constant(0.15)),
  floor: fc.option(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(0, 0.5)), {
    nil: undefined,
  }),
  categorical: fc.boolean(),
});

/** Every floor value that can matter for `record`: each score, just beside it, between scores, far out. */
function floorProbes(record: DecisionRecord): number[] {
  const finite = [...new Set(record.ranked.map((r) => r.score).filter(Number.isFinite))].sort(
    (a, b) => a - b,
  );
  const out = [-1e6, 1e6];
  finite.forEach((x, i) => {
    out.push(x, nextDown(x), nextUp(x));
    if (i > 0) out.push((finite[i - 1]! + x) / 2);
  });
  return out;
}

describe.each<PolicySemantics>(['contract', 'agentfootprint-9.62'])(
  'counterfactuals are complete (%s)',
  (semantics) => {
    const verdictAt = (d: DecisionRecord, t: ReplayThresholds) => {
      const r = replayDecision(d, t, semantics);
      if (r.kind !== 'replayed') throw new Error(`replay: ${r.reason}`);
      return summarizeVerdict(r);
    };
    const record = (c: {
      scores: ReturnType<typeof s>[];
      incumbent: string | undefined;
      margin: number;
      floor: number | undefined;
      categorical: boolean;
    }): DecisionRecord =>
      decision({
        scores: c.scores,
        ...(c.incumbent === undefined ? {} : { incumbent: c.incumbent }),
        policy: { nearTieMargin: c.margin },
        scorer: {
          ...(c.floor === undefined ? {} : { floor: c.floor }),
          ...(c.categorical ? { categorical: true } : {}),
        },
        behaviour: semantics,
      });

    it('margin: a change exists ⇔ one is reported, and it is the nearest margin that changes the verdict', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const d = record(c);
          const cf = findCounterfactuals(d, semantics);
          const base = cf.baseline!;
          const from = c.margin;
          const probes = [0, 1e-12, from / 2, from, (from + 1) / 2, 1, 2, 1e6];
          const gap = d.runnerUp?.gap;
          if (gap !== undefined) probes.push(gap, nextUp(gap), nextDown(gap));
          const changing = probes.filter((m) => verdictChanged(base, verdictAt(d, { nearTieMargin: m })));
          if (changing.length === 0) {
            expect(cf.margin.kind).toBe('none');
            return;
          }
          expect(cf.margin.kind).toBe('margin');
          if (cf.margin.kind !== 'margin') return;
          const to = cf.margin.to;
          expect(verdictChanged(base, verdictAt(d, { nearTieMargin: to }))).toBe(true);
          // Nearest: no probe strictly between the recorded margin and the reported one changes the verdict.
          const lo = Math.min(from, to);
          const hi = Math.max(from, to);
          for (const m of changing) expect(m <= lo || m >= hi, `margin ${m} changes it too`).toBe(true);
        }),
        { numRuns: propertyRuns(300) },
      );
    });

    it('floor: a raise exists ⇔ one is reported (declared when there was none), and it is the lowest such floor', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const d = record(c);
          const cf = findCounterfactuals(d, semantics);
          const base = cf.baseline!;
          const current = d.effectiveFloor;
          const above = floorProbes(d).filter((f) => current === undefined || f > current);
          const changing = above.filter((f) => verdictChanged(base, verdictAt(d, { floor: f })));
          const raise = cf.floor.find((x) => x.kind === 'floor' && x.direction !== 'lower');
          if (changing.length === 0) {
            expect(raise).toBeUndefined();
            return;
          }
          expect(raise).toBeDefined();
          if (raise?.kind !== 'floor') return;
          expect(raise.direction).toBe(current === undefined ? 'declare' : 'raise');
          if (current !== undefined)
            // `+ 0`: a floor of -0 is the floor 0 (the probes hold both).
            expect(raise.to + 0).toBe(Math.min(...changing) + 0);
          else expect(changing).toContain(raise.to);
        }),
        { numRuns: propertyRuns(300) },
      );
    });

    it('floor: a lowering exists ⇔ one is reported, and it is the highest such floor', () => {
      fc.assert(
        fc.property(callArb, (c) => {
          const d = record(c);
          const cf = findCounterfactuals(d, semantics);
          const base = cf.baseline!;
          const current = d.effectiveFloor;
          const lower = cf.floor.find((x) => x.kind === 'floor' && x.direction === 'lower');
          if (current === undefined) {
            expect(lower).toBeUndefined();
            return;
          }
          const below = floorProbes(d).filter((f) => f < current);
          const changing = below.filter((f) => verdictChanged(base, verdictAt(d, { floor: f })));
          if (changing.length === 0) {
            expect(lower).toBeUndefined();
            return;
          }
          expect(lower).toBeDefined();
          if (lower?.kind !== 'floor') return;
          expect(lower.to + 0).toBe(Math.max(...changing) + 0);
        }),
        { numRuns: propertyRuns(300) },
      );
    });
  },
);

describe('counterfactuals: the named cases', () => {
  it('lowering the floor below the lowest score: a lone move becomes a menu, pivoting on that candidate', () => {
    const d = decision({ scores: [s('a', 0.5), s('b', 0.3)], scorer: { floor: 0.4 } });
    const cf = findCounterfactuals(d);
    expect(cf.baseline).toStrictEqual({ verdict: 'move', to: 'a' });
    expect(cf.floor).toStrictEqual([
      {
        kind: 'floor',
        direction: 'raise',
        from: 0.4,
        to: 0.5,
        bound: 'at',
        pivot: { id: 'a', score: 0.5 },
        result: { verdict: 'unmatched' },
      },
      {
        kind: 'floor',
        direction: 'lower',
        from: 0.4,
        to: nextDown(0.3),
        bound: 'below',
        pivot: { id: 'b', score: 0.3 },
        result: { verdict: 'menu', offered: ['a', 'b'] },
      },
    ]);
    expect(cf.noFloor).toBeUndefined();
  });

  it('a floor raise to 0 is reported as 0, the lowest floor that changes the verdict (-0 is the same floor)', () => {
    // Found by the completeness law: the floor just above -5e-324 is -0, which puts a (at 0) out just as 0 does.
    const d = decision({ scores: [s('a', 0), s('b', -5e-324)], scorer: { floor: -5e-324 } });
    const raise = findCounterfactuals(d).floor[0]!;
    expect(raise).toMatchObject({ kind: 'floor', direction: 'raise', to: 0, pivot: { id: 'a', score: 0 } });
  });

  it('tied scores pivot on the best-ranked candidate holding the score', () => {
    const d = decision({ scores: [s('a', 0.9), s('b', 0.9)], scorer: { floor: 0 } });
    const raise = findCounterfactuals(d).floor[0]!;
    expect(raise).toMatchObject({
      kind: 'floor',
      direction: 'raise',
      to: 0.9,
      pivot: { id: 'a', score: 0.9 },
    });
  });

  it('no change at all: margin none with its reason, no floor, and noFloor saying so', () => {
    const d = decision({ scores: [s('a', 1)], scorer: { categorical: true } });
    const cf = findCounterfactuals(d);
    expect(cf.margin).toStrictEqual({
      kind: 'none',
      parameter: 'margin',
      reason: 'a categorical scorer is decisive whatever the margin',
    });
    expect(cf.floor).toStrictEqual([
      {
        kind: 'floor',
        direction: 'declare',
        from: null,
        to: 1,
        bound: 'at',
        pivot: { id: 'a', score: 1 },
        result: { verdict: 'unmatched' },
      },
    ]);
    const stay = decision({ scores: [s('a', 1)], incumbent: 'a', scorer: { floor: 0 } });
    const none = findCounterfactuals(stay);
    expect(none.margin).toStrictEqual({
      kind: 'none',
      parameter: 'margin',
      reason: 'fewer than two candidates were alive, so the margin was never compared',
    });
    expect(none.noFloor).toBeUndefined();
  });

  it('omitted candidates are noted', () => {
    const d = decision({ scores: [s('a', 3), s('b', 1), s('c', 0.5)], maxCandidates: 2 });
    expect(findCounterfactuals(d).note).toBe('1 candidates were omitted; only recorded ones are considered');
    expect(findCounterfactuals(decision({ scores: [s('a', 1)] })).note).toBeUndefined();
  });
});

describe('verdictChanged', () => {
  it('another kind, or a move to another target, is a change; another menu list is not', () => {
    expect(verdictChanged({ verdict: 'move', to: 'a' }, { verdict: 'move', to: 'b' })).toBe(true);
    expect(verdictChanged({ verdict: 'move', to: 'a' }, { verdict: 'move', to: 'a' })).toBe(false);
    expect(verdictChanged({ verdict: 'stay' }, { verdict: 'move', to: 'a' })).toBe(true);
    expect(
      verdictChanged({ verdict: 'menu', offered: ['a', 'b'] }, { verdict: 'menu', offered: ['a'] }),
    ).toBe(false);
    expect(verdictChanged({ verdict: 'unmatched' }, { verdict: 'unmatched' })).toBe(false);
  });
});

describe('nextUp and nextDown', () => {
  it('nextUp: the next double above; 0 steps to the smallest subnormal; +Infinity and NaN stay', () => {
    expect(nextUp(0)).toBe(Number.MIN_VALUE);
    expect(nextUp(-0)).toBe(Number.MIN_VALUE);
    expect(nextUp(1)).toBe(1 + Number.EPSILON);
    expect(nextUp(-1)).toBe(-1 + Number.EPSILON / 2);
    expect(nextUp(-Number.MIN_VALUE)).toBe(-0);
    expect(nextUp(Number.MAX_VALUE)).toBe(Infinity);
    expect(nextUp(-Infinity)).toBe(-Number.MAX_VALUE);
    expect(nextUp(Infinity)).toBe(Infinity);
    expect(nextUp(NaN)).toBeNaN();
  });

  it('nextDown mirrors nextUp', () => {
    expect(nextDown(0)).toBe(-Number.MIN_VALUE);
    expect(nextDown(1)).toBe(1 - Number.EPSILON / 2);
    expect(nextDown(Infinity)).toBe(Number.MAX_VALUE);
    expect(nextDown(-Infinity)).toBe(-Infinity);
  });

  it('law: nothing lies strictly between x and nextUp(x)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const up = nextUp(x);
        expect(up).toBeGreaterThan(x);
        const mid = x + (up - x) / 2;
        expect(mid === x || mid === up).toBe(true);
        expect(nextDown(up)).toBe(x === 0 ? 0 : x);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe('counterfactuals: what is said when there is none', () => {
  it('an undecidable record: no baseline, and both parameters say why', () => {
    const d = decision({ scores: [s('a', 3), s('b', 1), s('c', 0.5)], maxCandidates: 1 });
    const reason =
      'the record cannot be replayed: only one recorded candidate is alive and 2 were omitted, so the runner-up is unknown';
    expect(findCounterfactuals(d)).toStrictEqual({
      baseline: null,
      margin: { kind: 'none', parameter: 'margin', reason },
      floor: [],
      noFloor: { kind: 'none', parameter: 'floor', reason },
    });
  });

  it('a margin that cannot change the verdict says which way it was moved and what stays', () => {
    // A stay on the incumbent at the top: decisive or a near-tie, it stays.
    const stay = decision({ scores: [s('a', 2), s('b', 1)], incumbent: 'a' });
    expect(findCounterfactuals(stay).margin).toStrictEqual({
      kind: 'none',
      parameter: 'margin',
      // The gap as every report shows a score: four decimals (tanh(0.5) = 0.46211…).
      reason: 'a margin above the gap 0.4621 makes it a near-tie, and the verdict stays stay',
    });
    const tied = decision({ scores: [s('a', 0.9), s('b', 0.85)], incumbent: 'a' });
    expect(findCounterfactuals(tied).margin).toStrictEqual({
      kind: 'none',
      parameter: 'margin',
      // tanh(0.025) = 0.02499…
      reason: 'a margin at the gap 0.0250 makes it decisive, and the verdict stays stay',
    });
  });

  it('no floor change: noFloor says so; with one, there is no noFloor key', () => {
    const stay = decision({ scores: [s('a', 2), s('b', 1)], incumbent: 'a' });
    const cf = findCounterfactuals(stay);
    expect(cf.floor.length > 0 || cf.noFloor !== undefined).toBe(true);
    const none = decision({ scores: [s('a', NaN)], incumbent: 'a' });
    expect(findCounterfactuals(none).noFloor).toStrictEqual({
      kind: 'none',
      parameter: 'floor',
      reason: 'no floor changes the verdict',
    });
    const some = findCounterfactuals(decision({ scores: [s('a', 2), s('b', 1)] }));
    expect(Object.hasOwn(some, 'noFloor')).toBe(false);
    expect(Object.hasOwn(some, 'note')).toBe(false);
  });
});
