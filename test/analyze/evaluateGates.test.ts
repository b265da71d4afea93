import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  GATE_METRICS,
  GATE_OPERATORS,
  evaluateGates,
  formatGate,
  parseGate,
  type Gate,
  type GateMetrics,
} from '../../src/analyze/evaluateGates.js';

const metrics: GateMetrics = {
  decisions: 100,
  nearTieRate: 0.25,
  menuRate: 0.1,
  unmatchedRate: 0,
  floorlessDecisions: 0,
  inconsistent: 0,
  problems: 0,
};

function gate(text: string): Gate {
  const p = parseGate(text);
  if (p.kind !== 'ok') throw new Error(p.message);
  return p.gate;
}

describe('parseGate', () => {
  it('reads METRIC OP NUMBER for each operator, with spaces', () => {
    expect(gate('near-tie-rate>0.2')).toEqual({
      kind: 'threshold',
      metric: 'near-tie-rate',
      op: '>',
      value: 0.2,
    });
    expect(gate(' menu-rate >= 0.5 ')).toMatchObject({ op: '>=', value: 0.5 });
    expect(gate('unmatched-rate<0.1')).toMatchObject({ op: '<' });
    expect(gate('decisions<=10')).toMatchObject({ metric: 'decisions', op: '<=', value: 10 });
  });

  it('a rate may be a percentage', () => {
    expect(gate('near-tie-rate>20%')).toMatchObject({ value: 0.2 });
  });

  it('reads floorless and inconsistent', () => {
    expect(gate('floorless')).toEqual({ kind: 'floorless' });
    expect(gate('INCONSISTENT')).toEqual({ kind: 'inconsistent' });
  });

  it('refuses an unknown metric, a missing operator, a bad number, a percentage of a count', () => {
    for (const bad of [
      'tie-rate>0.2',
      'near-tie-rate',
      'near-tie-rate>',
      'near-tie-rate>abc',
      'decisions>5%',
      '',
    ]) {
      const p = parseGate(bad);
      expect(p.kind, bad).toBe('error');
      if (p.kind === 'error') expect(p.message).toContain('--fail-on');
    }
  });

  it('law: formatting then parsing gives the same gate', () => {
    const arb: fc.Arbitrary<Gate> = fc.oneof(
      fc.record({
        kind: fc.constant('threshold' as const),
        metric: fc.constantFrom(...GATE_METRICS),
        op: fc.constantFrom(...GATE_OPERATORS),
        value: fc.double({ noNaN: true, noDefaultInfinity: true }),
      }),
      fc.constant({ kind: 'floorless' as const }),
      fc.constant({ kind: 'inconsistent' as const }),
      fc.constant({ kind: 'problems' as const }),
    );
    fc.assert(
      fc.property(arb, (g) => {
        const back = parseGate(formatGate(g));
        expect(back.kind).toBe('ok');
        if (back.kind === 'ok') expect(back.gate).toEqual(g);
      }),
    );
  });
});

describe('evaluateGates', () => {
  it('a threshold gate fails when its condition holds', () => {
    const [over, under] = evaluateGates([gate('near-tie-rate>0.2'), gate('near-tie-rate>0.3')], metrics);
    expect(over).toMatchObject({ failed: true, actual: 0.25 });
    expect(over!.reason).toBe('near-tie-rate>0.2: near-tie-rate is 0.25 over 100 decisions');
    expect(under!.failed).toBe(false);
  });

  it('>= and <= include the limit; < and > exclude it', () => {
    const r = evaluateGates(
      [gate('menu-rate>=0.1'), gate('menu-rate<=0.1'), gate('menu-rate>0.1'), gate('menu-rate<0.1')],
      metrics,
    );
    expect(r.map((x) => x.failed)).toEqual([true, true, false, false]);
  });

  it('decisions compares the count (a gate against empty input, with --allow-empty)', () => {
    expect(evaluateGates([gate('decisions<1')], { ...metrics, decisions: 0 }, true)[0]!.failed).toBe(true);
  });

  it('no decision: every gate over decisions fails, having judged nothing; problems is judged as usual', () => {
    const none = { ...metrics, decisions: 0, nearTieRate: 0, menuRate: 0 };
    const r = evaluateGates([gate('near-tie-rate>0.2'), gate('floorless'), gate('problems')], none);
    expect(r.map((x) => [x.failed, x.empty ?? false])).toEqual([
      [true, true],
      [true, true],
      [false, false],
    ]);
    expect(r[0]!.reason).toBe('near-tie-rate>0.2: no decision to judge (0 decisions read)');
  });

  it('no decision with allowEmpty: the gates judge the empty overview and pass', () => {
    const none = { ...metrics, decisions: 0, nearTieRate: 0, menuRate: 0 };
    const r = evaluateGates([gate('near-tie-rate>0.2'), gate('floorless')], none, true);
    expect(r.map((x) => x.failed)).toEqual([false, false]);
  });

  it('problems fails when the read reported any problem', () => {
    expect(gate('problems')).toEqual({ kind: 'problems' });
    const r = evaluateGates([gate('problems')], { ...metrics, problems: 2 })[0]!;
    expect(r).toMatchObject({ failed: true, actual: 2 });
    expect(evaluateGates([gate('problems')], metrics)[0]!.failed).toBe(false);
  });

  it('floorless fails when any decision was judged with no floor', () => {
    expect(evaluateGates([gate('floorless')], metrics)[0]!.failed).toBe(false);
    const r = evaluateGates([gate('floorless')], { ...metrics, floorlessDecisions: 3 })[0]!;
    expect(r).toMatchObject({ failed: true, actual: 3 });
    expect(r.reason).toContain('3 of 100 decisions');
  });

  it('inconsistent fails when any recorded verdict does not replay', () => {
    expect(evaluateGates([gate('inconsistent')], { ...metrics, inconsistent: 1 })[0]!.failed).toBe(true);
    expect(evaluateGates([gate('inconsistent')], metrics)[0]!.failed).toBe(false);
  });
});
