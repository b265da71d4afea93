// jaegerSource against a loopback HTTP server that is a STAND-IN for Jaeger's query service, not Jaeger: it
// replays the documented `/api/traces` search answer (`{data:[trace…], errors}`) built from spans the real SDK
// and instrumentation recorded (converted with the OTel → Jaeger mapping), and applies the tag filter the way
// Jaeger does (exact match on the tag's string form), so a trace without routing spans is not returned. What is
// checked: the params sent (service, tag filter from the key module, window in microseconds, limit), the same
// records as from a file of the same spans, --limit, retries, and the errors for garbage and refusals.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ATTR_ROUTING_RECORD_VERSION, ROUTING_RECORD_VERSION } from '../../../src/semconv/semconv.js';
import type { JaegerSourceConfig } from '../../../src/trace/stores/jaegerSource.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import { readTraceInputs } from '../../../src/trace/readTraceInputs.js';
import type { TraceRecord } from '../../../src/record/types.js';
import { REDACTED, RequestHeaders } from '../../../src/trace/stores/requestHeaders.js';
import {
  collectFromStore,
  storeFailure,
  refuseWithoutHeaders,
  startStandIn,
  type StandIn,
  type StandInReply,
  type StandInRequest,
} from '../../helpers/traceStoreStandIn.js';
import {
  recordPlainSpans,
  recordScenario,
  SERVICE,
  toJaegerV1,
  toOtlpJson,
  withTempDir,
} from '../traceScenario.js';

const FAST = { timeoutMs: 300, retries: 2, backoffMs: 5, maxBackoffMs: 20 };
const T0 = Date.UTC(2026, 0, 15, 8, 0, 0);
const T1 = Date.UTC(2026, 0, 15, 10, 0, 0);

interface JaegerTrace {
  traceID: string;
  spans: Array<{ tags: Array<{ key: string; value: unknown }> }>;
}

let routingSpans: ReadableSpan[];
let plainSpans: ReadableSpan[];
let stores: StandIn[] = [];

beforeAll(async () => {
  routingSpans = (await recordScenario()).spans;
  plainSpans = await recordPlainSpans(3);
});
afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  stores = [];
});

/** Jaeger's tag search: every asked tag present on one span with that value as text. */
function matchesTags(trace: JaegerTrace, tags: Record<string, string>): boolean {
  return trace.spans.some((span) =>
    Object.entries(tags).every(([k, v]) => span.tags.some((t) => t.key === k && String(t.value) === v)),
  );
}

async function jaeger(
  override: (req: StandInRequest) => StandInReply | undefined = () => undefined,
): Promise<StandIn> {
  const traces = toJaegerV1([...routingSpans, ...plainSpans]).data as JaegerTrace[];
  const store = await startStandIn((req) => {
    const custom = override(req);
    if (custom !== undefined) return custom;
    if (req.path !== '/api/traces') return { status: 404, body: '404 page not found' };
    const tags = JSON.parse(req.params.get('tags') ?? '{}') as Record<string, string>;
    const limit = Number(req.params.get('limit') ?? '20');
    const data = traces.filter((t) => matchesTags(t, tags)).slice(0, limit);
    return { body: { data, total: 0, limit: 0, offset: 0, errors: null } };
  });
  stores.push(store);
  return store;
}

function config(url: string, extra: Partial<JaegerSourceConfig> = {}): JaegerSourceConfig {
  return { kind: 'jaeger', url, service: SERVICE, startMs: T0, endMs: T1, limit: 100, http: FAST, ...extra };
}

/**
 * Records without their source, each with its times apart, sorted. Jaeger stores microseconds, so a time
 * read back from it may differ from the nanosecond original by up to half a microsecond.
 */
function comparable(records: readonly TraceRecord[]): Array<{ text: string; times: number[] }> {
  return records
    .map(({ source: _source, ...rest }) => {
      const times: number[] = [];
      const text = JSON.stringify(rest, (key, value: unknown) => {
        if (key !== 'timeUnixMs' || typeof value !== 'number') return value;
        times.push(value);
        return 0;
      });
      return { text, times };
    })
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

function expectSameRecords(actual: readonly TraceRecord[], expected: readonly TraceRecord[]): void {
  const a = comparable(actual);
  const e = comparable(expected);
  expect(a.map((r) => r.text)).toEqual(e.map((r) => r.text));
  a.forEach((r, i) => {
    expect(r.times).toHaveLength(e[i]!.times.length);
    r.times.forEach((t, j) => expect(Math.abs(t - e[i]!.times[j]!)).toBeLessThanOrEqual(0.0005 + 1e-6));
  });
}

describe('readJaegerTraces', () => {
  it('sends service, the record-version tag filter, the window in microseconds and the limit', async () => {
    const store = await jaeger();
    await collectFromStore(config(store.url, { limit: 9 }));
    expect(store.requests).toHaveLength(ROUTING_RECORD_VERSION);
    const search = store.requests[0]!;
    expect(search.path).toBe('/api/traces');
    expect(search.params.get('service')).toBe(SERVICE);
    expect(JSON.parse(search.params.get('tags')!)).toEqual({ [ATTR_ROUTING_RECORD_VERSION]: '1' });
    expect(search.params.get('start')).toBe(String(T0 * 1000));
    expect(search.params.get('end')).toBe(String(T1 * 1000));
    expect(search.params.get('limit')).toBe('9');
  });

  it('gives the same records as reading the same spans from a file; only routing traces come back', async () => {
    const store = await jaeger();
    const remote = await collectFromStore(config(store.url));
    const local = await withTempDir(async (dir) => {
      const path = join(dir, 'spans.jsonl');
      writeFileSync(path, toOtlpJson([...routingSpans, ...plainSpans]) + '\n');
      const records: TraceRecord[] = [];
      for await (const r of readTraceInputs([path], createReadStats())) records.push(r);
      return records;
    });
    expect(remote.records.length).toBeGreaterThan(0);
    expectSameRecords(remote.records, local);
    expect(remote.stats.problems).toEqual([]);
    const withRecordTag = new Set(
      routingSpans
        .filter((s) => s.attributes[ATTR_ROUTING_RECORD_VERSION] !== undefined)
        .map((s) => s.spanContext().traceId),
    );
    expect(remote.stats.files).toBe(withRecordTag.size);
    const first = remote.records[0]!;
    expect(first.source).toEqual({ file: `${store.url}/api/traces/${first.traceId}`, line: 0 });
  });

  it('--limit holds even when the store answers more traces than asked', async () => {
    const store = await jaeger(() => ({
      body: { data: toJaegerV1(routingSpans).data, errors: null },
    }));
    const { stats } = await collectFromStore(config(store.url, { limit: 1 }));
    expect(new Set(routingSpans.map((s) => s.spanContext().traceId)).size).toBeGreaterThan(1);
    expect(stats.files).toBe(1);
  });

  it('retries a 503, then reads', async () => {
    let n = 0;
    const store = await jaeger(() => (++n === 1 ? { status: 503, body: 'unavailable' } : undefined));
    const { records } = await collectFromStore(config(store.url));
    expect(n).toBe(2);
    expect(records.length).toBeGreaterThan(0);
  });

  it('Jaeger errors (HTTP 400 with its error body, or errors beside no data) are input errors', async () => {
    const refused = await jaeger(() => ({
      status: 400,
      body: { data: null, errors: [{ code: 400, msg: 'parameter service is required' }] },
    }));
    const err = await storeFailure(config(refused.url));
    expect(err.message).toContain('HTTP 400');
    expect(err.message).toContain('parameter service is required');
    const failed = await jaeger(() => ({
      body: { data: [], errors: [{ code: 500, msg: 'storage unavailable' }] },
    }));
    expect((await storeFailure(config(failed.url))).message).toContain('storage unavailable');
  });

  it('garbage and JSON that is not a search result are input errors naming the URL', async () => {
    const html = await jaeger(() => ({ body: '<!doctype html><title>Jaeger UI</title>' }));
    const err = await storeFailure(config(html.url));
    expect(err.message).toContain(`${html.url}/api/traces?`);
    expect(err.message).toContain('not JSON');
    const other = await jaeger(() => ({ body: { traces: [] } }));
    expect((await storeFailure(config(other.url))).message).toContain('not a Jaeger search result');
  });
});

describe('readJaegerTraces: a query service behind credentials (--header)', () => {
  const BASIC = `Basic ${Buffer.from('reader:pa55-w0rd-9').toString('base64')}`;
  const REQUIRED = { authorization: BASIC };
  const RIGHT = { ...FAST, headers: new RequestHeaders([['Authorization', BASIC]]) };

  it('sends the header on every search and reads the same records; without it, 401 and --header', async () => {
    const open = await jaeger();
    const guarded = await jaeger((req) => refuseWithoutHeaders(REQUIRED, req));
    const { records, stats } = await collectFromStore(config(guarded.url, { http: RIGHT }));
    expect(stats.problems).toEqual([]);
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBe((await collectFromStore(config(open.url))).records.length);
    expect(guarded.requests.length).toBe(ROUTING_RECORD_VERSION);
    for (const r of guarded.requests) expect(r.headers.authorization).toBe(BASIC);
    const err = await storeFailure(config(guarded.url));
    expect(err.message).toContain('HTTP 401');
    expect(err.message).toContain('--header');
  });

  it('an echo of the credentials in a refusal is redacted', async () => {
    const store = await jaeger((req) => ({
      status: 403,
      body: `bad credentials ${req.headers.authorization}`,
    }));
    const err = await storeFailure(config(store.url, { http: RIGHT }));
    expect(err.message).toContain(`bad credentials ${REDACTED}`);
    expect(err.message).not.toContain(BASIC.slice('Basic '.length));
  });
});
