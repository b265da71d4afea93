/**
 * replay — `routescope replay <inputs..> [--margin M] [--floor F | --no-floor] [--menu-size N]`: what every
 * recorded decision would have been under other thresholds, and the consistency audit under its own.
 */
import type { ReplayThresholds } from '../../analyze/replayDecision.js';
import type { CliArgs, CliCommand } from '../cliCommand.js';
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
import { escapeControlChars } from '../../report/escapeControlChars.js';
import { withExamples } from '../helpText.js';
import { runSingleAnalysis } from '../runAnalysisPass.js';
import { UsageError } from '../usageError.js';
import { readWhere, watchWhere, withWhere } from '../whereOption.js';

/** Flipped decisions `--list` shows when given no number. */
export const DEFAULT_LIST_LIMIT = 50;

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
    const { replayToDocument, replayToJson } = await import('../../report/presentReplay.js');
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
