/**
 * tune — `routescope tune <inputs..> --target-menu-rate R | --target-near-tie-rate R`: sweep the near-tie
 * margin (and a floor for floorless scorers) and recommend the margin that meets the target. Rates, not
 * accuracy: every output says so.
 */
import type { TuneConfig } from '../../analyze/tune.js';
import type { CliArgs, CliCommand } from '../cliCommand.js';
import {
  readInputs,
  readJobsAndPolicy,
  readPolicy,
  readShare,
  withInputs,
  withPolicy,
} from '../commonOptions.js';
import { withExamples } from '../helpText.js';
import { emitReport } from '../emitReport.js';
import { runSingleAnalysis } from '../runAnalysisPass.js';
import { UsageError } from '../usageError.js';
import { readWhere, watchWhere, withWhere } from '../whereOption.js';

/** `routescope tune`. */
export const tuneCommand: CliCommand = {
  command: 'tune [inputs..]',
  describe:
    'sweep the near-tie margin and recommend the one meeting a target menu or near-tie rate (tunes rates, not accuracy)',
  builder: (y) =>
    withPolicy(
      withExamples(withWhere(withInputs(y)), [
        ['$0 tune traces/ --target-menu-rate 5%', 'the widest margin asking the user at most 5% of the time'],
        ['$0 tune traces/ --target-near-tie-rate 0.1 --where router=support-desk', 'one router'],
        [
          '$0 tune traces/ --target-unmatched-rate 0.05',
          'a floor for each floorless scorer that says "no match" at most 5% of the time',
        ],
        ['$0 tune traces/ --target-menu-rate 0.05 --format html > tune.html', 'the curve as a page'],
      ]),
    )
      // Rates and margins are untyped so that `10%` reaches readShare (yargs would make it NaN).
      .option('target-menu-rate', {
        requiresArg: true,
        describe: 'highest acceptable menu rate: 0..1 or a percentage (0.05 or 5%)',
      })
      .option('target-near-tie-rate', {
        requiresArg: true,
        describe: 'highest acceptable near-tie rate: 0..1 or a percentage',
      })
      .option('target-unmatched-rate', {
        requiresArg: true,
        describe:
          'for floorless scorers: highest acceptable unmatched rate under a recommended floor: 0..1 or a percentage',
      })
      .option('from', { requiresArg: true, describe: 'first margin swept (0..1)', default: 0 })
      .option('to', { requiresArg: true, describe: 'last margin swept (0..1)', default: 0.5 })
      .option('step', { requiresArg: true, describe: 'sweep step (above 0, at most 1)', default: 0.01 }),
  async run(args, ctx) {
    // Loaded here, not at start-up: every command pays for what the CLI imports (docs/performance.md).
    const { createTuneAnalysis, resolveTuneConfig } = await import('../../analyze/tune.js');
    const { tuneToDocument, tuneToJson } = await import('../../report/presentTune.js');
    const inputs = readInputs(args, ctx.io.env);
    const policy = readPolicy(args);
    const config = { ...readTuneConfig(args, resolveTuneConfig), policy };
    const analysis = createTuneAnalysis(config);
    const names = watchWhere(config.where ?? {});
    const { report, input, digest } = await runSingleAnalysis(
      analysis,
      inputs,
      ctx,
      readJobsAndPolicy(args, policy),
      [names],
    );
    const view = { report, input, ...(digest === undefined ? {} : { digest }) };
    await emitReport(ctx, { json: (v) => tuneToJson(view, v), document: () => tuneToDocument(view) });
    return names.finish(ctx);
  },
};

/** The tune options as a config, checked by `resolve` (the analysis's own check; it throws on a bad one). */
function readTuneConfig(
  args: CliArgs,
  resolve: (config: Partial<TuneConfig>) => unknown,
): Partial<TuneConfig> {
  const targetMenuRate = readShare(args, 'targetMenuRate', '--target-menu-rate');
  const targetNearTieRate = readShare(args, 'targetNearTieRate', '--target-near-tie-rate');
  const targetUnmatchedRate = readShare(args, 'targetUnmatchedRate', '--target-unmatched-rate');
  const from = readShare(args, 'from', '--from');
  const to = readShare(args, 'to', '--to');
  const step = readShare(args, 'step', '--step', { above: true });
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
