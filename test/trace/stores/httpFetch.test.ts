// httpFetch: the fetch pool's laws (input order kept, never more than the bound in flight, the bound reached,
// the rest aborted when one fails) as properties, and fetchJson's retry rules against a loopback HTTP server
// that answers as a failing store would (a stand-in, not a real trace store).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTING_ATTRIBUTE_KEYS } from '../../../src/semconv/semconv.js';
import { DEFAULT_MAX_ANSWER_MB } from '../../../src/cli/commonOptions.js';
import {
  fetchJson,
  mapConcurrent,
  MAX_REDIRECTS,
  MAX_RESPONSE_BYTES,
  resolveHttpFetchConfig,
} from '../../../src/trace/stores/httpFetch.js';
import { RequestHeaders } from '../../../src/trace/stores/requestHeaders.js';
import { InputError } from '../../../src/trace/inputError.js';
import { buildTempoQuery, quoteTraceQl } from '../../../src/trace/stores/tempoSource.js';
import { startStandIn, type StandIn } from '../../helpers/traceStoreStandIn.js';
import { analyzeTraceql } from '../../ops/opsQueries.js';
import { parser as traceqlParser } from '@grafana/lezer-traceql';
import { propertyRuns } from '../../helpers/propertyRuns.js';

const ticks = (n: number) =>
  (async () => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  })();

describe('mapConcurrent', () => {
  it('keeps input order, stays within the bound, and reaches it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(5), { maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        async (delays, limit) => {
          let inFlight = 0;
          let peak = 0;
          const out: number[] = [];
          for await (const r of mapConcurrent(delays.keys(), limit, async (i) => {
            peak = Math.max(peak, ++inFlight);
            await ticks(delays[i]!);
            inFlight--;
            return i;
          })) {
            out.push(r);
          }
          expect(out).toEqual([...delays.keys()]);
          expect(peak).toBe(Math.min(limit, delays.length));
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('a failing call stops the pool: the error surfaces, the calls still running are aborted', async () => {
    const aborted: number[] = [];
    const seen: number[] = [];
    const run = async () => {
      for await (const r of mapConcurrent([0, 1, 2, 3, 4, 5], 3, async (i, signal) => {
        if (i === 0) {
          await ticks(2);
          throw new Error('boom');
        }
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        aborted.push(i);
        return i;
      })) {
        seen.push(r);
      }
    };
    await expect(run()).rejects.toThrow('boom');
    expect(seen).toEqual([]);
    expect(aborted.sort()).toEqual([1, 2]);
  });
});

describe('fetchJson', () => {
  let store: StandIn | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });
  const fast = resolveHttpFetchConfig({ timeoutMs: 500, retries: 3, backoffMs: 1, maxBackoffMs: 5 });

  it('retries 429, 500, 502, 503, 504 and returns the first answer that is not one', async () => {
    const statuses = [429, 500, 502, 503, 504];
    store = await startStandIn(() => {
      const status = statuses.shift();
      return status === undefined ? { body: { ok: true } } : { status, body: 'later' };
    });
    const r = await fetchJson(store.url, { ...fast, retries: 5 });
    expect(r).toMatchObject({ kind: 'json', value: { ok: true } });
    expect(store.requests).toHaveLength(6);
  });

  it('another 4xx is returned at once, with its body, never retried', async () => {
    store = await startStandIn(() => ({ status: 404, body: 'trace not found' }));
    expect(await fetchJson(store.url, fast)).toEqual({
      kind: 'status',
      status: 404,
      body: 'trace not found',
    });
    expect(store.requests).toHaveLength(1);
  });

  it('a body over the cap is an input error that says to narrow the search', async () => {
    store = await startStandIn(() => ({ body: { data: 'x'.repeat(2000) } }));
    const small = resolveHttpFetchConfig({ ...fast, maxBytes: 1000 });
    await expect(fetchJson(store.url, small)).rejects.toThrow(InputError);
    await expect(fetchJson(store.url, small)).rejects.toThrow('--since');
  });
});

describe('fetchJson and redirects (issue 31: credentials never follow a redirect to another origin)', () => {
  const stores: StandIn[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  const start = async (...args: Parameters<typeof startStandIn>) => {
    const s = await startStandIn(...args);
    stores.push(s);
    return s;
  };
  const fast = resolveHttpFetchConfig({ timeoutMs: 2000, retries: 3, backoffMs: 1, maxBackoffMs: 5 });
  const TENANT = 'tenant-7f3a';
  const withHeaders = {
    ...fast,
    headers: new RequestHeaders([
      ['X-Scope-OrgID', TENANT],
      ['X-Api-Key', 'k-91c2e0'],
    ]),
  };

  it('a redirect within the origin is followed, every header sent on each hop', async () => {
    const store = await start((req) =>
      req.path === '/old' ? { status: 308, headers: { location: '/new' } } : { body: { ok: req.path } },
    );
    expect(await fetchJson(`${store.url}/old`, withHeaders)).toMatchObject({
      kind: 'json',
      value: { ok: '/new' },
    });
    expect(store.requests.map((r) => [r.path, r.headers['x-scope-orgid']])).toEqual([
      ['/old', TENANT],
      ['/new', TENANT],
    ]);
  });

  it('a redirect to another origin with --header values: refused at once, naming it; the other origin gets nothing', async () => {
    const elsewhere = await start(() => ({ body: { stolen: true } }));
    const store = await start(() => ({ status: 302, headers: { location: `${elsewhere.url}/api/search` } }));
    const error = await fetchJson(`${store.url}/api/search`, withHeaders).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`redirected to another origin, ${elsewhere.url}`);
    expect((error as Error).message).toContain('X-Scope-OrgID, X-Api-Key');
    expect((error as Error).message).not.toContain(TENANT);
    expect(elsewhere.requests).toEqual([]);
    expect(store.requests).toHaveLength(1);
  });

  it('a redirect to another origin with no --header: followed (nothing to leak)', async () => {
    const elsewhere = await start(() => ({ body: { here: true } }));
    const store = await start(() => ({ status: 301, headers: { location: `${elsewhere.url}/x` } }));
    expect(await fetchJson(store.url, fast)).toMatchObject({ kind: 'json', value: { here: true } });
    expect(elsewhere.requests).toHaveLength(1);
  });

  it('a redirect loop is an input error at once, never retried', async () => {
    const store = await start((req) => ({
      status: 302,
      headers: { location: req.path === '/a' ? '/b' : '/a' },
    }));
    const error = await fetchJson(`${store.url}/a`, fast).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain('go round in a loop');
    expect(store.requests).toHaveLength(2);
  });

  it(`more than ${MAX_REDIRECTS} hops is an input error at once`, async () => {
    const store = await start((req) => ({
      status: 307,
      headers: { location: `/hop${Number(req.path.replace('/hop', '') || 0) + 1}` },
    }));
    const error = await fetchJson(`${store.url}/hop0`, fast).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`more than ${MAX_REDIRECTS} redirects`);
    expect(store.requests).toHaveLength(MAX_REDIRECTS + 1);
  });
});

describe('the answer cap', () => {
  it("--max-answer-mb's default is the reader's cap", () => {
    expect(DEFAULT_MAX_ANSWER_MB * 1_000_000).toBe(MAX_RESPONSE_BYTES);
  });
});

describe('query and window laws', () => {
  it('any service name stays one TraceQL string literal, read back exactly by the real grammar', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: 'binary' }), (service) => {
        const query = buildTempoQuery({ service });
        const tree = traceqlParser.parse(query);
        const literals: string[] = [];
        let errors = 0;
        tree.iterate({
          enter(ref) {
            if (ref.type.isError) errors++;
            if (ref.name === 'String') literals.push(query.slice(ref.from + 1, ref.to - 1));
          },
        });
        expect(errors).toBe(0);
        // TraceQL strings know only the escapes \\ and \"; undo them to read the literal back.
        expect(literals.map((l) => l.replace(/\\(["\\])/g, '$1'))).toContain(service);
        expect(quoteTraceQl(service)).toBe(`"${service.replace(/["\\]/g, (c) => `\\${c}`)}"`);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('the routing filter names only routing keys', () => {
    const facts = analyzeTraceql(buildTempoQuery({}));
    for (const { name } of facts.attributes) expect(ROUTING_ATTRIBUTE_KEYS).toContain(name);
  });
});
