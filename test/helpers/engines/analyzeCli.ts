/**
 * analyzeCli — the built CLI's own answer about some inputs: `routescope analyze <inputs> --format json`, parsed.
 * The engine tests compare what the engines say with it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { requireBuild } from '../requireBuild.js';

const BIN = fileURLToPath(new URL('../../../dist/bin/routescope.js', import.meta.url));

/** A row of analyze's byRouter / byScorer tables. */
export interface AnalyzeRow {
  readonly name: string;
  readonly decisions: number;
  readonly verdicts: Record<string, number>;
  readonly nearTies: number;
  readonly nearTieRate: number;
}

/** The parts of analyze's JSON report the engine tests read (the rest is kept as is). */
export interface AnalyzeReport {
  readonly decisions: number;
  readonly verdicts: Record<string, number>;
  readonly nearTies: number;
  readonly misroutes: number;
  readonly inconsistent: number;
  readonly byRouter: { readonly rows: readonly AnalyzeRow[] };
  readonly byScorer: { readonly rows: readonly AnalyzeRow[] };
  readonly floorless: readonly { router: string; scorer: string; decisions: number }[];
  readonly [key: string]: unknown;
}

/** `routescope <command> <args> --format json`, parsed; fails with what it printed when it exits non-zero. */
export function cliJson(command: string, args: readonly string[]): unknown {
  requireBuild(BIN);
  const r = spawnSync(process.execPath, [BIN, command, ...args, '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0)
    throw new Error(`routescope ${command} ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** `routescope analyze <inputs> --format json`. */
export function analyze(inputs: readonly string[], extra: readonly string[] = []): AnalyzeReport {
  return cliJson('analyze', [...inputs, ...extra]) as AnalyzeReport;
}

/**
 * A report without what depends on how the spans arrived: the input section (files, lines, the scan path), and
 * for serve's `/report.json` its `serve` section (requests, window) and command name.
 */
export function withoutInput(report: AnalyzeReport): Record<string, unknown> {
  const { input: _input, serve: _serve, command: _command, ...rest } = report as Record<string, unknown>;
  return rest;
}

/** analyze's verdict counts as `"<router> <verdict>"` → decisions (verdicts with none left out). */
export function verdictCountsByRouter(report: AnalyzeReport): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of report.byRouter.rows)
    for (const [verdict, n] of Object.entries(row.verdicts)) if (n > 0) out[`${row.name} ${verdict}`] = n;
  return out;
}
