/**
 * evaluateGates — CI gates over the overview: `near-tie-rate>0.2`, `floorless`, `inconsistent`, `problems`.
 *
 * A gate names a condition to FAIL on. Threshold gates compare one metric of the overview with a number
 * (`>`, `>=`, `<`, `<=`; rates also accept a percentage); `floorless` fails when any decision was judged
 * with no floor, `inconsistent` when any recorded verdict is not what the policy replays, `problems` when
 * the read reported any problem (a bad line, an unreadable or skipped file). A gate over decisions judges
 * nothing when there are none, and a CI job must not pass on that by accident: with no decision every such
 * gate fails, unless `allowEmpty` says an empty input may pass. Parsing and printing round-trip, so the
 * reason line quotes the gate as the user could have typed it. Pure.
 */
import type { DecisionSummary } from './summarizeDecisions.js';
import { countOf } from './formatFigures.js';

/** The metrics a threshold gate can compare. */
export const GATE_METRICS = ['near-tie-rate', 'menu-rate', 'unmatched-rate', 'decisions'] as const;
/** A metric a threshold gate compares. */
export type GateMetric = (typeof GATE_METRICS)[number];
/** The comparison operators, longest first (so `>=` is not read as `>`). */
export const GATE_OPERATORS = ['>=', '<=', '>', '<'] as const;
/** A comparison operator. */
export type GateOperator = (typeof GATE_OPERATORS)[number];

/** One parsed `--fail-on` gate. */
export type Gate =
  | {
      readonly kind: 'threshold';
      readonly metric: GateMetric;
      readonly op: GateOperator;
      readonly value: number;
    }
  | { readonly kind: 'floorless' }
  | { readonly kind: 'inconsistent' }
  | { readonly kind: 'problems' };

/** A gate, or what was wrong with its text. */
export type GateParse =
  { readonly kind: 'ok'; readonly gate: Gate } | { readonly kind: 'error'; readonly message: string };

/** The outcome of one gate. */
export interface GateResult {
  /** The gate as text (`formatGate`). */
  readonly gate: string;
  readonly failed: boolean;
  /** The observed value. */
  readonly actual: number;
  /** One line: what was compared and how it came out. */
  readonly reason: string;
  /** Failed only because there was no decision to judge (see evaluateGates). */
  readonly empty?: boolean;
}

const HOW_TO =
  "use METRIC OP NUMBER with METRIC one of near-tie-rate, menu-rate, unmatched-rate, decisions and OP one of >, >=, <, <= (e.g. 'near-tie-rate>0.2' or 'near-tie-rate>20%'), or 'floorless', 'inconsistent' or 'problems'";

/** Parse one `--fail-on` value. */
export function parseGate(text: string): GateParse {
  const src = text.trim();
  const lower = src.toLowerCase();
  if (lower === 'floorless') return { kind: 'ok', gate: { kind: 'floorless' } };
  if (lower === 'inconsistent') return { kind: 'ok', gate: { kind: 'inconsistent' } };
  if (lower === 'problems') return { kind: 'ok', gate: { kind: 'problems' } };
  let at = -1;
  let op: GateOperator | undefined;
  for (let i = 0; i < src.length && op === undefined; i++) {
    for (const candidate of GATE_OPERATORS) {
      if (src.startsWith(candidate, i)) {
        op = candidate;
        at = i;
        break;
      }
    }
  }
  if (op === undefined)
    return { kind: 'error', message: `--fail-on '${text}': no comparison found; ${HOW_TO}` };
  const metric = src.slice(0, at).trim().toLowerCase();
  if (!(GATE_METRICS as readonly string[]).includes(metric)) {
    return { kind: 'error', message: `--fail-on '${text}': unknown metric '${metric}'; ${HOW_TO}` };
  }
  const rawValue = src.slice(at + op.length).trim();
  const percent = rawValue.endsWith('%');
  const numberText = percent ? rawValue.slice(0, -1).trim() : rawValue;
  const n = numberText === '' ? NaN : Number(numberText);
  if (!Number.isFinite(n)) {
    return { kind: 'error', message: `--fail-on '${text}': '${rawValue}' is not a number; ${HOW_TO}` };
  }
  if (percent && metric === 'decisions') {
    return { kind: 'error', message: `--fail-on '${text}': decisions is a count, not a percentage` };
  }
  const value = percent ? n / 100 : n;
  return { kind: 'ok', gate: { kind: 'threshold', metric: metric as GateMetric, op, value } };
}

/** A gate as text that `parseGate` reads back to the same gate. */
export function formatGate(gate: Gate): string {
  if (gate.kind !== 'threshold') return gate.kind;
  return `${gate.metric}${gate.op}${Object.is(gate.value, -0) ? '-0' : String(gate.value)}`;
}

/** The numbers gates read: the overview's, and the read's problem count. */
export type GateMetrics = Pick<
  DecisionSummary,
  'decisions' | 'nearTieRate' | 'menuRate' | 'unmatchedRate' | 'floorlessDecisions' | 'inconsistent'
> & {
  /** Problems the read reported (kept and counted past the cap). */
  readonly problems: number;
};

/** Evaluate every gate against the overview; with no decision, a gate over decisions fails unless `allowEmpty`. */
export function evaluateGates(gates: readonly Gate[], m: GateMetrics, allowEmpty = false): GateResult[] {
  return gates.map((gate) => evaluateGate(gate, m, allowEmpty));
}

function evaluateGate(gate: Gate, m: GateMetrics, allowEmpty: boolean): GateResult {
  const text = formatGate(gate);
  if (gate.kind === 'problems') {
    const failed = m.problems > 0;
    return {
      gate: text,
      failed,
      actual: m.problems,
      reason: failed
        ? `problems: the read reported ${m.problems} problems (bad lines, unreadable or skipped files)`
        : 'problems: every input was read cleanly',
    };
  }
  if (m.decisions === 0 && !allowEmpty) {
    return {
      gate: text,
      failed: true,
      actual: 0,
      reason: `${text}: no decision to judge (0 decisions read)`,
      empty: true,
    };
  }
  if (gate.kind === 'floorless') {
    const failed = m.floorlessDecisions > 0;
    return {
      gate: text,
      failed,
      actual: m.floorlessDecisions,
      reason: failed
        ? `floorless: ${m.floorlessDecisions} of ${m.decisions} decisions were judged with no floor (unmatched unreachable)`
        : 'floorless: every decision was judged with a floor',
    };
  }
  if (gate.kind === 'inconsistent') {
    const failed = m.inconsistent > 0;
    return {
      gate: text,
      failed,
      actual: m.inconsistent,
      reason: failed
        ? `inconsistent: ${m.inconsistent} recorded verdicts are not what the policy gives on their recorded numbers`
        : 'inconsistent: every replayable verdict reproduces',
    };
  }
  const actual = metricValue(gate.metric, m);
  const failed = compare(actual, gate.op, gate.value);
  const shown = gate.metric === 'decisions' ? String(actual) : roundForDisplay(actual);
  return {
    gate: text,
    failed,
    actual,
    reason: `${text}: ${gate.metric} is ${shown}${gate.metric === 'decisions' ? '' : ` over ${countOf(m.decisions, 'decision')}`}`,
  };
}

function metricValue(metric: GateMetric, m: GateMetrics): number {
  switch (metric) {
    case 'near-tie-rate':
      return m.nearTieRate;
    case 'menu-rate':
      return m.menuRate;
    case 'unmatched-rate':
      return m.unmatchedRate;
    case 'decisions':
      return m.decisions;
  }
}

/** `actual OP limit`. */
export function compare(actual: number, op: GateOperator, limit: number): boolean {
  switch (op) {
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
  }
}

function roundForDisplay(x: number): string {
  return String(Number(x.toFixed(4)));
}
