/**
 * analyze — `routescope analyze <inputs..>`: the overview a post-mortem or a CI job starts from.
 *
 * One pass feeds the overview, the hot spots and the floorless analysis; gates are judged on the overview.
 */
import { createChartDigest } from '../../analyze/chartDigest.js';
import { createFloorlessAnalysis } from '../../analyze/findFloorlessScorers.js';
import { createHotspotAnalysis } from '../../analyze/findNearTieHotspots.js';
import { createSummaryAnalysis } from '../../analyze/summarizeDecisions.js';
import type { CliCommand } from '../cliCommand.js';
import { readGates, reportFailedGates, settleGates, withGates } from '../gateOptions.js';
import {
  readInputs,
  readInteger,
  readJobsAndPolicy,
  readNumber,
  readPolicy,
  withInputs,
  withPolicy,
} from '../commonOptions.js';
import { emitReport } from '../emitReport.js';
import { withExamples } from '../helpText.js';
import { analyzeToDocument, analyzeToJson } from '../../report/presentAnalyze.js';
import { runAnalysisPass, type RecordSink } from '../runAnalysisPass.js';
import { countProblems } from '../../trace/readStats.js';

/** `routescope analyze`. */
export const analyzeCommand: CliCommand = {
  command: 'analyze [inputs..]',
  describe:
    'overview: verdict mix, near-tie rate per service/router/scorer, hot spots, floorless scorers, anomalies',
  builder: (y) =>
    withPolicy(
      withExamples(withGates(withInputs(y)), [
        ['$0 analyze traces/', 'overview of every trace file in traces/'],
        ["$0 analyze traces/ --fail-on 'near-tie-rate>20%' --fail-on floorless", 'a CI gate'],
        ['$0 analyze traces.jsonl --format json > report.json', 'the documented JSON report'],
        ['$0 analyze events.jsonl', "agentfootprint's own event log (turn_routed events)"],
        ['$0 analyze traces/ --policy contract', 'judge every decision by the contract'],
      ]),
    )
      .option('top', { type: 'number', requiresArg: true, describe: 'hot spots listed', default: 10 })
      .option('weakest', {
        type: 'number',
        requiresArg: true,
        describe: 'percent of weakest decisions the suggested floor catches',
        default: 10,
      }),
  async run(args, ctx) {
    const inputs = readInputs(args, ctx.io.env);
    const gates = readGates(args);
    const top = readInteger(args, 'top', '--top', 0) ?? 10;
    const weakestPercent = readNumber(args, 'weakest', '--weakest', 0, 100) ?? 10;
    const policy = readPolicy(args);
    const summary = createSummaryAnalysis({ policy });
    const hotspots = createHotspotAnalysis({ top });
    const floorless = createFloorlessAnalysis({ weakestPercent });
    // The HTML report's charts need aggregates the tables do not keep; read in the same pass.
    const digest = ctx.format === 'html' ? createChartDigest() : undefined;
    const sinks: RecordSink[] = [summary, hotspots, floorless];
    if (digest !== undefined) sinks.push(digest);
    const input = await runAnalysisPass(inputs, sinks, ctx.io, readJobsAndPolicy(args, policy));
    const s = summary.finish();
    const { results, exitCode } = settleGates(gates, { ...s, problems: countProblems(input.stats) });
    const view = {
      summary: s,
      hotspots: hotspots.finish(),
      floorless: floorless.finish(),
      input,
      gates: results,
      ...(digest === undefined ? {} : { digest: digest.finish() }),
    };
    await emitReport(ctx, { json: (v) => analyzeToJson(view, v), document: () => analyzeToDocument(view) });
    reportFailedGates(results, ctx);
    return exitCode;
  },
};
