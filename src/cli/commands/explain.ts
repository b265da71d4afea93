/**
 * explain — `routescope explain <trace-id | conversation-id> <inputs..>`: the evidence behind one answer.
 *
 * Keeps only the records of that trace or conversation. When nothing matches, the (empty) report is still
 * printed, a line on stderr says what to check, and the exit code is 2.
 */
import { existsSync } from 'node:fs';
import type { CliCommand } from '../cliCommand.js';
import { EXIT_OK, EXIT_USAGE } from '../cliCommand.js';
import {
  STDIN_TOKEN,
  readInputs,
  readJobsAndPolicy,
  readPolicy,
  withInputs,
  withPolicy,
} from '../commonOptions.js';
import { emitReport } from '../emitReport.js';
import { escapeControlChars } from '../../report/escapeControlChars.js';
import { RUN_COMMAND, withExamples } from '../helpText.js';
import { runAnalysisPass } from '../runAnalysisPass.js';
import { readTraceLinkConfig, withTraceLinkOptions } from '../traceLinkOptions.js';
import { UsageError } from '../usageError.js';

/** `routescope explain`. */
export const explainCommand: CliCommand = {
  command: 'explain <id> [inputs..]',
  describe:
    'every routing decision of one trace or conversation: ranked table, why, and what would have changed it',
  builder: (y) =>
    withTraceLinkOptions(
      withPolicy(
        withExamples(
          withInputs(
            y.positional('id', {
              type: 'string',
              describe:
                'a trace id (32 hex digits, or a unique prefix of 8 or more) or a gen_ai.conversation.id',
            }),
          ),
          [
            ['$0 explain 4bf92f3577b34da6a3ce929d0e0e4736 traces/', 'one trace'],
            ['$0 explain 4bf92f35 traces/', 'the same trace by a prefix of its id'],
            [
              '$0 explain conv-1842 traces/ --jaeger-url http://localhost:16686',
              'a whole conversation, with links',
            ],
          ],
        ),
      ),
    ),
  async run(args, ctx) {
    // Loaded here, not at start-up: every command pays for what the CLI imports (docs/performance.md).
    const { createExplainAnalysis } = await import('../../analyze/explainDecisions.js');
    const { explainToDocument, explainToJson } = await import('../../report/presentExplain.js');
    const { buildTraceLinksFor } = await import('../../report/traceLinks.js');
    const id = String(args.id ?? '').trim();
    if (id === '') throw new UsageError('name a trace id or a conversation id to explain');
    const named = Array.isArray(args.inputs) ? args.inputs.filter((x) => x !== undefined) : [];
    if (named.length === 0 && args.tempo === undefined && args.jaeger === undefined && looksLikePath(id)) {
      // `explain traces/` with the id forgotten: yargs took the folder as the id.
      throw new UsageError(
        `'${escapeControlChars(id)}' was taken as the id to explain, and no input is named. Give the id first: ${RUN_COMMAND} explain <trace-or-conversation-id> ${escapeControlChars(id)}`,
      );
    }
    const missing = named
      .map(String)
      .find((x) => x !== STDIN_TOKEN && !/^https?:\/\//i.test(x) && !existsSync(x));
    if (missing !== undefined && existsSync(id))
      // `explain traces.jsonl 4bf92f35…`: the path where the id goes, the id where the path goes.
      throw new UsageError(
        `'${escapeControlChars(id)}' is a file or folder here and '${escapeControlChars(missing)}' is not: did you swap them? The id comes first: ${RUN_COMMAND} explain ${escapeControlChars(missing)} ${escapeControlChars(id)}`,
      );
    const inputs = readInputs(args, ctx.io.env);
    const linkConfig = readTraceLinkConfig(args);
    const policy = readPolicy(args);
    const analysis = createExplainAnalysis(id, { policy });
    const input = await runAnalysisPass(inputs, [analysis], ctx.io, readJobsAndPolicy(args, policy));
    const report = analysis.finish();
    const links = buildTraceLinksFor(
      report.traceIds,
      report.entries.map((e) => e.record),
      report.syntheticTraceIds,
      linkConfig,
    );
    const view = { report, links, input };
    await emitReport(ctx, { json: (v) => explainToJson(view, v), document: () => explainToDocument(view) });
    if (report.ambiguous !== undefined) {
      ctx.io.stderr.write(
        `routescope: '${escapeControlChars(id)}' is the start of more than one trace id (${report.ambiguous.join(', ')}${report.ambiguous.length >= 10 ? ', …' : ''}); give more of the id\n`,
      );
      return EXIT_USAGE;
    }
    if (report.entries.length === 0) {
      ctx.io.stderr.write(
        `routescope: no routing record has trace id or conversation id '${escapeControlChars(id)}'; ${existsSync(id) ? `that is a file or folder here: give the id first (${RUN_COMMAND} explain <id> ${escapeControlChars(id)} …)` : 'check the id (a trace id is 32 hex digits, or a unique prefix of 8 or more) and that the inputs hold that time range'}\n`,
      );
      return EXIT_USAGE;
    }
    return EXIT_OK;
  },
};

/** An id that names a file or folder here, or is written like a path. */
function looksLikePath(id: string): boolean {
  return existsSync(id) || /[\\/]|\.(jsonl|json|pb|binpb|zst|gz)$/i.test(id);
}
