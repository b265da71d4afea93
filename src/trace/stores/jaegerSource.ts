/**
 * jaegerSource — routing records straight out of Jaeger's query service (HTTP JSON API `/api/traces`).
 *
 * The form read is the query service's JSON API, the one the Jaeger UI and Grafana call (Jaeger v1 and the
 * v2 query extension both serve it): `GET /api/traces?service=…&tags=…&start=…&end=…&limit=…`, answered with
 * `{data: [trace…], errors}` holding whole traces. Its tag filter matches exact values only, so the search
 * asks for the record-layout tag every decision and turn span carries
 * (`agentfootprint.routing.record_version` = 1 … ROUTING_RECORD_VERSION, one search per layout this reader
 * knows): server-side, only traces with routing spans come back. The API v3 (`/api/v3/traces`) is not used:
 * its HTTP search takes no attribute filter. The traces arrive whole, so there is nothing to fetch after the
 * search; each goes through the same JSON reader and record builder as a file, `source.file` being the trace's
 * own URL (`/api/traces/<id>`) and line 0. Each trace counts as one file in the read stats.
 */
import { ATTR_ROUTING_RECORD_VERSION, ROUTING_RECORD_VERSION } from '../../semconv/semconv.js';
import { createTraceRecordBuilder } from '../buildTraceRecords.js';
import {
  adviseOnStatus,
  fetchAnswer,
  parseAnswer,
  mapConcurrent,
  resolveHttpFetchConfig,
  showBody,
  type HttpFetchConfig,
} from './httpFetch.js';
import { InputError } from '../inputError.js';
import { normalizeId, quoteForProblem, sanitizeMessage } from '../normalizeSpanFields.js';
import { asObject } from '../formats/narrowJson.js';
import { readJsonTraceValue } from '../formats/readJsonTraceValue.js';
import { reportMalformedSpans, takeOutMalformedJaegerSpans } from './malformedSpans.js';
import { reportProblem } from '../readStats.js';
import { DEFAULT_FETCH_CONCURRENCY, joinUrl, type StoreReadOptions } from './tempoSource.js';
import type { ReadStats } from '../types.js';
import type { TraceRecord } from '../../record/types.js';

/** Where and what to read from Jaeger. */
export interface JaegerSourceConfig {
  readonly kind: 'jaeger';
  /** The query service's base URL (the UI's address, e.g. http://jaeger:16686). */
  readonly url: string;
  /** The service whose traces are searched (Jaeger requires one). */
  readonly service: string;
  /** Start of the searched window, ms since the epoch. */
  readonly startMs: number;
  /** End of the searched window, ms since the epoch. */
  readonly endMs: number;
  /** Most traces read. */
  readonly limit: number;
  /** Searches in flight at once. @default DEFAULT_FETCH_CONCURRENCY */
  readonly concurrency?: number;
  readonly http?: Partial<HttpFetchConfig>;
}

/** The search URLs for `config`: one per record layout this reader knows. */
export function buildJaegerSearchUrls(config: JaegerSourceConfig): URL[] {
  const urls: URL[] = [];
  for (let version = 1; version <= ROUTING_RECORD_VERSION; version++) {
    const url = joinUrl(config.url, '/api/traces');
    url.searchParams.set('service', config.service);
    url.searchParams.set('tags', JSON.stringify({ [ATTR_ROUTING_RECORD_VERSION]: String(version) }));
    // Jaeger's JSON API takes microseconds.
    url.searchParams.set('start', String(Math.floor(config.startMs) * 1000));
    url.searchParams.set('end', String(Math.ceil(config.endMs) * 1000));
    url.searchParams.set('limit', String(config.limit));
    urls.push(url);
  }
  return urls;
}

/** The messages of Jaeger's `errors: [{code, msg}]`. */
function readErrors(answer: Record<string, unknown>): string[] {
  const list = answer.errors;
  if (!Array.isArray(list)) return [];
  return list.map((e) => {
    const msg = asObject(e)?.msg;
    return typeof msg === 'string' ? sanitizeMessage(msg, 160) : quoteForProblem(e);
  });
}

/** The traces of a search answer; throws when it is not one. */
function readSearchAnswer(value: unknown, url: string, base: string): unknown[] {
  const answer = asObject(value);
  if (answer === undefined || !(Array.isArray(answer.data) || answer.data === null)) {
    throw new InputError(
      `${url}: the answer is not a Jaeger search result (expected {"data": […]}, got ${showBody(JSON.stringify(value) ?? '')}). Check that --jaeger points at the Jaeger query service (the UI's address, port 16686).`,
      base,
    );
  }
  const errors = readErrors(answer);
  const data = (answer.data ?? []) as unknown[];
  if (data.length === 0 && errors.length > 0) {
    throw new InputError(`${url}: Jaeger answered with errors: ${errors.join('; ')}.`, base);
  }
  return data;
}

/** Search Jaeger for traces holding routing spans and yield their records. */
export async function* readJaegerTraces(
  config: JaegerSourceConfig,
  stats: ReadStats,
  options: StoreReadOptions = {},
): AsyncGenerator<TraceRecord> {
  const http = resolveHttpFetchConfig(config.http);
  const builder = options.builder ?? createTraceRecordBuilder(stats);
  const seen = new Set<string>();
  let withoutId = 0;
  const search = async (url: URL, signal: AbortSignal) => {
    const text = url.toString();
    // Bytes here, parsed one at a time by the loop below (httpFetch.parseAnswer).
    return { url: text, result: await fetchAnswer(text, http, signal) };
  };
  for await (const { url, result } of mapConcurrent(
    buildJaegerSearchUrls(config),
    config.concurrency ?? DEFAULT_FETCH_CONCURRENCY,
    search,
  )) {
    if (result.kind === 'status') {
      throw new InputError(
        `${url}: Jaeger refused the search with HTTP ${result.status}: ${showBody(result.body)}. ${result.status === 400 ? 'Check --service and --since.' : adviseOnStatus(result.status, 'http://jaeger:16686', http.headers?.names)}`,
        config.url,
      );
    }
    const answer = parseAnswer(result, http);
    options.onProgress?.({ file: url, bytesRead: answer.bytes });
    for (const trace of readSearchAnswer(answer.value, url, config.url)) {
      // Every trace counts toward --limit, an item without an id too: an answer of millions of id-less items
      // stops here. The same trace found by two searches counts once.
      if (seen.size + withoutId >= config.limit) return;
      const rawId = asObject(trace)?.traceID;
      const id = normalizeId(rawId, 16);
      const file = id === undefined ? url : joinUrl(config.url, `/api/traces/${String(rawId)}`).toString();
      if (id === undefined) withoutId++;
      else {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      stats.files++;
      stats.lines++;
      reportMalformedSpans(stats, file, takeOutMalformedJaegerSpans(trace));
      const out: TraceRecord[] = [];
      const reason = readJsonTraceValue(trace, { file, line: 0 }, builder, out);
      if (reason !== undefined) {
        reportProblem(stats, { file, line: 0, kind: 'bad-line', reason: `not a Jaeger trace: ${reason}` });
        continue;
      }
      yield* out;
    }
  }
}
