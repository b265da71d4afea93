/**
 * formatFigures — how every report writes each kind of figure, one rule per kind.
 *
 * A column mixing `0.0003877`, `0.0331` and `1` makes a reader compare digits instead of values, so a
 * measured score or gap always has four decimals (`0.0004`, `0.0331`, `1.0000`; a value too small to show as
 * `<0.0001`), a threshold someone set (a margin, a floor, a sweep step) is written as it was set (`0.15`),
 * a rate is a percentage with one decimal, and a count is a whole number with thousands separators. The
 * analyses use these for the sentences they write, the text, Markdown and HTML reports for everything else.
 * Pure.
 */

/** Decimals of a score or gap. */
export const SCORE_DECIMALS = 4;

/** Non-finite values spelled out, or undefined for a finite one. */
function spellNonFinite(x: number): string | undefined {
  if (Number.isFinite(x)) return undefined;
  // Stryker disable next-line EqualityOperator: equivalent — x is infinite here, never 0.
  return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
}

/** A measured score or gap: four decimals; a non-zero value that would show as zero is `<0.0001`. */
export function formatScoreValue(x: number): string {
  const spelled = spellNonFinite(x);
  if (spelled !== undefined) return spelled;
  const smallest = 10 ** -SCORE_DECIMALS;
  const text = x.toFixed(SCORE_DECIMALS);
  // Decided on the rounded text: a threshold of smallest / 2 misses values a hair below it that still round to 0.
  if (x !== 0 && Number(text) === 0)
    // Stryker disable next-line EqualityOperator: equivalent — x is not 0 here.
    return x > 0 ? `<${smallest.toFixed(SCORE_DECIMALS)}` : `>-${smallest.toFixed(SCORE_DECIMALS)}`;
  return text;
}

/** A threshold as it was set: the shortest text that reads back as the number (`0.15`, `0`, `2.5e-7`). */
export function formatThreshold(x: number): string {
  return spellNonFinite(x) ?? String(Number(x.toPrecision(6)));
}

/** A rate or share as a percentage with one decimal (`12.5%`, `0.0%`, `100.0%`). */
export function formatRate(x: number): string {
  return spellNonFinite(x) ?? `${(x * 100).toFixed(1)}%`;
}

/** A count with thousands separators. */
export function formatWholeCount(n: number): string {
  return spellNonFinite(n) ?? Math.round(n).toLocaleString('en-US');
}

/** A count and its noun, singular for one (`1 file`, `2 files`, `1,024 traces`). */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatWholeCount(n)} ${n === 1 ? singular : plural}`;
}

/** Decimals a threshold was written with (`0.01` → 2, `0.5` → 1, `0` → 0; exponent notation → 10). */
function decimalsOf(x: number): number {
  const text = formatThreshold(x);
  const dot = text.indexOf('.');
  // Stryker disable next-line EqualityOperator: equivalent — a number's text never starts with its dot.
  return /e/i.test(text) ? 10 : dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * How a sweep writes its margins: with as many decimals as its start and step were written with, so a
 * column of them lines up (`0.00`, `0.01`, … `0.50`).
 */
export function createSweepFormat(sweep: {
  readonly from: number;
  readonly step: number;
}): (m: number) => string {
  const decimals = Math.min(10, Math.max(decimalsOf(sweep.from), decimalsOf(sweep.step)));
  return (m) => m.toFixed(decimals);
}
