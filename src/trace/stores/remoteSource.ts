/**
 * remoteSource — a trace store as an input beside files: the type the CLI passes, and one entry to read it.
 *
 * Files and folders are named by path (readTraceInputs); a trace store is named by a config object, so an
 * input list is `TraceInput[]` and the CLI's one analysis pass reads both kinds into the same analyses.
 * Whatever a store sends back can quote the headers it was sent; every error and problem of a store's read
 * leaves here with their values redacted.
 */
import type { JaegerSourceConfig } from './jaegerSource.js';
import type { RequestHeaders } from './requestHeaders.js';
import type { StoreReadOptions, TempoSourceConfig } from './tempoSource.js';
import type { ReadStats } from '../types.js';
import type { TraceRecord } from '../../record/types.js';

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
  const headers = source.http?.headers;
  const firstProblem = stats.problems.length;
  try {
    if (source.kind === 'tempo') {
      const { readTempoTraces } = await import('./tempoSource.js');
      yield* readTempoTraces(source, stats, options);
    } else {
      const { readJaegerTraces } = await import('./jaegerSource.js');
      yield* readJaegerTraces(source, stats, options);
    }
  } catch (error) {
    if (headers !== undefined && error instanceof Error) redactError(error, headers);
    throw error;
  } finally {
    if (headers !== undefined) {
      for (let i = firstProblem; i < stats.problems.length; i++) {
        const p = stats.problems[i]!;
        stats.problems[i] = { ...p, file: headers.redact(p.file), reason: headers.redact(p.reason) };
      }
    }
  }
}

/** Take header values out of an error's message and stack (printed with --verbose), in place. */
function redactError(error: Error, headers: RequestHeaders): void {
  error.message = headers.redact(error.message);
  if (error.stack !== undefined) error.stack = headers.redact(error.stack);
}
