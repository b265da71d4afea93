// tempoSource against a loopback HTTP server that is a STAND-IN for Tempo, not Tempo itself: it replays the
// documented answers (search result, `{trace:…}` from /api/v2/traces/<id>, `{batches:…}` from /api/traces/<id>)
// built from spans the real SDK and instrumentation recorded. What is checked: the TraceQL sent (the routing
// filter from the key module, the user's query, both valid for the real TraceQL grammar), the window and limit
// params, that the records equal those read from a file of the same spans, the fetch pool's bound, the v1
// fallback, retries, and the input errors for a store that hangs, is unreachable or answers garbage.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ATTR_ROUTING_BY,
  ATTR_ROUTING_VERDICT,
  ATTR_SERVICE_NAME,
  SPAN_ROUTING_FEEDBACK,
} from '../../../src/semconv/semconv.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import { readTraceInputs } from '../../../src/trace/readTraceInputs.js';
import {
  buildTempoQuery,
  ROUTING_TRACEQL_FILTER,
  type TempoSourceConfig,
} from '../../../src/trace/stores/tempoSource.js';
import type { TraceRecord } from '../../../src/record/types.js';
import { REDACTED, RequestHeaders } from '../../../src/trace/stores/requestHeaders.js';
import {
  collectFromStore,
  storeFailure,
  closedPortUrl,
  refuseWithoutHeaders,
  groupByTrace,
  otlpRequest,
  startStandIn,
  tempoSearchAnswer,
  withBase64Ids,
  type StandIn,
  type StandInReply,
  type StandInRequest,
} from '../../helpers/traceStoreStandIn.js';
import { analyzeTraceql, checkTraceqlNames } from '../../ops/opsQueries.js';
import { recordPlainSpans, recordScenario, toOtlpJson, withTempDir } from '../traceScenario.js';

const FAST = { timeoutMs: 300, retries: 2, backoffMs: 5, maxBackoffMs: 20 };
const T0 = Date.UTC(2026, 0, 15, 8, 0, 0);
const T1 = Date.UTC(2026, 0, 15, 10, 0, 0);

let routingTraces: Map<string, ReadableSpan[]>;
let allSpans: ReadableSpan[];
let stores: StandIn[] = [];

beforeAll(async () => {
  const scenario = await recordScenario();
  routingTraces = groupByTrace(scenario.spans);
  allSpans = [...scenario.spans, ...(await recordPlainSpans(3))];
});
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  stores = [];
});

async function tempo(
  override: (req: StandInRequest) => StandInReply | undefined = () => undefined,
  traces: ReadonlyMap<string, readonly ReadableSpan[]> = routingTraces,
): Promise<StandIn> {
  const store = await startStandIn((req) => {
    const custom = override(req);
    if (custom !== undefined) return custom;
    if (req.path === '/api/search') return { body: tempoSearchAnswer(traces) };
    const m = /^\/api\/(v2\/)?traces\/([0-9a-f]+)$/.exec(req.path);
    const spans = m === null ? undefined : traces.get(m[2]!);
    if (spans === undefined) return { status: 404, body: 'trace not found' };
    return m![1] === undefined
      ? { body: { batches: otlpRequest(spans).resourceSpans } }
      : { body: { trace: otlpRequest(spans) } };
  });
  stores.push(store);
  return store;
}

function config(url: string, extra: Partial<TempoSourceConfig> = {}): TempoSourceConfig {
  return { kind: 'tempo', url, startMs: T0, endMs: T1, limit: 100, http: FAST, ...extra };
}

/** Records without where they came from, sorted, for comparing two reads. */
function comparable(records: readonly TraceRecord[]): string[] {
  return records.map(({ source: _source, ...rest }) => JSON.stringify(rest)).sort();
}

describe('readTempoTraces: the query', () => {
  it('the routing filter names the decision, turn and feedback keys of semconv.ts and parses as TraceQL', () => {
    expect(ROUTING_TRACEQL_FILTER).toContain(`span.${ATTR_ROUTING_VERDICT} != nil`);
    expect(ROUTING_TRACEQL_FILTER).toContain(`span.${ATTR_ROUTING_BY} != nil`);
    expect(ROUTING_TRACEQL_FILTER).toContain(`"${SPAN_ROUTING_FEEDBACK}"`);
    for (const q of [
      buildTempoQuery({}),
      buildTempoQuery({ query: '{ resource.deployment.environment = "prod" }' }),
      buildTempoQuery({ service: 'desk "eu" \\ 1', query: '{ span.gen_ai.agent.name = "helpdesk" }' }),
    ]) {
      expect(analyzeTraceql(q).errors, q).toEqual([]);
    }
    // The user's query names what it likes; the filter routescope adds names only keys it knows.
    expect(checkTraceqlNames(analyzeTraceql(buildTempoQuery({ service: 'desk' })))).toEqual([]);
  });

  it('--service narrows the routing spanset; a hostile name stays one string literal', () => {
    const q = buildTempoQuery({ service: 'desk" } || { true' });
    const facts = analyzeTraceql(q);
    expect(facts.errors).toEqual([]);
    expect(facts.strings).toContain('desk" } || { true');
    expect(q).toContain(`resource.${ATTR_SERVICE_NAME} = `);
  });

  it('sends the routing filter ANDed with the user query, the window in seconds, the limit', async () => {
    const store = await tempo();
    await collectFromStore(
      config(store.url, { query: '{ resource.deployment.environment = "prod" }', limit: 7 }),
    );
    const search = store.requests.find((r) => r.path === '/api/search')!;
    const q = search.params.get('q')!;
    expect(q).toContain(ROUTING_TRACEQL_FILTER);
    expect(q).toContain('&& ({ resource.deployment.environment = "prod" })');
    expect(search.params.get('start')).toBe(String(T0 / 1000));
    expect(search.params.get('end')).toBe(String(T1 / 1000));
    expect(search.params.get('limit')).toBe('7');
  });

  it('keeps a path prefix of the base URL (a Grafana data-source proxy)', async () => {
    const prefix = '/api/datasources/proxy/uid/tempo';
    const store = await tempo((req) =>
      req.path.startsWith(prefix) ? undefined : { status: 404, body: 'wrong path' },
    );
    const proxied = await startStandIn((req) => {
      const inner = req.path.slice(prefix.length);
      if (inner === '/api/search') return { body: tempoSearchAnswer(routingTraces) };
      const spans = routingTraces.get(inner.replace('/api/v2/traces/', ''));
      return spans === undefined ? { status: 404, body: 'nope' } : { body: { trace: otlpRequest(spans) } };
    });
    stores.push(proxied);
    const { records } = await collectFromStore(config(`${proxied.url}${prefix}/`));
    expect(records.length).toBeGreaterThan(0);
    expect(proxied.requests.every((r) => r.path.startsWith(`${prefix}/api/`))).toBe(true);
    expect(store.requests).toHaveLength(0);
  });
});

describe('readTempoTraces: records', () => {
  it('search → fetch gives the same records as reading the same spans from a file', async () => {
    const store = await tempo();
    const remote = await collectFromStore(config(store.url));
    const local = await withTempDir(async (dir) => {
      const path = join(dir, 'spans.jsonl');
      writeFileSync(path, toOtlpJson(allSpans) + '\n');
      const stats = createReadStats();
      const records: TraceRecord[] = [];
      for await (const r of readTraceInputs([path], stats)) records.push(r);
      return records;
    });
    expect(remote.records.length).toBeGreaterThan(0);
    expect(comparable(remote.records)).toEqual(comparable(local));
    expect(remote.stats.files).toBe(routingTraces.size);
    expect(remote.stats.problems).toEqual([]);
    const first = remote.records[0]!;
    expect(first.source.file).toBe(`${store.url}/api/v2/traces/${first.traceId}`);
    expect(first.source.line).toBe(0);
  });

  it('reads ids written as base64 (Tempo marshals bytes so) to the same hex ids', async () => {
    const store = await tempo((req) => {
      const m = /^\/api\/v2\/traces\/([0-9a-f]+)$/.exec(req.path);
      const spans = m === null ? undefined : routingTraces.get(m[1]!);
      return spans === undefined ? undefined : { body: { trace: withBase64Ids(otlpRequest(spans)) } };
    });
    const hex = await tempo();
    expect(comparable((await collectFromStore(config(store.url))).records)).toEqual(
      comparable((await collectFromStore(config(hex.url))).records),
    );
  });

  it('--limit: no more traces are fetched than the limit, even when the search answers more', async () => {
    const store = await tempo();
    const { stats } = await collectFromStore(config(store.url, { limit: 2 }));
    expect(routingTraces.size).toBeGreaterThan(2);
    expect(store.requests.filter((r) => r.path.startsWith('/api/v2/traces/'))).toHaveLength(2);
    expect(stats.files).toBe(2);
  });

  it('never more fetches in flight than the bound', async () => {
    const many = new Map([...routingTraces].flatMap(([id, spans]) => [[id, spans] as const]));
    for (const [id, spans] of groupByTrace(await recordPlainSpans(6))) many.set(id, spans);
    const store = await tempo((req) => {
      const m = /^\/api\/v2\/traces\/([0-9a-f]+)$/.exec(req.path);
      const spans = m === null ? undefined : many.get(m[1]!);
      return spans === undefined ? undefined : { body: { trace: otlpRequest(spans) }, delayMs: 15 };
    }, many);
    await collectFromStore(config(store.url, { concurrency: 2 }));
    expect(store.requests.filter((r) => r.path.startsWith('/api/v2/traces/')).length).toBe(many.size);
    expect(store.peakInFlight()).toBe(2);
  });

  it('falls back to /api/traces/<id> ({batches}) when the v2 path is missing, and stays there', async () => {
    const store = await tempo((req) =>
      req.path.startsWith('/api/v2/') ? { status: 404, body: '404 page not found' } : undefined,
    );
    const { records, stats } = await collectFromStore(config(store.url, { concurrency: 1 }));
    expect(comparable(records)).toEqual(
      comparable((await collectFromStore(config((await tempo()).url))).records),
    );
    expect(stats.problems).toEqual([]);
    expect(store.requests.filter((r) => r.path.startsWith('/api/v2/'))).toHaveLength(1);
  });

  it('a trace gone between search and fetch is a problem; the others are read', async () => {
    const gone = [...routingTraces.keys()][0]!;
    const store = await tempo((req) =>
      req.path.endsWith(gone) ? { status: 404, body: 'trace not found' } : undefined,
    );
    const { records, stats } = await collectFromStore(config(store.url));
    expect(records.some((r) => r.traceId === gone)).toBe(false);
    expect(records.length).toBeGreaterThan(0);
    expect(stats.problems).toEqual([
      expect.objectContaining({ kind: 'incomplete', file: expect.stringContaining(gone) as string }),
    ]);
  });
});

describe('readTempoTraces: a store that fails', () => {
  it('retries a 503 and a 429 with back-off, then reads', async () => {
    let searches = 0;
    const first = [...routingTraces.keys()][0]!;
    let traceTries = 0;
    const store = await tempo((req) => {
      if (req.path === '/api/search' && ++searches === 1) return { status: 503, body: 'overloaded' };
      if (req.path.endsWith(first) && ++traceTries === 1) {
        return { status: 429, body: 'slow down', headers: { 'retry-after': '0' } };
      }
      return undefined;
    });
    const { records, stats } = await collectFromStore(config(store.url));
    expect(searches).toBe(2);
    expect(traceTries).toBe(2);
    expect(stats.problems).toEqual([]);
    expect(records.some((r) => r.traceId === first)).toBe(true);
  });

  it('gives up after the retries with an error naming the URL and the last answer', async () => {
    const store = await tempo(() => ({ status: 502, body: 'bad gateway' }));
    const err = await storeFailure(config(store.url));
    expect(store.requests).toHaveLength(FAST.retries + 1);
    expect(err.message).toContain(`${store.url}/api/search?`);
    expect(err.message).toContain("HTTP 502 with 'bad gateway'");
    expect(err.message).toContain('3 attempts');
  });

  it('a hanging store: timeout, then a clear error', async () => {
    const store = await tempo(() => ({ hang: true }));
    const err = await storeFailure(config(store.url, { http: { ...FAST, timeoutMs: 100, retries: 1 } }));
    expect(err.message).toContain('no answer within 0.1 s');
    expect(err.message).toContain('--timeout');
    expect(store.requests).toHaveLength(2);
  });

  it('an unreachable store (closed port): a clear error', async () => {
    const url = await closedPortUrl();
    const err = await storeFailure(config(url, { http: { ...FAST, retries: 0 } }));
    expect(err.message).toContain(url);
    expect(err.message).toContain('connection refused');
  });

  it('garbage instead of JSON: no retry, an error saying what came back', async () => {
    const store = await tempo(() => ({ body: '<html><body>Grafana login</body></html>' }));
    const err = await storeFailure(config(store.url));
    expect(store.requests).toHaveLength(1);
    expect(err.message).toContain('<html><body>Grafana login');
    expect(err.message).toContain('not JSON');
  });

  it('JSON that is not a search result, or a trace body that is not a trace: errors', async () => {
    const notSearch = await tempo((req) =>
      req.path === '/api/search' ? { body: { status: 'ok' } } : undefined,
    );
    expect((await storeFailure(config(notSearch.url))).message).toContain('not a Tempo search result');
    const notTrace = await tempo((req) => (req.path === '/api/search' ? undefined : { body: { hello: 1 } }));
    expect((await storeFailure(config(notTrace.url))).message).toContain('the answer is not a trace');
  });

  it('a store that wants credentials (401): the error says none were sent and to pass --header', async () => {
    const store = await tempo(() => ({ status: 401, body: 'no org id' }));
    const err = await storeFailure(config(store.url));
    expect(store.requests).toHaveLength(1);
    expect(err.message).toContain("HTTP 401: 'no org id'");
    expect(err.message).toContain('X-Scope-OrgID');
    expect(err.message).toContain('routescope sent none: pass them with --header');
  });

  it('a rejected query (400) is an error that shows Tempo\u2019s message and points at --query', async () => {
    const store = await tempo(() => ({ status: 400, body: 'invalid TraceQL query: parse error at line 1' }));
    const err = await storeFailure(config(store.url, { query: '{ nonsense' }));
    expect(store.requests).toHaveLength(1);
    expect(err.message).toContain('invalid TraceQL query');
    expect(err.message).toContain('--query');
  });
});

describe('readTempoTraces: a store behind credentials (--header)', () => {
  const TOKEN = 'tok-3c1f9e2b7a55';
  const REQUIRED = { authorization: `Bearer ${TOKEN}`, 'x-scope-orgid': 'tenant-1' };
  const sending = (entries: Array<[string, string]>) => ({ ...FAST, headers: new RequestHeaders(entries) });
  const RIGHT = sending([
    ['Authorization', `Bearer ${TOKEN}`],
    ['X-Scope-OrgID', 'tenant-1'],
  ]);

  it('sends the headers on the search and on every trace fetch, and reads the same records', async () => {
    const open = await tempo();
    const guarded = await tempo((req) => refuseWithoutHeaders(REQUIRED, req));
    const { records, stats } = await collectFromStore(config(guarded.url, { http: RIGHT }));
    expect(stats.problems).toEqual([]);
    expect(comparable(records)).toEqual(comparable((await collectFromStore(config(open.url))).records));
    expect(guarded.requests.length).toBe(routingTraces.size + 1);
    for (const r of guarded.requests) {
      expect(r.headers.authorization, r.path).toBe(`Bearer ${TOKEN}`);
      expect(r.headers['x-scope-orgid'], r.path).toBe('tenant-1');
      expect(r.headers.accept, r.path).toBe('application/json');
    }
  });

  it('without them: 401, an error that says to pass --header', async () => {
    const store = await tempo((req) => refuseWithoutHeaders(REQUIRED, req));
    const err = await storeFailure(config(store.url));
    expect(err.message).toContain('HTTP 401');
    expect(err.message).toContain('--header');
  });

  it('a wrong token: 403, an error naming the headers sent but not their values', async () => {
    const store = await tempo((req) => refuseWithoutHeaders(REQUIRED, req));
    const wrong = sending([
      ['Authorization', 'Bearer not-the-token'],
      ['X-Scope-OrgID', 'tenant-1'],
    ]);
    const err = await storeFailure(config(store.url, { http: wrong }));
    expect(err.message).toContain('HTTP 403');
    expect(err.message).toContain('The store refused the headers sent (Authorization, X-Scope-OrgID');
    expect(err.message).not.toContain('not-the-token');
    expect(err.message).not.toContain('tenant-1');
  });

  it('a store that echoes the headers back: the values are redacted in the error and in problems', async () => {
    const echo = (req: StandInRequest) =>
      `denied: ${req.headers.authorization} (org ${req.headers['x-scope-orgid']})`;
    const refusing = await tempo((req) => ({ status: 403, body: echo(req) }));
    const err = await storeFailure(config(refusing.url, { http: RIGHT }));
    expect(err.message).toContain(`denied: ${REDACTED} (org ${REDACTED})`);
    expect(err.message + (err.stack ?? '')).not.toContain(TOKEN);
    expect(err.message + (err.stack ?? '')).not.toContain('tenant-1');
    // The search passes, one trace fetch is refused with an echo: a problem, redacted.
    const first = [...routingTraces.keys()][0]!;
    const partly = await tempo((req) =>
      req.path.endsWith(first) ? { status: 403, body: echo(req) } : undefined,
    );
    const { stats } = await collectFromStore(config(partly.url, { http: RIGHT }));
    expect(stats.problems).toHaveLength(1);
    expect(stats.problems[0]!.reason).toContain(`denied: ${REDACTED}`);
    expect(JSON.stringify(stats)).not.toContain(TOKEN);
    expect(JSON.stringify(stats)).not.toContain('tenant-1');
  });
});
