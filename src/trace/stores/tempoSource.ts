/**
 * tempoSource — routing records straight out of Grafana Tempo: TraceQL search, then each trace fetched.
 *
 * The search runs server-side and asks only for traces that hold a routing span (ROUTING_TRACEQL_FILTER: a
 * decision, a turn route, or a feedback span), ANDed with the user's TraceQL; a search answer holds no full
 * spans, so every hit is fetched (`/api/v2/traces/<id>`, falling back to the v1 `/api/traces/<id>` form of
 * older Tempo) with at most `concurrency` requests in flight, and each answer goes through the same JSON
 * reader and record builder as a file (Tempo's `{trace:…}` and `{batches:…}` wrappers included), with
 * `source.file` the trace's URL and line 0. Each fetched trace counts as one file in the read stats. A trace
 * that vanished between search and fetch is a problem, not an error; a store that cannot be reached or
 * answers something that is not Tempo is an InputError.
 */
import {
  ATTR_ROUTING_BY,
  ATTR_ROUTING_VERDICT,
  ATTR_SERVICE_NAME,
  SPAN_ROUTING_FEEDBACK,
} from '../../semconv/semconv.js';
import { createTraceRecordBuilder, type TraceRecordBuilder } from '../buildTraceRecords.js';
import {
  adviseOnStatus,
  fetchAnswer,
  fetchJson,
  mapConcurrent,
  parseAnswer,
  resolveHttpFetchConfig,
  showBody,
  type HttpFetchConfig,
} from './httpFetch.js';
import { InputError } from '../inputError.js';
import { normalizeId, quoteForProblem } from '../normalizeSpanFields.js';
import { asObject } from '../formats/narrowJson.js';
import { readJsonTraceValue } from '../formats/readJsonTraceValue.js';
import { reportMalformedSpans, takeOutMalformedOtlpSpans } from './malformedSpans.js';
import { reportProblem } from '../readStats.js';
import type { ReadStats } from '../types.js';
import type { TraceRecord } from '../../record/types.js';

/** Where and what to read from Tempo. */
export interface TempoSourceConfig {
  readonly kind: 'tempo';
  /** Tempo's HTTP API base (query frontend, or a Grafana data-source proxy path). */
  readonly url: string;
  /** Start of the searched window, ms since the epoch. */
  readonly startMs: number;
  /** End of the searched window, ms since the epoch. */
  readonly endMs: number;
  /** Most traces fetched. */
  readonly limit: number;
  /** The user's TraceQL, ANDed with the routing filter. */
  readonly query?: string;
  /** Only routing spans of this `service.name`. */
  readonly service?: string;
  /** Requests in flight at once. @default DEFAULT_FETCH_CONCURRENCY */
  readonly concurrency?: number;
  readonly http?: Partial<HttpFetchConfig>;
}

/** Options of a read from a trace store. */
export interface StoreReadOptions {
  /** Called after each answer is read. */
  onProgress?: (p: { file: string; bytesRead: number }) => void;
  /** Share one record builder (and its duplicate filter) across several stores. @default a fresh one */
  builder?: TraceRecordBuilder;
}

/** Trace fetches in flight at once. */
export const DEFAULT_FETCH_CONCURRENCY = 4;

/** Spans a routing record can come from: a decision, a turn route, a feedback span with a misroute mark. */
export const ROUTING_TRACEQL_FILTER = `span.${ATTR_ROUTING_VERDICT} != nil || span.${ATTR_ROUTING_BY} != nil || name = "${SPAN_ROUTING_FEEDBACK}"`;

/** A TraceQL string literal: `\\` and `\"` are its only escapes (other characters go in as they are). */
export function quoteTraceQl(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The TraceQL sent: the routing filter (narrowed to `service`), ANDed with the user's query. */
export function buildTempoQuery(config: Pick<TempoSourceConfig, 'query' | 'service'>): string {
  const routing =
    config.service === undefined
      ? `{ ${ROUTING_TRACEQL_FILTER} }`
      : `{ (${ROUTING_TRACEQL_FILTER}) && resource.${ATTR_SERVICE_NAME} = ${quoteTraceQl(config.service)} }`;
  const user = config.query?.trim();
  return user === undefined || user === '' ? routing : `${routing} && (${user})`;
}

/** `base` + `path`, keeping any path prefix of the base (a proxy mount). */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  url.search = '';
  url.hash = '';
  return url;
}

/** The trace ids of a search answer, in answer order, without repeats; throws when it is not one. */
function readSearchAnswer(value: unknown, url: string, stats: ReadStats): string[] {
  const answer = asObject(value);
  const traces = answer === undefined ? undefined : answer.traces;
  if (answer === undefined || !(Array.isArray(traces) || (traces === undefined && 'metrics' in answer))) {
    throw new InputError(
      `${url}: the answer is not a Tempo search result (expected {"traces": […]}, got ${showBody(JSON.stringify(value) ?? '')}). Check that --tempo points at Tempo's HTTP API.`,
      url,
    );
  }
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const item of traces ?? []) {
    const raw = asObject(item)?.traceID;
    const id = typeof raw === 'string' ? normalizeId(raw, 16) : undefined;
    if (id === undefined) {
      reportProblem(stats, {
        file: url,
        line: 0,
        kind: 'bad-line',
        reason: `search hit with no usable traceID (got ${quoteForProblem(raw)}); skipped`,
      });
      continue;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}

/** The search URL for `config`. */
export function buildTempoSearchUrl(config: TempoSourceConfig): URL {
  const url = joinUrl(config.url, '/api/search');
  url.searchParams.set('q', buildTempoQuery(config));
  url.searchParams.set('start', String(Math.floor(config.startMs / 1000)));
  url.searchParams.set('end', String(Math.ceil(config.endMs / 1000)));
  url.searchParams.set('limit', String(config.limit));
  // Hits are fetched whole; the matched spans in the search answer would only be thrown away.
  url.searchParams.set('spss', '1');
  return url;
}

/** Search Tempo for traces holding routing spans, fetch them, and yield their records. */
export async function* readTempoTraces(
  config: TempoSourceConfig,
  stats: ReadStats,
  options: StoreReadOptions = {},
): AsyncGenerator<TraceRecord> {
  const http = resolveHttpFetchConfig(config.http);
  const searchUrl = buildTempoSearchUrl(config).toString();
  const search = await fetchJson(searchUrl, http);
  if (search.kind === 'status') {
    throw new InputError(
      `${searchUrl}: Tempo refused the search with HTTP ${search.status}: ${showBody(search.body)}. ${search.status === 400 ? 'Check the --query TraceQL, and --limit (the store may cap it).' : adviseOnStatus(search.status, 'http://tempo:3200', http.headers?.names)}`,
      config.url,
    );
  }
  const ids = readSearchAnswer(search.value, searchUrl, stats).slice(0, Math.max(0, config.limit));
  const builder = options.builder ?? createTraceRecordBuilder(stats);
  // Older Tempo has only /api/traces/<id>; once the v2 path 404s and v1 answers, stay on v1.
  let useV1 = false;

  // Fetched ahead (up to the pool's bound) as bytes; parsed here one at a time as the loop below reaches them,
  // so one answer is held parsed however many wait (httpFetch.parseAnswer).
  const fetchTrace = async (id: string, signal: AbortSignal) => {
    const v2 = joinUrl(config.url, `/api/v2/traces/${id}`).toString();
    const v1 = joinUrl(config.url, `/api/traces/${id}`).toString();
    let url = useV1 ? v1 : v2;
    let result = await fetchAnswer(url, http, signal);
    if (!useV1 && result.kind === 'status' && result.status === 404) {
      const fallback = await fetchAnswer(v1, http, signal);
      if (fallback.kind === 'body') {
        useV1 = true;
        url = v1;
        result = fallback;
      }
    }
    return { url, result };
  };

  for await (const { url, result } of mapConcurrent(
    ids,
    config.concurrency ?? DEFAULT_FETCH_CONCURRENCY,
    fetchTrace,
  )) {
    if (result.kind === 'status') {
      reportProblem(stats, {
        file: url,
        line: 0,
        kind: 'incomplete',
        reason:
          result.status === 404
            ? 'the search found this trace but fetching it gave 404 (deleted by retention, or not yet flushed); skipped'
            : `fetching the trace gave HTTP ${result.status}: ${showBody(result.body)}; skipped`,
      });
      continue;
    }
    const answer = parseAnswer(result, http);
    reportMalformedSpans(stats, url, takeOutMalformedOtlpSpans(answer.value));
    stats.files++;
    stats.lines++;
    options.onProgress?.({ file: url, bytesRead: answer.bytes });
    const out: TraceRecord[] = [];
    const reason = readJsonTraceValue(answer.value, { file: url, line: 0 }, builder, out);
    if (reason !== undefined) {
      throw new InputError(
        `${url}: the answer is not a trace (${reason}). Check that --tempo points at Tempo's HTTP API.`,
        config.url,
      );
    }
    yield* out;
  }
}
