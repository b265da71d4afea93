/**
 * formatValues — how numbers, rates and absent names read in text and Markdown reports.
 *
 * One place so every report writes a rate, a score or a missing router the same way; the rules themselves,
 * one per kind of figure, are analyze/formatFigures. Pure.
 */
import {
  countOf,
  formatRate,
  formatScoreValue,
  formatThreshold,
  formatWholeCount,
} from '../analyze/formatFigures.js';

export { countOf };

/** A share as a percentage with one decimal (`12.5%`). */
export function formatPercent(x: number): string {
  return formatRate(x);
}

/** A measured score or gap: four decimals (`0.0331`, `1.0000`, `<0.0001`); `—` when absent. */
export function formatScore(x: number | undefined | null): string {
  return x === undefined || x === null ? '—' : formatScoreValue(x);
}

/** A threshold (margin, floor, step) as it was set (`0.15`); `—` when absent. */
export function formatSetting(x: number | undefined | null): string {
  return x === undefined || x === null ? '—' : formatThreshold(x);
}

/** A name from a trace, or `(none)` when the spans did not carry it. */
export function formatName(name: string | null | undefined): string {
  return name ?? '(none)';
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return formatWholeCount(n);
}

/** A timestamp (ms since the epoch) as ISO-8601 UTC; `—` when not a valid time. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '—' : d.toISOString();
}
