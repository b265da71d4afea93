/**
 * cliCommand — the shape of one `routescope` command, so main.ts can list them and others can add theirs.
 *
 * A command is a yargs builder (options, positionals, examples) and a `run` that reads, analyzes and prints
 * through the injected io, returning the exit code. yargs only parses; `run` is called after parsing, so
 * an error inside a command is never mistaken for a usage error. Types only.
 */
import type { Argv } from 'yargs';
import type { CliIo } from './io.js';
import type { OutputFormat } from './emitReport.js';

/** Parsed arguments as yargs hands them over (camel-case keys included). */
export type CliArgs = Readonly<Record<string, unknown>>;

/** What every command gets besides its arguments. */
export interface CommandContext {
  readonly io: CliIo;
  readonly format: OutputFormat;
  /** ANSI colour allowed (text on a TTY without NO_COLOR). */
  readonly color: boolean;
  readonly verbose: boolean;
}

/** One command of the CLI. */
export interface CliCommand {
  /** yargs command string, e.g. `analyze <inputs..>`. */
  readonly command: string;
  readonly describe: string;
  readonly builder: (y: Argv) => Argv;
  readonly run: (args: CliArgs, ctx: CommandContext) => Promise<number>;
  /** False for a command that prints no report (serve): it refuses `--format` and its help leaves it out. */
  readonly reports?: boolean;
}

/** Exit codes: 0 ok, 1 a gate failed, 2 usage or input error. */
export const EXIT_OK = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_USAGE = 2;
