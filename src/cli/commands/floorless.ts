/**
 * floorless — `routescope floorless <inputs..>`: scorers that judged with no floor, and the floor to declare.
 */
import { createFloorlessAnalysis } from '../../analyze/findFloorlessScorers.js';
import type { CliCommand } from '../cliCommand.js';
import { readGates, reportFailedGates, withGates } from '../gateOptions.js';
import { readInputs, readJobs, readNumber, withInputs } from '../commonOptions.js';
import { emitReport } from '../emitReport.js';
import { withExamples } from '../helpText.js';
import { floorlessToDocument, floorlessToJson } from '../../report/presentFloorless.js';
import { runGatedAnalysis } from '../runAnalysisPass.js';

/** `routescope floorless`. */
export const floorlessCommand: CliCommand = {
  command: 'floorless [inputs..]',
  describe:
    'scorers that judged with no floor (unmatched unreachable): top-score distribution and a floor to declare',
  builder: (y) =>
    withExamples(withGates(withInputs(y)), [
      ['$0 floorless traces/', 'floorless scorers and the floor for their weakest 10%'],
      ['$0 floorless traces/ --weakest 5 --fail-on floorless', 'fail CI while any scorer is floorless'],
    ]).option('weakest', {
      type: 'number',
      requiresArg: true,
      describe: 'suggest the floor that makes this percent of the weakest decisions unmatched',
      default: 10,
    }),
  async run(args, ctx) {
    const inputs = readInputs(args, ctx.io.env);
    const gates = readGates(args);
    const weakestPercent = readNumber(args, 'weakest', '--weakest', 0, 100) ?? 10;
    const analysis = createFloorlessAnalysis({ weakestPercent });
    const { exitCode, ...view } = await runGatedAnalysis(analysis, gates, inputs, ctx.io, readJobs(args));
    await emitReport(ctx, {
      json: (v) => floorlessToJson(view, v),
      document: () => floorlessToDocument(view),
    });
    reportFailedGates(view.gates, ctx);
    return exitCode;
  },
};
