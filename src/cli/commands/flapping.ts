/**
 * flapping — `routescope flapping <inputs..>`: conversations whose routing bounces A → B → A, and runs of
 * near-tie stays that keep an incumbent by ambiguity alone; conversations and skill pairs ranked.
 */
import type { CliCommand } from '../cliCommand.js';
import { EXIT_OK } from '../cliCommand.js';
import { readInputs, readJobs, readInteger, withInputs } from '../commonOptions.js';
import { emitReport } from '../emitReport.js';
import { withExamples } from '../helpText.js';
import { runSingleAnalysis } from '../runAnalysisPass.js';

/** `routescope flapping`. */
export const flappingCommand: CliCommand = {
  command: 'flapping [inputs..]',
  describe: 'conversations that bounce between skills (A → B → A) or keep an incumbent by near-ties alone',
  builder: (y) =>
    withExamples(withInputs(y), [
      ['$0 flapping traces/', 'which conversations flap, on which skill pairs'],
      ['$0 flapping traces/ --window 5 --min-run 2 --format json', 'looser definitions, as JSON'],
    ])
      .option('window', {
        type: 'number',
        requiresArg: true,
        describe: 'A → B → A counts within this many turns',
        default: 3,
      })
      .option('min-run', {
        type: 'number',
        requiresArg: true,
        describe: 'near-tie stays in a row that make a run',
        default: 3,
      })
      .option('top', {
        type: 'number',
        requiresArg: true,
        describe: 'conversations and pairs listed',
        default: 10,
      }),
  async run(args, ctx) {
    // Loaded here, not at start-up: every command pays for what the CLI imports (docs/performance.md).
    const { createFlappingAnalysis, resolveFlappingConfig } = await import('../../analyze/flapping.js');
    const { flappingToDocument, flappingToJson } = await import('../../report/presentFlapping.js');
    const inputs = readInputs(args, ctx.io.env);
    const config = resolveFlappingConfig({
      window: readInteger(args, 'window', '--window', 1) ?? 3,
      minStayRun: readInteger(args, 'minRun', '--min-run', 1) ?? 3,
      top: readInteger(args, 'top', '--top', 0) ?? 10,
    });
    const analysis = createFlappingAnalysis(config);
    const { report, input, digest } = await runSingleAnalysis(analysis, inputs, ctx, readJobs(args));
    const view = { report, input, ...(digest === undefined ? {} : { digest }) };
    await emitReport(ctx, { json: (v) => flappingToJson(view, v), document: () => flappingToDocument(view) });
    return EXIT_OK;
  },
};
