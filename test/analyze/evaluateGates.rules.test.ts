// evaluateGates.rules — the exact words of each gate's reason and of each refusal, and the parser's edges.
import { describe, expect, it } from 'vitest';
import {
  GATE_METRICS,
  GATE_OPERATORS,
  compare,
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
  unmatchedRate: 0.123456,
  floorlessDecisions: 0,
  inconsistent: 0,
  problems: 0,
};

const HOW_TO =
  "use METRIC OP NUMBER with METRIC one of near-tie-rate, menu-rate, unmatched-rate, decisions and OP one of >, >=, <, <= (e.g. 'near-tie-rate>0.2' or 'near-tie-rate>20%'), or 'floorless', 'inconsistent' or 'problems'";

function gate(text: string): Gate {
  const p = parseGate(text);
  if (p.kind !== 'ok') throw new Error(p.message);
  return p.gate;
}

describe('parseGate: edges', () => {
  it('the metrics and operators, longest operators first', () => {
    expect(GATE_METRICS).toStrictEqual(['near-tie-rate', 'menu-rate', 'unmatched-rate', 'decisions']);
    expect(GATE_OPERATORS).toStrictEqual(['>=', '<=', '>', '<']);
  });

  it('>= and <= are read whole, not as > or < followed by =', () => {
    expect(gate('menu-rate>=0.5')).toStrictEqual({
      kind: 'threshold',
      metric: 'menu-rate',
      op: '>=',
      value: 0.5,
    });
    expect(gate('menu-rate<=0.5')).toStrictEqual({
      kind: 'threshold',
      metric: 'menu-rate',
      op: '<=',
      value: 0.5,
    });
  });

  it('the first operator in the text splits metric from number; names and keywords ignore case and spaces', () => {
    expect(gate('  Near-Tie-Rate  <  0.3 ')).toStrictEqual({
      kind: 'threshold',
      metric: 'near-tie-rate',
      op: '<',
      value: 0.3,
    });
    expect(gate(' Floorless ')).toStrictEqual({ kind: 'floorless' });
    expect(gate('Problems')).toStrictEqual({ kind: 'problems' });
  });

  it('a percentage may have spaces before its sign, and is divided by 100', () => {
    expect(gate('menu-rate > 12.5 %')).toMatchObject({ value: 0.125 });
  });

  it('each refusal says what was wrong and how to write a gate', () => {
    expect(parseGate('near-tie-rate')).toStrictEqual({
      kind: 'error',
      message: `--fail-on 'near-tie-rate': no comparison found; ${HOW_TO}`,
    });
    expect(parseGate('tie-rate>0.2')).toStrictEqual({
      kind: 'error',
      message: `--fail-on 'tie-rate>0.2': unknown metric 'tie-rate'; ${HOW_TO}`,
    });
    expect(parseGate('menu-rate> abc')).toStrictEqual({
      kind: 'error',
      message: `--fail-on 'menu-rate> abc': 'abc' is not a number; ${HOW_TO}`,
    });
    expect(parseGate('decisions>5%')).toStrictEqual({
      kind: 'error',
      message: "--fail-on 'decisions>5%': decisions is a count, not a percentage",
    });
  });

  it('an empty number, a lone %, or an infinite one is not a number', () => {
    for (const bad of ['menu-rate>', 'menu-rate>%', 'menu-rate>Infinity', 'menu-rate> ']) {
      const p = parseGate(bad);
      expect(p.kind, bad).toBe('error');
      if (p.kind === 'error') expect(p.message, bad).toContain('is not a number');
    }
  });
});

describe('formatGate', () => {
  it('a threshold gate is metric, operator and number run together; the others are their name', () => {
    expect(formatGate({ kind: 'threshold', metric: 'menu-rate', op: '>=', value: 0.2 })).toBe(
      'menu-rate>=0.2',
    );
    expect(formatGate({ kind: 'floorless' })).toBe('floorless');
    expect(formatGate({ kind: 'inconsistent' })).toBe('inconsistent');
  });

  it('-0 is written -0, so it reads back as -0', () => {
    expect(formatGate({ kind: 'threshold', metric: 'decisions', op: '<', value: -0 })).toBe('decisions<-0');
    expect(formatGate({ kind: 'threshold', metric: 'decisions', op: '<', value: 0 })).toBe('decisions<0');
  });
});

describe('evaluateGates: the reasons', () => {
  it('a rate is shown rounded to four decimals, over the decisions counted', () => {
    const [r] = evaluateGates([gate('unmatched-rate>0.5')], metrics);
    expect(r).toStrictEqual({
      gate: 'unmatched-rate>0.5',
      failed: false,
      actual: 0.123456,
      reason: 'unmatched-rate>0.5: unmatched-rate is 0.1235 over 100 decisions',
    });
  });

  it('one decision is one decision', () => {
    const [r] = evaluateGates([gate('menu-rate>0.5')], { ...metrics, decisions: 1, menuRate: 1 });
    expect(r!.reason).toBe('menu-rate>0.5: menu-rate is 1 over 1 decision');
  });

  it('the decisions gate shows the count alone', () => {
    const [r] = evaluateGates([gate('decisions<500')], metrics);
    expect(r).toStrictEqual({
      gate: 'decisions<500',
      failed: true,
      actual: 100,
      reason: 'decisions<500: decisions is 100',
    });
  });

  it('each metric is read from its own field', () => {
    const m = { ...metrics, nearTieRate: 0.9, menuRate: 0.8, unmatchedRate: 0.7, decisions: 6 };
    const r = evaluateGates(
      [gate('near-tie-rate>0'), gate('menu-rate>0'), gate('unmatched-rate>0'), gate('decisions>0')],
      m,
    );
    expect(r.map((x) => x.actual)).toStrictEqual([0.9, 0.8, 0.7, 6]);
  });

  it('problems, floorless and inconsistent say what they found, failed or not', () => {
    const clean = evaluateGates([gate('problems'), gate('floorless'), gate('inconsistent')], metrics);
    expect(clean).toStrictEqual([
      { gate: 'problems', failed: false, actual: 0, reason: 'problems: every input was read cleanly' },
      {
        gate: 'floorless',
        failed: false,
        actual: 0,
        reason: 'floorless: every decision was judged with a floor',
      },
      {
        gate: 'inconsistent',
        failed: false,
        actual: 0,
        reason: 'inconsistent: every replayable verdict reproduces',
      },
    ]);
    const bad = evaluateGates([gate('problems'), gate('floorless'), gate('inconsistent')], {
      ...metrics,
      problems: 2,
      floorlessDecisions: 3,
      inconsistent: 4,
    });
    expect(bad).toStrictEqual([
      {
        gate: 'problems',
        failed: true,
        actual: 2,
        reason: 'problems: the read reported 2 problems (bad lines, unreadable or skipped files)',
      },
      {
        gate: 'floorless',
        failed: true,
        actual: 3,
        reason: 'floorless: 3 of 100 decisions were judged with no floor (unmatched unreachable)',
      },
      {
        gate: 'inconsistent',
        failed: true,
        actual: 4,
        reason: 'inconsistent: 4 recorded verdicts are not what the policy gives on their recorded numbers',
      },
    ]);
  });

  it('with no decision, a gate that fails for that says so, and has actual 0 and empty set', () => {
    const [r] = evaluateGates([gate('inconsistent')], { ...metrics, decisions: 0 });
    expect(r).toStrictEqual({
      gate: 'inconsistent',
      failed: true,
      actual: 0,
      reason: 'inconsistent: no decision to judge (0 decisions read)',
      empty: true,
    });
  });

  it('problems is judged with no decision too, and fails on a problem', () => {
    const [r] = evaluateGates([gate('problems')], { ...metrics, decisions: 0, problems: 1 });
    expect(r).toMatchObject({ failed: true, actual: 1 });
    expect(r).not.toHaveProperty('empty');
  });

  it('a gate that passed has no empty key', () => {
    expect(evaluateGates([gate('menu-rate>0.5')], metrics)[0]).not.toHaveProperty('empty');
  });

  it('no gates, no results', () => {
    expect(evaluateGates([], metrics)).toStrictEqual([]);
  });
});

describe('compare', () => {
  it('each operator on values below, at and above the limit', () => {
    const row = (op: (typeof GATE_OPERATORS)[number]) => [1, 2, 3].map((a) => compare(a, op, 2));
    expect(row('>')).toStrictEqual([false, false, true]);
    expect(row('>=')).toStrictEqual([false, true, true]);
    expect(row('<')).toStrictEqual([true, false, false]);
    expect(row('<=')).toStrictEqual([true, true, false]);
  });
});
