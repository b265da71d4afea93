/**
 * replay — `routescope replay <inputs..> [--margin M] [--floor F | --no-floor] [--menu-size N]`: what every
 * recorded decision would have been under other thresholds, and the consistency audit under its own.
 */
import {
  createWhereCatalog,
  parseWhereClauses,
  type DecisionFilter,
  type UnknownWhereValue,
} from '../../analyze/filterDecisions.js';
import type { ReplayThresholds } from '../../analyze/replayDecision.js';
import type { Argv } from 'yargs';
import type { CliArgs, CliCommand, CommandContext } from '../cliCommand.js';
import { EXIT_OK, EXIT_USAGE } from '../cliCommand.js';
import {
  readInputs,
  readInteger,
  readJobsAndPolicy,
  readPolicy,
  readShare,
  withInputs,
  withPolicy,
} from '../commonOptions.js';
import { emitReport } from '../emitReport.js';
import { escapeControlChars } from '../format/escapeControlChars.js';
import { withExamples } from '../helpText.js';
import { runSingleAnalysis, type RecordSink } from '../runAnalysisPass.js';
import { UsageError } from '../usageError.js';

/** Flipped decisions `--list` shows when given no number. */
export const DEFAULT_LIST_LIMIT = 50;

/** The repeatable `--where key=value` option (replay and tune). */
export function withWhere(y: Argv): Argv {
  return y.option('where', {
    type: 'string',
    array: true,
    requiresArg: true,
    describe: 'only decisions with router=NAME, scorer=NAME or service=NAME; repeatable (same key: either)',
  });
}

/** Parse every `--where`; a bad clause is a usage error. */
export function readWhere(args: CliArgs): ReturnType<typeof parseWhereClauses> {
  const raw = args.where;
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  try {
    return parseWhereClauses(list);
  } catch (err) {
    throw new UsageError(escapeControlChars(err instanceof Error ? err.message : String(err)));
  }
}

/** Names listed after a `--where` value that matched nothing. */
const MAX_LISTED_NAMES = 20;

/**
 * A sink that learns the router, scorer and service names of the input, and `finish` that says on stderr which
 * `--where` values named none of them (with the names there are) and gives the exit code: 2 when one did.
 */
export function watchWhere(where: DecisionFilter): RecordSink & {
  finish(ctx: CommandContext): number;
} {
  const catalog = createWhereCatalog(where);
  return {
    add(record) {
      if (record.kind === 'decision') catalog.add(record);
    },
    finish(ctx) {
      const unknown = catalog.unknownValues();
      for (const u of unknown) ctx.io.stderr.write(`routescope: ${describeUnknownWhere(u)}\n`);
      return unknown.length > 0 ? EXIT_USAGE : EXIT_OK;
    },
  };
}

function describeUnknownWhere(u: UnknownWhereValue): string {
  const shown = u.known.slice(0, MAX_LISTED_NAMES).map((n) => escapeControlChars(n));
  const names =
    u.known.length === 0
      ? `no decision in the input names a ${u.key}`
      : `the ${u.key}s in the input are ${shown.join(', ')}${u.known.length > shown.length ? ` and ${u.known.length - shown.length} more` : ''}`;
  return `--where ${u.key}=${escapeControlChars(u.value)} matched no decision; ${names}`;
}

/** `routescope replay`. */
export const replayCommand: CliCommand = {
  command: 'replay [inputs..]',
  describe:
    'what-if: re-judge every recorded decision under another margin, floor or menu size; flip matrix, near-tie rate before/after, consistency audit',
  builder: (y) =>
    withPolicy(
      withExamples(withWhere(withInputs(y)), [
        ['$0 replay traces/ --margin 0.1', 'what a narrower margin would have changed'],
        ['$0 replay traces/ --floor 0.2 --where scorer=embedding --list', 'a floor for a floorless scorer'],
        ['$0 replay traces/', 'the consistency audit alone: every recorded verdict reproduced?'],
        ['$0 replay events.jsonl --policy contract', 'an agentfootprint event log judged by the contract'],
      ]),
    )
      // Untyped so that `10%` reaches readShare (yargs would make it NaN).
      .option('margin', {
        requiresArg: true,
        describe: 'near-tie margin to judge with: 0..1 or a percentage (0.1 or 10%)',
      })
      // Untyped on purpose: with type number, yargs turns --no-floor into floor 0.
      .option('floor', {
        describe: 'floor to judge with (overrides every scorer floor); --no-floor judges with none',
      })
      .option('menu-size', { type: 'number', requiresArg: true, describe: 'near-tie menu cap' })
      .option('list', {
        describe: `list flipped decisions (trace, conversation, from → to); optional count, default ${DEFAULT_LIST_LIMIT}`,
      }),
  async run(args, ctx) {
    // Loaded here, not at start-up: every command pays for what the CLI imports (docs/performance.md).
    const { createReplayAnalysis } = await import('../../analyze/replay.js');
    const { replayToDocument, replayToJson } = await import('../format/presentReplay.js');
    const inputs = readInputs(args, ctx.io.env);
    const thresholds = readThresholds(args);
    const where = readWhere(args);
    const listLimit = readList(args);
    const policy = readPolicy(args);
    const analysis = createReplayAnalysis({ thresholds, where, listLimit, policy });
    const names = watchWhere(where);
    const { report, input, digest } = await runSingleAnalysis(
      analysis,
      inputs,
      ctx,
      readJobsAndPolicy(args, policy),
      [names],
    );
    const view = { report, input, ...(digest === undefined ? {} : { digest }) };
    await emitReport(ctx, { json: (v) => replayToJson(view, v), document: () => replayToDocument(view) });
    return names.finish(ctx);
  },
};

function readThresholds(args: CliArgs): ReplayThresholds {
  const margin = readShare(args, 'margin', '--margin');
  const menuSize = readInteger(args, 'menuSize', '--menu-size', 1);
  let floor: number | null | undefined;
  if (args.floor === false) floor = null;
  else if (args.floor !== undefined) {
    const n = typeof args.floor === 'number' ? args.floor : args.floor === '' ? NaN : Number(args.floor);
    if (args.floor === true || !Number.isFinite(n)) {
      throw new UsageError(
        `--floor must be a finite number (or use --no-floor), got ${escapeControlChars(String(args.floor))}`,
      );
    }
    floor = n;
  }
  return {
    ...(margin === undefined ? {} : { nearTieMargin: margin }),
    ...(menuSize === undefined ? {} : { menuSize }),
    ...(floor === undefined ? {} : { floor }),
  };
}

function readList(args: CliArgs): number {
  const v = args.list;
  if (v === undefined || v === false) return 0;
  if (v === true || v === '') return DEFAULT_LIST_LIMIT;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < 0) {
    throw new UsageError(
      `--list takes an optional whole number of decisions to list, got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}
