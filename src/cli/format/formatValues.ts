/**
 * formatValues — how numbers, rates and absent names read in text and Markdown reports.
 *
 * One place so every report writes a rate, a score or a missing router the same way. Pure.
 */
import { formatNumber } from '../../analyze/explainDecisions.js';

/** A share as a percentage with one decimal (`12.5%`). */
export function formatPercent(x: number): string {
  if (!Number.isFinite(x)) return formatNumber(x);
  return `${(x * 100).toFixed(1)}%`;
}

/** A score, gap or threshold: four significant digits, non-finite spelled out. */
export function formatScore(x: number | undefined | null): string {
  return x === undefined || x === null ? '—' : formatNumber(x);
}

/** A name from a trace, or `(none)` when the spans did not carry it. */
export function formatName(name: string | null | undefined): string {
  return name ?? '(none)';
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A timestamp (ms since the epoch) as ISO-8601 UTC; `—` when not a valid time. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '—' : d.toISOString();
}
