/**
 * runAnalysisPass — read every input once and feed each record to every analysis of the command.
 *
 * One pass, streaming: the reader yields records as it parses, the analyses keep only their bounded state,
 * so memory does not grow with the input. Progress goes to stderr on a terminal. An input that cannot be read
 * at all surfaces as the reader's InputError (exit 2); bad lines are in the returned stats. Trace stores
 * (--tempo, --jaeger) are read after the files, into the same stats and sinks. With `jobs` > 1 the files are
 * read by that many threads (readInParallel), merged into the same records in the same order. Files that
 * hold no span and no record at all are an input error too, never a report of zero; a file in a folder that
 * could not be opened is named on stderr as well as in the report's problems.
 */
import { createChartDigest, type ChartDigest } from '../analyze/chartDigest.js';
import type { GateResult } from '../analyze/evaluateGates.js';
import { countRecordKind, createRecordKindCounts } from '../analyze/recordKindCounts.js';
import { createSummaryAnalysis } from '../analyze/summarizeDecisions.js';
import { describeNothingRead } from '../trace/describeNothingRead.js';
import { InputError } from '../trace/inputError.js';
import { DEFAULT_EVENT_LOG_OPTIONS } from '../trace/formats/readAgentfootprintEvent.js';
import { PARALLEL_MIN_BYTES } from '../trace/parallel/readInParallel.js';
import { readAllInputs } from '../trace/readAllInputs.js';
import { countProblems, createReadStats } from '../trace/readStats.js';
import { describeTraceInput, type RemoteSource, type TraceInput } from '../trace/stores/remoteSource.js';
import type { TraceRecord } from '../record/types.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import type { InputSummary } from '../report/presentInput.js';
import { EXIT_OK, type CommandContext } from './cliCommand.js';
import { settleGates, type GatePlan } from './gateOptions.js';
import { type ReaderThreads } from './commonOptions.js';
import type { CliIo } from './io.js';
import { createProgressLine } from './progressLine.js';

/** Anything that takes records one at a time. */
export interface RecordSink {
  add(record: TraceRecord): void;
}

/** Read `inputs` and hand every record to every sink; returns what was read. */
export async function runAnalysisPass(
  inputs: readonly TraceInput[],
  sinks: readonly RecordSink[],
  io: CliIo,
  threads: ReaderThreads = { jobs: 1, minBytes: PARALLEL_MIN_BYTES },
): Promise<InputSummary> {
  const stats = createReadStats();
  const records = createRecordKindCounts();
  const progress = createProgressLine(io);
  try {
    const stream = readAllInputs(
      inputs,
      stats,
      {
        ...(io.stdin === undefined ? {} : { stdin: io.stdin }),
        onProgress: (p) => progress.update(p),
        jobs: threads.jobs,
        parallelMinBytes: threads.minBytes,
        ...(threads.exact === true ? { exact: true } : {}),
        ...(threads.scanner === undefined ? {} : { scanner: threads.scanner }),
        ...(threads.eventSemantics === undefined
          ? {}
          : { events: { ...DEFAULT_EVENT_LOG_OPTIONS, semantics: threads.eventSemantics } }),
      },
      (store, problems) =>
        io.stderr.write(`routescope: ${escapeControlChars(describeEmptyStore(store, problems))}\n`),
    );
    for await (const record of stream) {
      countRecordKind(records, record);
      for (const sink of sinks) sink.add(record);
    }
  } finally {
    progress.done();
  }
  for (const p of stats.problems) {
    if (p.kind === 'unreadable')
      io.stderr.write(`routescope: ${escapeControlChars(`${p.file}: ${p.reason}`)}\n`);
  }
  const paths = inputs.filter((i): i is string => typeof i === 'string');
  if (paths.length > 0 && stats.spans === 0 && records.decisions + records.turns + records.misroutes === 0) {
    throw new InputError(describeNothingRead(paths, stats), paths[0]!);
  }
  return { inputs: inputs.map(describeTraceInput), stats, records };
}

/** What a one-analysis pass returns: the report, what was read, and the chart digest for an HTML page. */
export interface SingleAnalysisResult<R> {
  readonly report: R;
  readonly input: InputSummary;
  readonly digest: ChartDigest | undefined;
}

/**
 * The pass of a command with one analysis: the analysis, plus a chart digest when the output is HTML (the
 * only format that draws charts) and any `extra` sinks the command watches the input with, fed in one read.
 */
export async function runSingleAnalysis<R>(
  analysis: RecordSink & { finish(): R },
  inputs: readonly TraceInput[],
  ctx: CommandContext,
  threads: ReaderThreads,
  extra: readonly RecordSink[] = [],
): Promise<SingleAnalysisResult<R>> {
  const digest = ctx.format === 'html' ? createChartDigest() : undefined;
  const sinks: RecordSink[] = digest === undefined ? [analysis, ...extra] : [analysis, digest, ...extra];
  const input = await runAnalysisPass(inputs, sinks, ctx.io, threads);
  return { report: analysis.finish(), input, digest: digest?.finish() };
}

/** What a one-analysis pass with `--fail-on` gates returns: the report, what was read, the gates judged. */
export interface GatedAnalysisResult<R> {
  readonly report: R;
  readonly input: InputSummary;
  readonly gates: GateResult[];
  readonly exitCode: number;
}

/**
 * The pass of a command with one analysis and `--fail-on` gates. The gates judge the decision summary, which
 * is read in the same pass only when there are gates to judge.
 */
export async function runGatedAnalysis<R>(
  analysis: RecordSink & { finish(): R },
  plan: GatePlan,
  inputs: readonly TraceInput[],
  io: CliIo,
  threads: ReaderThreads,
): Promise<GatedAnalysisResult<R>> {
  const summary = plan.gates.length > 0 ? createSummaryAnalysis() : undefined;
  const sinks: RecordSink[] = summary === undefined ? [analysis] : [analysis, summary];
  const input = await runAnalysisPass(inputs, sinks, io, threads);
  const { results, exitCode } =
    summary === undefined
      ? { results: [], exitCode: EXIT_OK }
      : settleGates(plan, { ...summary.finish(), problems: countProblems(input.stats) });
  return { report: analysis.finish(), input, gates: results, exitCode };
}

/**
 * What to check when not one trace was read from a store (the report alone would only say "no decisions"):
 * its search found nothing, or (`problems` > 0) it found traces and not one could be fetched.
 */
function describeEmptyStore(store: RemoteSource, problems: number): string {
  if (problems > 0) {
    return `${store.url}: the search found traces, but not one could be read: ${problems === 1 ? 'its fetch failed' : `all ${problems} fetches failed`} (each listed under the report's problems). A 404 for every trace means the search index and the trace storage disagree (retention, or traces not yet flushed); check the store`;
  }
  const window = `${new Date(store.startMs).toISOString()} and ${new Date(store.endMs).toISOString()}`;
  const narrowed =
    store.kind === 'tempo'
      ? [store.service === undefined ? '' : '--service', store.query === undefined ? '' : '--query']
          .filter((x) => x !== '')
          .join(' and ')
      : '--service';
  return `${store.url}: the search found no trace with routing spans between ${window}; widen --since${narrowed === '' ? '' : `, check ${narrowed}`}, and check that the instrumented service exports its spans to this store`;
}
