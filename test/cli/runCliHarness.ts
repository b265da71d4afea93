// runCliHarness — run the CLI in-process with captured output.
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface HarnessOptions {
  readonly isTTY?: boolean;
  readonly stderrIsTTY?: boolean;
  readonly env?: Record<string, string | undefined>;
  readonly stdinText?: string;
}

/** Run `routescope ...argv` and capture stdout, stderr and the exit code. */
export async function cli(argv: readonly string[], options: HarnessOptions = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    isTTY: options.isTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? options.isTTY ?? false,
    env: options.env ?? {},
    ...(options.stdinText === undefined ? {} : { stdin: Readable.from([Buffer.from(options.stdinText)]) }),
  });
  return { code, stdout, stderr };
}

/** Run with `--format json` and parse stdout. */
export async function cliJson(
  argv: readonly string[],
): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const r = await cli([...argv, '--format', 'json']);
  return { code: r.code, json: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
}
