/**
 * tune — `routescope tune <inputs..> --target-menu-rate R | --target-near-tie-rate R`: sweep the near-tie
 * margin (and a floor for floorless scorers) and recommend the margin that meets the target. Rates, not
 * accuracy: every output says so.
 */
import type { TuneConfig } from '../../analyze/tune.js';
import type { CliArgs, CliCommand } from '../cliCommand.js';
import { EXIT_OK } from '../cliCommand.js';
import {
  readInputs,
  readJobsAndPolicy,
  readNumber,
  readPolicy,
  withInputs,
  withPolicy,
} from '../commonOptions.js';
import { emitReport } from '../emitReport.js';
import { runSingleAnalysis } from '../runAnalysisPass.js';
import { UsageError } from '../usageError.js';
import { readWhere, withWhere } from './replay.js';

/** `routescope tune`. */
export const tuneCommand: CliCommand = {
  command: 'tune [inputs..]',
  describe:
    'sweep the near-tie margin and recommend the one meeting a target menu or near-tie rate (tunes rates, not accuracy)',
  builder: (y) =>
    withPolicy(withWhere(withInputs(y)))
      .option('target-menu-rate', {
        type: 'number',
        requiresArg: true,
        describe: 'highest acceptable menu rate (0..1)',
      })
      .option('target-near-tie-rate', {
        type: 'number',
        requiresArg: true,
        describe: 'highest acceptable near-tie rate (0..1)',
      })
      .option('target-unmatched-rate', {
        type: 'number',
        requiresArg: true,
        describe: 'for floorless scorers: highest acceptable unmatched rate under a recommended floor (0..1)',
      })
      .option('from', { type: 'number', requiresArg: true, describe: 'first margin swept', default: 0 })
      .option('to', { type: 'number', requiresArg: true, describe: 'last margin swept', default: 0.5 })
      .option('step', { type: 'number', requiresArg: true, describe: 'sweep step', default: 0.01 })
      .example(
        '$0 tune traces/ --target-menu-rate 0.05',
        'the widest margin asking the user at most 5% of the time',
      )
      .example('$0 tune traces/ --target-near-tie-rate 0.1 --where router=support-desk', 'one router')
      .example(
        '$0 tune traces/ --target-unmatched-rate 0.05',
        'a floor for each floorless scorer that says "no match" at most 5% of the time',
      )
      .example('$0 tune traces/ --target-menu-rate 0.05 --format html > tune.html', 'the curve as a page'),
  async run(args, ctx) {
    // Loaded here, not at start-up: every command pays for what the CLI imports (docs/performance.md).
    const { createTuneAnalysis, resolveTuneConfig } = await import('../../analyze/tune.js');
    const { tuneToDocument, tuneToJson } = await import('../format/presentTune.js');
    const inputs = readInputs(args, ctx.io.env);
    const policy = readPolicy(args);
    const config = { ...readTuneConfig(args, resolveTuneConfig), policy };
    const analysis = createTuneAnalysis(config);
    const { report, input, digest } = await runSingleAnalysis(
      analysis,
      inputs,
      ctx,
      readJobsAndPolicy(args, policy),
    );
    const view = { report, input };
    await emitReport(ctx, {
      json: (v) => tuneToJson(view, v),
      document: () => tuneToDocument(view),
      html: async () =>
        (await import('../html/renderTuneHtml.js')).renderTuneHtml(report, digest, input.stats),
    });
    return EXIT_OK;
  },
};

/** The tune options as a config, checked by `resolve` (the analysis's own check; it throws on a bad one). */
function readTuneConfig(
  args: CliArgs,
  resolve: (config: Partial<TuneConfig>) => unknown,
): Partial<TuneConfig> {
  const targetMenuRate = readNumber(args, 'targetMenuRate', '--target-menu-rate', 0, 1);
  const targetNearTieRate = readNumber(args, 'targetNearTieRate', '--target-near-tie-rate', 0, 1);
  const targetUnmatchedRate = readNumber(args, 'targetUnmatchedRate', '--target-unmatched-rate', 0, 1);
  const from = readNumber(args, 'from', '--from', 0, 1);
  const to = readNumber(args, 'to', '--to', 0, 1);
  const step = readNumber(args, 'step', '--step', Number.MIN_VALUE, 1);
  const config: Partial<TuneConfig> = {
    where: readWhere(args),
    ...(targetMenuRate === undefined ? {} : { targetMenuRate }),
    ...(targetNearTieRate === undefined ? {} : { targetNearTieRate }),
    ...(targetUnmatchedRate === undefined ? {} : { targetUnmatchedRate }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(step === undefined ? {} : { step }),
  };
  try {
    resolve(config);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.replace(/^tune: /, '') : String(err));
  }
  return config;
}
