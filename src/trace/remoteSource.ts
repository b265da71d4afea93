/**
 * remoteSource — a trace store as an input beside files: the type the CLI passes, and one entry to read it.
 *
 * Files and folders are named by path (readTraceInputs); a trace store is named by a config object, so an
 * input list is `TraceInput[]` and the CLI's one analysis pass reads both kinds into the same analyses.
 */
import type { JaegerSourceConfig } from './jaegerSource.js';
import type { StoreReadOptions, TempoSourceConfig } from './tempoSource.js';
import type { ReadStats, TraceRecord } from './types.js';

/** A trace store searched for routing spans. */
export type RemoteSource = TempoSourceConfig | JaegerSourceConfig;

/** One input: a path (file, folder, '-') or a trace store. */
export type TraceInput = string | RemoteSource;

/** How an input is named in reports: the path, or the store's URL. */
export function describeTraceInput(input: TraceInput): string {
  return typeof input === 'string' ? input : input.url;
}

/** Read one trace store into `stats`, yielding its records (the store's client is loaded only then). */
export async function* readRemoteSource(
  source: RemoteSource,
  stats: ReadStats,
  options: StoreReadOptions = {},
): AsyncGenerator<TraceRecord> {
  if (source.kind === 'tempo') {
    const { readTempoTraces } = await import('./tempoSource.js');
    yield* readTempoTraces(source, stats, options);
  } else {
    const { readJaegerTraces } = await import('./jaegerSource.js');
    yield* readJaegerTraces(source, stats, options);
  }
}
