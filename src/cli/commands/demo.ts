/**
 * demo — `routescope demo [--out DIR]`: the README's first command. A simulated support-desk agent routes 200+
 * user turns through the instrumented policy, the trace file lands where the Collector would have put it, and
 * `analyze` reports on it.
 *
 * No network and no collector: the agent, its scorers and the exporter run in-process (src/demo). The report
 * is exactly `routescope analyze <file>` (same code path, same `--format`), followed by the commands to try
 * next on the same file. Around a JSON or Markdown report those extra lines go to stderr, so stdout stays a
 * clean document. Without `--out` the file goes to a fresh temp folder, which is kept (the next steps read it);
 * its path and the command that removes it are printed.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CliArgs, CliCommand, CommandContext } from '../cliCommand.js';
import { escapeControlChars } from '../../report/escapeControlChars.js';
import { RUN_COMMAND, withExamples } from '../helpText.js';
import { describeWriteFailure, OutputError } from '../outputError.js';
import { UsageError } from '../usageError.js';
import { analyzeCommand } from './analyze.js';

/** The file name the demo writes inside its folder. */
export const DEMO_TRACE_FILE = 'traces.jsonl';

/** `routescope demo`. */
export const demoCommand: CliCommand = {
  command: 'demo',
  describe: 'run a simulated support-desk agent (no network), write its traces, and analyze them',
  builder: (y) =>
    withExamples(y, [
      ['$0 demo', 'run the demo and print the analysis'],
      ['$0 demo --out demo-traces', 'keep demo-traces/traces.jsonl to try hotspots, floorless, explain'],
      ['$0 demo --format json', 'the analysis as the documented JSON report'],
      ['$0 demo --serve', 'run the demo against a routescope serve and watch it on the live page'],
    ])
      .option('serve', {
        type: 'boolean',
        describe:
          'start a serve (127.0.0.1:4318, page on 4319), send it the demo over OTLP/HTTP, and keep serving until Ctrl-C',
      })
      .option('port', {
        type: 'number',
        requiresArg: true,
        describe: 'with --serve: the OTLP/HTTP port (default 4318; 0: any free port)',
      })
      .option('ui-port', {
        type: 'number',
        requiresArg: true,
        describe: 'with --serve: the live page port (default 4319)',
      })
      .option('out', {
        type: 'string',
        requiresArg: true,
        describe: `keep the traces as DIR/${DEMO_TRACE_FILE} for the other commands (default: a new temp folder)`,
      }),
  async run(args, ctx) {
    if (args.serve === true) return runDemoServe(args, ctx);
    const file = prepareTraceFile(args.out);
    // Loaded here, not at the top: it pulls in the OpenTelemetry SDK, which every other command would otherwise
    // pay for at start-up (about 0.2 s of the CLI's fixed cost; docs/performance.md).
    const { runDemoAgent } = await import('../../demo/runDemoAgent.js');
    const run = await runDemoAgent({ path: file }).catch(async (error: unknown) => {
      const { TraceFileError } = await import('../../demo/otlpJsonLinesFileExporter.js');
      if (!(error instanceof TraceFileError)) throw error;
      throw new OutputError(
        `could not write the demo's traces to ${escapeControlChars(error.path)}: ${describeWriteFailure(error.cause)}; the file is incomplete, and nothing was analyzed`,
      );
    });
    const aside = ctx.format === 'text' ? ctx.io.stdout : ctx.io.stderr;
    // The folder outlives the run on purpose: the next steps printed below read its file.
    const where =
      args.out === undefined
        ? ` (a new temp folder, kept for the commands below: remove it with rm -r ${escapeControlChars(shellQuote(dirname(file)))} when done; --out DIR writes DIR/${DEMO_TRACE_FILE} instead)`
        : '';
    aside.write(
      (await describeRun(run.conversations, run.decisions, run.misroutes)) +
        `traces written to ${escapeControlChars(file)}${where}\n\n`,
    );
    const exitCode = await analyzeCommand.run({ inputs: [file] }, ctx);
    aside.write(nextSteps(file, run.explainConversationId, ctx));
    return exitCode;
  },
};

/**
 * `demo --serve`: a serve in this process, the demo's traces sent to its receiver over OTLP/HTTP as an
 * exporter sends them (one request per exported batch), then serving until Ctrl-C.
 */
async function runDemoServe(args: CliArgs, ctx: CommandContext): Promise<number> {
  const file = prepareTraceFile(args.out);
  const { runDemoAgent } = await import('../../demo/runDemoAgent.js');
  const run = await runDemoAgent({ path: file });
  const { serveCommand } = await import('./serve.js');
  // serve's own flag reading gives --port and --ui-port their defaults (4318, 4319).
  return serveCommand.run({ ...args, out: undefined }, ctx, {
    async onStarted(endpoint) {
      const lines = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      let sent = 0;
      for (const line of lines) {
        const response = await fetch(`${endpoint}/v1/traces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: line,
        });
        if (response.ok) sent++;
        else ctx.io.stderr.write(`routescope demo: serve answered ${response.status} to a batch\n`);
      }
      ctx.io.stdout.write(
        (await describeRun(run.conversations, run.decisions, run.misroutes)) +
          `sent to serve in ${sent} OTLP/HTTP requests; open the live page above (Ctrl-C stops it)\n`,
      );
    },
  });
}

/** The folder (given or a new temp one) and the trace file inside it; refuses a file that is not a file. */
function prepareTraceFile(out: unknown): string {
  let dir: string;
  if (out === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'routescope-demo-'));
  } else {
    dir = String(out);
    if (dir.trim() === '') throw new UsageError('--out needs a folder name');
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UsageError(`--out ${escapeControlChars(dir)}: cannot create the folder (${reason})`);
    }
  }
  const file = join(dir, DEMO_TRACE_FILE);
  let existing;
  try {
    existing = lstatSync(file);
  } catch {
    return file;
  }
  // Rewriting through a link or into a folder would write somewhere --out did not say.
  if (!existing.isFile()) {
    throw new UsageError(
      `--out ${escapeControlChars(dir)}: ${DEMO_TRACE_FILE} exists and is not a regular file`,
    );
  }
  return file;
}

/** What the demo agent is and did, in a few lines: its routers, their scorers and thresholds. */
async function describeRun(conversations: number, decisions: number, misroutes: number): Promise<string> {
  const { describeDemoRouters } = await import('../../demo/describeDemoRouters.js');
  const { DEMO_ROUTERS, DEMO_SKILLS } = await import('../../demo/demoSkills.js');
  const rows = describeDemoRouters();
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const table = rows.map(
    (row) =>
      `  ${row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
  );
  return (
    `routescope demo: a support-desk agent with ${DEMO_SKILLS.length} skills answered ${conversations} ` +
    `conversations (${decisions} user turns, each routed once) through ${DEMO_ROUTERS.length} routers:\n` +
    table.join('') +
    'Each turn was routed the way agentfootprint 9.62 routes it and reported as its turn_routed event, which ' +
    'routescopeObservability turned into spans.\n' +
    `A reviewer marked ${misroutes} turns as misrouted (recorded on their routing spans).\n`
  );
}

function nextSteps(file: string, conversationId: string | undefined, ctx: CommandContext): string {
  const f = shellQuote(file);
  const steps: [string, string][] = [
    [`${RUN_COMMAND} hotspots ${f}`, 'which skill pairs keep tying, per router and scorer'],
    [
      `${RUN_COMMAND} floorless ${f}`,
      'which scorer can never say "no match", and the floor that would make its weakest 10% unmatched',
    ],
  ];
  if (conversationId !== undefined) {
    steps.push([
      `${RUN_COMMAND} explain ${shellQuote(conversationId)} ${f}`,
      'the evidence behind a misrouted answer',
    ]);
  }
  steps.push([
    `${RUN_COMMAND} demo --serve`,
    'the same demo on the live page (http://127.0.0.1:4319/), until Ctrl-C',
  ]);
  const width = Math.max(...steps.map(([command]) => command.length));
  const lines = steps.map(([command, why]) => `  ${escapeControlChars(command.padEnd(width))}   # ${why}`);
  return `${ctx.format === 'text' ? '\n' : ''}Next, try:\n${lines.join('\n')}\n`;
}

/** A word the shell passes through unchanged: bare when safe, else single-quoted. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
