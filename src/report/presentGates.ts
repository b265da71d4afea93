/**
 * presentGates — the outcome of `--fail-on` gates in a report (the one-line reasons also go to stderr).
 * Pure.
 */
import type { GateResult } from '../analyze/evaluateGates.js';
import { tone, type Block } from './document.js';

/** The `gates` array of the JSON contract. */
export function gatesToJson(results: readonly GateResult[]): Record<string, unknown>[] {
  return results.map((r) => ({ gate: r.gate, failed: r.failed, actual: r.actual, reason: r.reason }));
}

/** The gates section of a text or Markdown report; empty when no gate was asked for. */
export function gateBlocks(results: readonly GateResult[]): Block[] {
  if (results.length === 0) return [];
  return [
    { kind: 'heading', text: 'Gates' },
    {
      kind: 'list',
      items: results.map((r) => [
        tone(r.failed ? 'FAIL' : 'pass', r.failed ? 'bad' : 'good'),
        ` ${r.reason}`,
      ]),
    },
  ];
}
