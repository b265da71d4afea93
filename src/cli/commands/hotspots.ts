/**
 * hotspots — `routescope hotspots <inputs..>`: the skill pairs that keep tying, grouped as asked.
 *
 * `--by` names the dimensions besides the pair (router, scorer, service; repeatable); `--by pair` groups by
 * the pair alone. The default, router + scorer, keeps two graphs and two scorers apart.
 */
import { createHotspotAnalysis, type HotspotDimension } from '../../analyze/findNearTieHotspots.js';
import type { CliCommand } from '../cliCommand.js';
import { readGates, reportFailedGates, withGates } from '../gateOptions.js';
import { readInputs, readJobs, readInteger, withInputs } from '../commonOptions.js';
import { emitReport } from '../emitReport.js';
import { withExamples } from '../helpText.js';
import { hotspotsToDocument, hotspotsToJson } from '../../report/presentHotspots.js';
import { runGatedAnalysis } from '../runAnalysisPass.js';

const BY_CHOICES = ['router', 'scorer', 'service', 'pair'] as const;

/** `routescope hotspots`. */
export const hotspotsCommand: CliCommand = {
  command: 'hotspots [inputs..]',
  describe: 'near-tie hot spots: the {top, runner-up} pairs that keep tying, per router and scorer',
  builder: (y) =>
    withExamples(withGates(withInputs(y)), [
      ['$0 hotspots traces/', 'top 10 tied pairs per router and scorer'],
      ['$0 hotspots traces/ --by pair --top 20', 'tied pairs across every router and scorer'],
    ])
      .option('top', { type: 'number', requiresArg: true, describe: 'groups listed', default: 10 })
      .option('min-count', {
        type: 'number',
        requiresArg: true,
        describe: 'least near-ties a group needs to be listed',
        default: 1,
      })
      .option('by', {
        type: 'string',
        array: true,
        requiresArg: true,
        choices: BY_CHOICES,
        describe: 'group by these besides the pair (repeatable); pair = the pair alone',
        default: ['router', 'scorer'],
      }),
  async run(args, ctx) {
    const inputs = readInputs(args, ctx.io.env);
    const gates = readGates(args);
    const top = readInteger(args, 'top', '--top', 0) ?? 10;
    const minCount = readInteger(args, 'minCount', '--min-count', 0) ?? 1;
    const byRaw = (Array.isArray(args.by) ? args.by : [args.by ?? 'router']).map(String);
    const by = byRaw.filter((b): b is HotspotDimension => b !== 'pair');
    const analysis = createHotspotAnalysis({ by, top, minCount });
    const { exitCode, ...view } = await runGatedAnalysis(analysis, gates, inputs, ctx.io, readJobs(args));
    await emitReport(ctx, { json: (v) => hotspotsToJson(view, v), document: () => hotspotsToDocument(view) });
    reportFailedGates(view.gates, ctx);
    return exitCode;
  },
};
