/**
 * readerHarness — feed bytes to `readTraceInputs` through its stdin option and see what it made of them.
 *
 * Each read is guarded against hanging (a read that has not finished after HANG_LIMIT_MS fails the test with
 * that name; this is a watchdog, not a speed check) and classifies the outcome: records and problems, a clean
 * InputError, or anything else thrown (a crash).
 */
import { Readable } from 'node:stream';
import { InputError } from '../../src/trace/inputError.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { createReadStats } from '../../src/trace/readStats.js';
import type { DecisionRecord, TraceRecord } from '../../src/record/types.js';
import type { ReadStats } from '../../src/trace/types.js';

/** A read that takes longer than this is reported as a hang. */
export const HANG_LIMIT_MS = 20_000;

/** What one read produced. */
export interface ReadOutcome {
  readonly records: TraceRecord[];
  readonly decisions: DecisionRecord[];
  readonly stats: ReadStats;
  /** The InputError thrown, if the input as a whole was refused. */
  readonly inputError?: InputError;
}

/** Read `input` (bytes, or a stream of chunks) as stdin; anything thrown but an InputError is rethrown. */
export async function readBytes(
  input: Buffer | AsyncIterable<Buffer> | Iterable<Buffer>,
): Promise<ReadOutcome> {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  const stdin = Readable.from(Buffer.isBuffer(input) ? [input] : input, { objectMode: false });
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`read did not finish within ${HANG_LIMIT_MS} ms (hang)`)),
      HANG_LIMIT_MS,
    );
  });
  const work = (async (): Promise<ReadOutcome> => {
    try {
      for await (const r of readTraceInputs(['-'], stats, { stdin })) records.push(r);
    } catch (error) {
      if (error instanceof InputError) return outcome(records, stats, error);
      throw error;
    }
    return outcome(records, stats);
  })();
  try {
    return await Promise.race([work, watchdog]);
  } finally {
    clearTimeout(timer);
    stdin.destroy();
  }
}

function outcome(records: TraceRecord[], stats: ReadStats, inputError?: InputError): ReadOutcome {
  const decisions = records.filter((r): r is DecisionRecord => r.kind === 'decision');
  return inputError === undefined ? { records, decisions, stats } : { records, decisions, stats, inputError };
}

/** Every problem, kept or only counted. */
export function problemCount(stats: ReadStats): number {
  return stats.problems.length + stats.problemsDropped;
}
