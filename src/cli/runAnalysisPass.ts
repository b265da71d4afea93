/**
 * runAnalysisPass — read every input once and feed each record to every analysis of the command.
 *
 * One pass, streaming: the reader yields records as it parses, the analyses keep only their bounded state,
 * so memory does not grow with the input. Progress goes to stderr on a terminal. An input that cannot be read
 * at all surfaces as the reader's InputError (exit 2); bad lines are in the returned stats.
 */
import { readTraceInputs } from '../trace/readTraceInputs.js';
import { createReadStats } from '../trace/readStats.js';
import type { TraceRecord } from '../trace/types.js';
import type { InputSummary } from './format/presentInput.js';
import type { CliIo } from './io.js';
import { createProgressLine } from './progressLine.js';

/** Anything that takes records one at a time. */
export interface RecordSink {
  add(record: TraceRecord): void;
}

/** Read `inputs` and hand every record to every sink; returns what was read. */
export async function runAnalysisPass(
  inputs: readonly string[],
  sinks: readonly RecordSink[],
  io: CliIo,
): Promise<InputSummary> {
  const stats = createReadStats();
  const records = { decisions: 0, turns: 0, misroutes: 0 };
  const progress = createProgressLine(io);
  try {
    const stream = readTraceInputs(inputs, stats, {
      ...(io.stdin === undefined ? {} : { stdin: io.stdin }),
      onProgress: (p) => progress.update(p),
    });
    for await (const record of stream) {
      if (record.kind === 'decision') records.decisions++;
      else if (record.kind === 'turn') records.turns++;
      else records.misroutes++;
      for (const sink of sinks) sink.add(record);
    }
  } finally {
    progress.done();
  }
  return { inputs, stats, records };
}
