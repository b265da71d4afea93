import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  findCounterfactuals,
  nextDown,
  nextUp,
  verdictChanged,
} from '../../src/analyze/findCounterfactuals.js';
import { replayDecision, summarizeVerdict } from '../../src/analyze/replayDecision.js';
import { decision, s } from './decisionBuilder.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

describe('findCounterfactuals', () => {
  it('a cold menu becomes a move when the margin is lowered to the gap', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0.9)] });
    const cf = findCounterfactuals(d);
    expect(cf.baseline?.verdict).toBe('menu');
    expect(cf.margin).toMatchObject({
      kind: 'margin',
      direction: 'lower',
      bound: 'at',
      to: d.runnerUp!.gap,
      result: { verdict: 'move', to: 'a' },
    });
  });

  it('a decisive cold move becomes a menu when the margin is raised just above the gap', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0.5)] });
    const cf = findCounterfactuals(d);
    expect(cf.margin).toMatchObject({
      kind: 'margin',
      direction: 'raise',
      bound: 'above',
      result: { verdict: 'menu' },
    });
    if (cf.margin.kind === 'margin') expect(cf.margin.to).toBe(nextUp(d.runnerUp!.gap));
  });

  it('no margin changes a decisive stay on the incumbent (a near-tie with it also stays)', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0.5)], incumbent: 'a' });
    expect(findCounterfactuals(d).margin).toMatchObject({ kind: 'none', parameter: 'margin' });
  });

  it('the margin is never compared with one alive candidate or a categorical scorer', () => {
    expect(findCounterfactuals(decision({ scores: [s('a', 1)] })).margin.kind).toBe('none');
    const cat = decision({ scores: [s('a', 1), s('b', 0)], scorer: { categorical: true } });
    expect(findCounterfactuals(cat).margin).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('categorical'),
    });
  });

  it('a floorless move becomes unmatched when a floor at the top score is declared', () => {
    const d = decision({ scores: [s('a', 0.3), s('b', -1)] });
    const cf = findCounterfactuals(d);
    expect(cf.floor).toEqual([
      expect.objectContaining({
        direction: 'declare',
        from: null,
        to: 0.3,
        bound: 'at',
        pivot: { id: 'a', score: 0.3 },
      }),
    ]);
    expect(cf.floor[0]!.result.verdict).toBe('unmatched');
  });

  it('an unmatched decision moves when the floor is lowered just below the best score', () => {
    const d = decision({ scores: [s('a', 0.3), s('b', 0.1)], scorer: { floor: 0.5 } });
    const cf = findCounterfactuals(d);
    const lower = cf.floor.find((c) => c.kind === 'floor' && c.direction === 'lower');
    expect(lower).toMatchObject({ from: 0.5, to: nextDown(0.3), bound: 'below', pivot: { id: 'a' } });
    expect(lower!.result).toEqual({ verdict: 'move', to: 'a' });
  });

  it('raising the floor past the top of a tie can also change the winner', () => {
    // a 1.0 and b 0.95 tie; a floor at 0.95 leaves a alone: a decisive move.
    const d = decision({ scores: [s('a', 1), s('b', 0.95), s('c', 0.2)], scorer: { floor: 0 } });
    const raise = findCounterfactuals(d).floor.find((c) => c.kind === 'floor' && c.direction === 'raise');
    expect(raise).toMatchObject({ to: 0.95, result: { verdict: 'move', to: 'a' } });
  });

  it('an undecidable record has no counterfactual', () => {
    const d = decision({ scores: [s('a', 3), s('b', 1), s('c', 0.5)], maxCandidates: 1 });
    const cf = findCounterfactuals(d);
    expect(cf.baseline).toBeNull();
    expect(cf.margin.kind).toBe('none');
  });

  it('law: every reported change replays to another verdict, and the nearest value short of it does not', () => {
    const arb = fc.record({
      scores: fc
        .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 4 })
        .chain((ids) =>
          fc
            .array(fc.double({ min: -2, max: 2, noNaN: true }), {
              minLength: ids.length,
              maxLength: ids.length,
            })
            .map((xs) => ids.map((id, i) => s(id, xs[i]!))),
        ),
      incumbent: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
      margin: fc.double({ min: 0.01, max: 0.8, noNaN: true }),
      floor: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
    });
    fc.assert(
      fc.property(arb, (p) => {
        const d = decision({
          scores: p.scores,
          ...(p.incumbent === undefined ? {} : { incumbent: p.incumbent }),
          policy: { nearTieMargin: p.margin },
          scorer: p.floor === undefined ? {} : { floor: p.floor },
        });
        const cf = findCounterfactuals(d);
        const base = cf.baseline!;
        const verdictAt = (t: Parameters<typeof replayDecision>[1]) => {
          const r = replayDecision(d, t);
          if (r.kind !== 'replayed') throw new Error('replay');
          return summarizeVerdict(r);
        };
        const changes = cf.margin.kind === 'margin' ? [cf.margin, ...cf.floor] : cf.floor;
        for (const c of changes) {
          if (c.kind === 'margin') {
            expect(verdictChanged(base, verdictAt({ nearTieMargin: c.to }))).toBe(true);
            const short = c.direction === 'lower' ? nextUp(c.to) : c.gap;
            expect(verdictChanged(base, verdictAt({ nearTieMargin: short }))).toBe(false);
          } else {
            expect(verdictChanged(base, verdictAt({ floor: c.to }))).toBe(true);
            if (c.direction === 'raise') {
              const short = Math.max(nextDown(c.to), c.from!);
              expect(verdictChanged(base, verdictAt({ floor: short }))).toBe(false);
            }
            if (c.direction === 'lower') {
              expect(verdictChanged(base, verdictAt({ floor: c.pivot.score }))).toBe(false);
            }
          }
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
