/**
 * commonOptions — the options several commands share: inputs, `--fail-on` gates, and their checks.
 *
 * Values that yargs cannot validate (a gate expression, a count) are checked here, before any input is read,
 * so a typo costs no time and exits 2 with a message that says what to type instead.
 */
import type { Argv } from 'yargs';
import {
  evaluateGates,
  parseGate,
  type Gate,
  type GateMetrics,
  type GateResult,
} from '../analyze/evaluateGates.js';
import type { CliArgs, CommandContext } from './cliCommand.js';
import { EXIT_GATE_FAILED, EXIT_OK } from './cliCommand.js';
import { escapeControlChars } from './format/escapeControlChars.js';
import { UsageError } from './usageError.js';

/** What main.ts puts in place of a lone `-` (yargs drops it); no file name can contain NUL. */
export const STDIN_TOKEN = '\u0000-';

/** The `<inputs..>` positional. */
export function withInputs(y: Argv): Argv {
  return y.positional('inputs', {
    type: 'string',
    array: true,
    describe: 'trace files, folders (every file inside) or - for stdin; formats are detected from content',
  });
}

/** The repeatable `--fail-on` option. */
export function withGates(y: Argv): Argv {
  return y.option('fail-on', {
    type: 'string',
    array: true,
    requiresArg: true,
    describe:
      "exit 1 when this holds: 'near-tie-rate>0.2' (metrics near-tie-rate, menu-rate, unmatched-rate, decisions; >, >=, <, <=), 'floorless', 'inconsistent'; repeatable",
  });
}

/** The inputs named on the command line. */
export function readInputs(args: CliArgs): string[] {
  const raw = args.inputs;
  const list = (Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)]).map((x) =>
    x === STDIN_TOKEN ? '-' : x,
  );
  if (list.length === 0) throw new UsageError('name at least one trace file, folder, or - for stdin');
  return list;
}

/** Parse every `--fail-on`; a bad one is a usage error. */
export function readGates(args: CliArgs): Gate[] {
  const raw = args.failOn;
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  return list.map((text) => {
    const parsed = parseGate(text);
    if (parsed.kind === 'error') throw new UsageError(parsed.message);
    return parsed.gate;
  });
}

/** A number option within [min, max]; a usage error otherwise. */
export function readNumber(
  args: CliArgs,
  key: string,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!(n >= min && n <= max)) {
    throw new UsageError(
      `${flag} must be a number from ${min} to ${max}, got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}

/** A whole number option within [min, max]; a usage error otherwise. */
export function readInteger(
  args: CliArgs,
  key: string,
  flag: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      `${flag} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}

/** Evaluate gates and give the exit code they call for. */
export function settleGates(
  gates: readonly Gate[],
  metrics: GateMetrics,
): { results: GateResult[]; exitCode: number } {
  const results = evaluateGates(gates, metrics);
  return { results, exitCode: results.some((r) => r.failed) ? EXIT_GATE_FAILED : EXIT_OK };
}

/** Write the one-line reason of every failed gate to stderr. */
export function reportFailedGates(results: readonly GateResult[], ctx: CommandContext): void {
  for (const r of results) if (r.failed) ctx.io.stderr.write(`routescope: gate failed: ${r.reason}\n`);
}
