/**
 * gateOptions — `--fail-on` and `--allow-empty`: the gates a command judges its input by, and the exit code.
 *
 * A gate expression is parsed before any input is read (evaluateGates.parseGate), so a typo costs no time and
 * exits 2 with a message that says what to type instead; after the read, a failed gate exits 1 with its reason
 * on stderr.
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
import { UsageError } from './usageError.js';

/** The repeatable `--fail-on` option and `--allow-empty`. */
export function withGates(y: Argv): Argv {
  return y
    .option('fail-on', {
      type: 'string',
      array: true,
      requiresArg: true,
      describe:
        "exit 1 when this holds: 'near-tie-rate>0.2' (metrics near-tie-rate, menu-rate, unmatched-rate, decisions; >, >=, <, <=), 'floorless', 'inconsistent', 'problems' (any bad line or unreadable file); repeatable",
    })
    .option('allow-empty', {
      type: 'boolean',
      describe:
        'let --fail-on gates pass when no routing decision was read (by default they fail: nothing was judged)',
    });
}

/** The `--fail-on` gates to judge, and whether an input without decisions may pass them. */
export interface GatePlan {
  readonly gates: readonly Gate[];
  readonly allowEmpty: boolean;
}

/** Parse every `--fail-on` and `--allow-empty`; a bad gate is a usage error. */
export function readGates(args: CliArgs): GatePlan {
  const raw = args.failOn;
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  const gates = list.map((text) => {
    const parsed = parseGate(text);
    if (parsed.kind === 'error') throw new UsageError(parsed.message);
    return parsed.gate;
  });
  return { gates, allowEmpty: args.allowEmpty === true };
}

/** Evaluate gates and give the exit code they call for. */
export function settleGates(
  plan: GatePlan,
  metrics: GateMetrics,
): { results: GateResult[]; exitCode: number } {
  const results = evaluateGates(plan.gates, metrics, plan.allowEmpty);
  return { results, exitCode: results.some((r) => r.failed) ? EXIT_GATE_FAILED : EXIT_OK };
}

/** Write the one-line reason of every failed gate to stderr; gates failed for want of decisions share one line. */
export function reportFailedGates(results: readonly GateResult[], ctx: CommandContext): void {
  const empty = results.filter((r) => r.failed && r.empty === true);
  if (empty.length > 0) {
    ctx.io.stderr.write(
      `routescope: gate failed: no routing decision was read, so ${empty.map((r) => `'${r.gate}'`).join(', ')} judged nothing; pass --allow-empty if an input without decisions may pass\n`,
    );
  }
  for (const r of results) {
    if (r.failed && r.empty !== true) ctx.io.stderr.write(`routescope: gate failed: ${r.reason}\n`);
  }
}
