/**
 * readAllInputs — files, folders, stdin and trace stores merged into one stream of records.
 *
 * The files are read first (by `jobs` threads when asked: readInParallel), then each trace store, all through
 * one record builder and its duplicate filters, into one ReadStats. A store of which not one trace was read is
 * told to `onEmptyStore`, with how many problems its read reported: none means its search found nothing, more
 * means it found traces and every fetch failed (each a problem), for the caller to say which and what to check.
 */
import type { TraceRecord } from '../record/types.js';
import { readInParallel, type ParallelReadOptions } from './parallel/readInParallel.js';
import { createHoldingBuilder, releaseHeld } from './readTraceInputs.js';
import { readRemoteSource, type RemoteSource, type TraceInput } from './stores/remoteSource.js';
import type { ReadStats } from './types.js';
import { countProblems } from './readStats.js';

/**
 * The files first, then the trace stores, all through one record builder and its duplicate filter: a span
 * found in two files, in two stores, or in a file and a store counts once.
 */
export async function* readAllInputs(
  inputs: readonly TraceInput[],
  stats: ReadStats,
  options: ParallelReadOptions,
  onEmptyStore: (store: RemoteSource, problems: number) => void,
): AsyncGenerator<TraceRecord> {
  const paths = inputs.filter((i): i is string => typeof i === 'string');
  const stores = inputs.filter((i): i is RemoteSource => typeof i !== 'string');
  // One builder for files and stores: a span both exported to a file and kept by a store counts once, and a
  // turn in an event log and in a store's spans too (its held event records go out at the very end).
  const builder = createHoldingBuilder(stats);
  if (paths.length > 0) yield* readInParallel(paths, stats, { ...options, builder });
  for (const store of stores) {
    const before = stats.files;
    const problemsBefore = countProblems(stats);
    yield* readRemoteSource(store, stats, {
      builder,
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
    if (stats.files === before) {
      onEmptyStore(store, countProblems(stats) - problemsBefore);
    }
  }
  yield* releaseHeld(builder);
}
