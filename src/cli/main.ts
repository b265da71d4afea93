/**
 * main — the `routescope` CLI core: `runCli(argv, io)` parses, runs one command, returns the exit code.
 *
 * It never calls process.exit and writes only through the injected io, so tests run it in-process and
 * bin.ts is three lines. yargs parses (help, version, unknown commands and options, missing arguments);
 * the command runs after parsing. Exit codes: 0 ok, 1 a `--fail-on` gate failed, 2 a usage or input error,
 * with a message that says what to do; a stack trace only with --verbose. To add a command, write a
 * CliCommand in commands/ and list it in COMMANDS.
 */
import { createRequire } from 'node:module';
import yargs from 'yargs';
import { InputError } from '../trace/inputError.js';
import { EXIT_USAGE, type CliArgs, type CliCommand, type CommandContext } from './cliCommand.js';
import { STDIN_TOKEN } from './commonOptions.js';
import { describeUnknownFlags, unknownFlags } from './argumentHints.js';
import { analyzeCommand } from './commands/analyze.js';
import { demoCommand } from './commands/demo.js';
import { explainCommand } from './commands/explain.js';
import { floorlessCommand } from './commands/floorless.js';
import { flappingCommand } from './commands/flapping.js';
import { hotspotsCommand } from './commands/hotspots.js';
import { replayCommand } from './commands/replay.js';
import { serveCommand } from './commands/serve.js';
import { tuneCommand } from './commands/tune.js';
import { OUTPUT_FORMATS, type OutputFormat } from './emitReport.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import { HELP_WIDTH, RUN_COMMAND, tidyHelp } from './helpText.js';
import type { CliIo } from './io.js';
import { OutputError } from './outputError.js';
import { UsageError } from './usageError.js';

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly CliCommand[] = [
  analyzeCommand,
  hotspotsCommand,
  floorlessCommand,
  explainCommand,
  replayCommand,
  tuneCommand,
  flappingCommand,
  serveCommand,
  demoCommand,
];

/** The options every command takes (yargs adds help and version). */
const GLOBAL_FLAGS: readonly string[] = ['format', 'verbose', 'help', 'version'];

/** The flags `command` takes, as its builder declares them (for the nearest-flag hint). */
function flagsOf(command: CliCommand): string[] {
  try {
    const options = (
      command.builder(yargs([])) as unknown as { getOptions(): { key: Record<string, unknown> } }
    ).getOptions();
    return Object.keys(options.key).filter((k) => k.length > 1 && k !== 'inputs' && !/[A-Z]/.test(k));
  } catch {
    return [];
  }
}

/** The formats `--format` offers; a command may add its own renderer for `html`. */
export const FORMAT_CHOICES: readonly OutputFormat[] = OUTPUT_FORMATS;

/** Run the CLI on `argv` (without node and the script) and give the exit code. */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands: readonly CliCommand[] = COMMANDS,
): Promise<number> {
  const verbose = argv.includes('--verbose');
  // yargs drops a lone '-' (the stdin input); carry it through as a token readInputs turns back.
  const words = argv.map((a) => (a === '-' ? STDIN_TOKEN : a));
  try {
    let chosen: { command: CliCommand; args: CliArgs } | undefined;
    // Commands by the first word of their yargs command string.
    const byName = new Map(commands.map((command) => [command.command.split(' ')[0]!, command]));
    const parser = yargs(words)
      .scriptName('routescope')
      // English throughout: yargs' own words would otherwise follow LANG around our English descriptions.
      .locale('en')
      .usage(
        '$0 <command> <inputs..> [options]\n\nEvidence for agent routing decisions, from the traces you already export.',
      )
      .exitProcess(false)
      .strict()
      .demandCommand(1, `Name a command: ${[...byName.keys()].join(', ')}.`)
      .recommendCommands()
      .option('format', {
        choices: FORMAT_CHOICES,
        default: 'text',
        describe: 'output format',
        requiresArg: true,
      })
      .option('verbose', { type: 'boolean', default: false, describe: 'print stack traces of errors' })
      .help()
      .alias('h', 'help')
      .version(readVersion())
      .wrap(HELP_WIDTH)
      .fail((message: string | undefined, error: Error | undefined) => {
        const text = message ?? error?.message ?? 'invalid command line';
        // yargs says "Did you mean …?" for a near miss and "Unknown argument" for anything else: one message.
        const first = words[0];
        if (first !== undefined && !first.startsWith('-') && !byName.has(first)) {
          const near = /^Did you mean (\S+?)\?/.exec(text)?.[1];
          throw new UsageError(
            `unknown command '${first}'.${near === undefined ? '' : ` Did you mean ${near}?`} The commands are ${[...byName.keys()].join(', ')}.`,
          );
        }
        const unknown = unknownFlags(text, words);
        const command = first === undefined ? undefined : byName.get(first);
        if (unknown !== undefined && unknown.flags.length > 0) {
          const known = [...GLOBAL_FLAGS, ...(command === undefined ? [] : flagsOf(command))];
          const extra = unknown.words.length > 0 ? `\nunexpected ${unknown.words.join(' ')}` : '';
          throw new UsageError(describeUnknownFlags(unknown.flags, known) + extra);
        }
        throw new UsageError(text);
      });
    // No yargs handlers: after running one, yargs renders and caches the whole help text (~15 ms on every
    // run). The command is read from the parsed words instead, and runs after parsing.
    for (const command of commands) {
      // The inputs are optional to yargs only because a trace store (--tempo, --jaeger) can stand in for them.
      const usage = `$0 ${command.command.replace('[inputs..]', '<inputs..>')} [options]\n\n${command.describe}`;
      parser.command(command.command, command.describe, (y) => {
        const built = command.builder(y).usage(usage);
        return command.reports === false ? built.hide('format') : built;
      });
    }
    const output = await new Promise<string>((resolve, reject) => {
      parser
        .parseAsync(words, {}, (error: Error | null | undefined, args: CliArgs, text: string) => {
          if (error) {
            reject(error instanceof UsageError ? error : new UsageError(error.message));
            return;
          }
          const first = (args._ as readonly unknown[] | undefined)?.[0];
          const command = text === '' ? byName.get(String(first)) : undefined;
          if (command !== undefined) chosen = { command, args };
          resolve(text);
        })
        .catch(reject);
    });
    if (chosen === undefined) {
      // --help or --version: yargs produced the text instead of a command.
      const help = tidyHelp(output);
      if (help !== '') io.stdout.write(help.endsWith('\n') ? help : `${help}\n`);
      return 0;
    }
    if (chosen.command.reports === false && words.some((w) => w === '--format' || w.startsWith('--format=')))
      throw new UsageError(
        `${chosen.command.command.split(' ')[0]} prints no report, so it takes no --format: its page is HTML, and the same as JSON is at /report.json`,
      );
    const format = String(chosen.args.format ?? 'text') as OutputFormat;
    const noColor = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
    const ctx: CommandContext = { io, format, color: format === 'text' && io.isTTY && !noColor, verbose };
    return await chosen.command.run(chosen.args, ctx);
  } catch (error) {
    return reportError(error, io, verbose);
  }
}

/** Print an error the way the user needs it and give exit code 2. */
function reportError(error: unknown, io: CliIo, verbose: boolean): number {
  if (error instanceof UsageError) {
    // yargs messages span lines; keep the lines, escape what is on them.
    const lines = error.message.split('\n').map(escapeControlChars).join('\n');
    io.stderr.write(`routescope: ${lines}\nRun '${RUN_COMMAND} --help' for usage.\n`);
  } else if (error instanceof InputError || error instanceof OutputError) {
    io.stderr.write(`routescope: ${escapeControlChars(error.message)}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(
      `routescope: unexpected error: ${escapeControlChars(message)}${verbose ? '' : ' (run again with --verbose for the stack trace)'}\n`,
    );
  }
  if (verbose && error instanceof Error && error.stack !== undefined) {
    io.stderr.write(`${escapeControlChars(error.stack).replace(/\\n/g, '\n')}\n`);
  }
  return EXIT_USAGE;
}

function readVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require('../../package.json') as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
