// formatFigures — one rule per kind of figure: scores and gaps, thresholds, rates, counts, sweep columns.
import { describe, expect, it } from 'vitest';
import {
  SCORE_DECIMALS,
  countOf,
  createSweepFormat,
  formatRate,
  formatScoreValue,
  formatThreshold,
  formatWholeCount,
} from '../../src/analyze/formatFigures.js';

describe('formatScoreValue', () => {
  it('a score or gap has four decimals', () => {
    expect(SCORE_DECIMALS).toBe(4);
    expect(formatScoreValue(0.0331)).toBe('0.0331');
    expect(formatScoreValue(1)).toBe('1.0000');
    expect(formatScoreValue(-0.25)).toBe('-0.2500');
    expect(formatScoreValue(0)).toBe('0.0000');
  });

  it('a non-zero value that would show as zero is written as below the smallest step, with its sign', () => {
    expect(formatScoreValue(0.00004)).toBe('<0.0001');
    expect(formatScoreValue(-0.00004)).toBe('>-0.0001');
  });

  it('half the smallest step and more rounds to it: the cut is at 0.00005', () => {
    expect(formatScoreValue(0.00005)).toBe('0.0001');
    expect(formatScoreValue(0.000049)).toBe('<0.0001');
    expect(formatScoreValue(-0.00005)).toBe('-0.0001');
  });

  it('every non-zero value that four decimals would show as zero is written as below the smallest step', () => {
    // 10 ** -4 / 2 is a hair below 0.00005 in floating point, so toFixed(4) rounds it down to 0.0000.
    expect(formatScoreValue(10 ** -4 / 2)).toBe('<0.0001');
    expect(formatScoreValue(-(10 ** -4) / 2)).toBe('>-0.0001');
  });

  it('a negative value that rounds to zero loses its minus sign', () => {
    expect(formatScoreValue(-0)).toBe('0.0000');
  });

  it('non-finite values are spelled out', () => {
    expect(formatScoreValue(NaN)).toBe('NaN');
    expect(formatScoreValue(Infinity)).toBe('Infinity');
    expect(formatScoreValue(-Infinity)).toBe('-Infinity');
  });
});

describe('formatThreshold', () => {
  it('a threshold is written as it was set, the shortest text that reads back', () => {
    expect(formatThreshold(0.15)).toBe('0.15');
    expect(formatThreshold(0)).toBe('0');
    expect(formatThreshold(2.5e-7)).toBe('2.5e-7');
    expect(formatThreshold(0.1 + 0.2)).toBe('0.3');
    expect(formatThreshold(-1)).toBe('-1');
  });

  it('non-finite thresholds are spelled out', () => {
    expect(formatThreshold(NaN)).toBe('NaN');
    expect(formatThreshold(-Infinity)).toBe('-Infinity');
  });
});

describe('formatRate', () => {
  it('a rate is a percentage with one decimal', () => {
    expect(formatRate(0.125)).toBe('12.5%');
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(1)).toBe('100.0%');
  });

  it('a non-finite rate is spelled out', () => {
    expect(formatRate(Infinity)).toBe('Infinity');
    expect(formatRate(NaN)).toBe('NaN');
  });
});

describe('formatWholeCount and countOf', () => {
  it('a count is a whole number with thousands separators', () => {
    expect(formatWholeCount(1024)).toBe('1,024');
    expect(formatWholeCount(1234567.6)).toBe('1,234,568');
    expect(formatWholeCount(0)).toBe('0');
  });

  it('a non-finite count is spelled out', () => {
    expect(formatWholeCount(Infinity)).toBe('Infinity');
  });

  it('one takes the singular, any other count the plural (given, or the singular with an s)', () => {
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(2, 'file')).toBe('2 files');
    expect(countOf(0, 'file')).toBe('0 files');
    expect(countOf(1024, 'trace')).toBe('1,024 traces');
    expect(countOf(3, 'child', 'children')).toBe('3 children');
    expect(countOf(1, 'child', 'children')).toBe('1 child');
  });
});

describe('createSweepFormat', () => {
  it('margins get as many decimals as the start or the step, whichever has more', () => {
    expect(createSweepFormat({ from: 0, step: 0.01 })(0.5)).toBe('0.50');
    expect(createSweepFormat({ from: 0.125, step: 0.5 })(1)).toBe('1.000');
    expect(createSweepFormat({ from: 0, step: 1 })(3)).toBe('3');
    expect(createSweepFormat({ from: 0.5, step: 1 })(2)).toBe('2.0');
  });

  it('a start or step written with an exponent gets ten decimals, and never more', () => {
    expect(createSweepFormat({ from: 0, step: 1e-7 })(0.1)).toBe('0.1000000000');
    expect(createSweepFormat({ from: 1e-12, step: 0.1 })(0.2)).toBe('0.2000000000');
  });
});
