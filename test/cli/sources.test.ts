// runCli with --tempo and --jaeger against loopback HTTP servers that are STAND-INS for the real stores (they
// replay Tempo's and Jaeger's documented JSON answers, built from spans the real SDK recorded; they are not
// Tempo or Jaeger). Checked: the same analysis as reading the same spans from a file, the query and window
// sent, --limit, the fetch pool's bound, a retry after a 503, and exit 2 with a clear message for a store that
// hangs, answers garbage or is unreachable; every reading command accepts the store options; stores behind
// credentials read with --header, whose values never reach stdout or stderr.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSince } from '../../src/cli/commonOptions.js';
import { ATTR_ROUTING_RECORD_VERSION, ATTR_ROUTING_VERDICT } from '../../src/semconv/semconv.js';
import { ROUTING_TRACEQL_FILTER } from '../../src/trace/stores/tempoSource.js';
import { makeTempDir, recordDecisionSpans, type DecisionSpanSpec } from '../helpers/traceFiles.js';
import {
  closedPortUrl,
  groupByTrace,
  refuseWithoutHeaders,
  otlpRequest,
  startStandIn,
  tempoSearchAnswer,
  type StandIn,
  type StandInReply,
  type StandInRequest,
} from '../helpers/traceStoreStandIn.js';
import { toJaegerV1 } from '../trace/traceScenario.js';
import { cli, cliJson, type CliRun } from './runCliHarness.js';

const s = (id: string, score: number) => ({ id, score });
const SPECS: DecisionSpanSpec[] = [];
for (let i = 0; i < 10; i++) {
  SPECS.push(
    { scores: [s('billing', 1), s('refunds', 0.97 - i * 0.01)], trace: `t${i}`, conversationId: `c${i}` },
    {
      scores: [s('billing', 0.2 + i * 0.1), s('shipping', 0.1)],
      scorer: i % 3 === 0 ? {} : { floor: 0.3 },
      scorerName: i % 3 === 0 ? 'keyword' : 'embedding',
      trace: `t${i}`,
      conversationId: `c${i}`,
    },
  );
}

let tmp: { dir: string; cleanup: () => void };
let filePath: string;
let spans: ReadableSpan[];
let traces: Map<string, ReadableSpan[]>;
let stores: StandIn[] = [];

beforeAll(async () => {
  tmp = makeTempDir('routescope-sources-');
  spans = (await recordDecisionSpans(SPECS, 'support-desk', 4)).spans;
  // Only traces with a routing span: what the store's server-side filter leaves.
  traces = new Map(
    [...groupByTrace(spans)].filter(([, group]) =>
      group.some((sp) => sp.attributes[ATTR_ROUTING_VERDICT] !== undefined),
    ),
  );
  filePath = join(tmp.dir, 'spans.jsonl');
  writeFileSync(filePath, JSON.stringify(otlpRequest(spans)) + '\n');
});
afterAll(() => tmp.cleanup());
afterEach(async () => {
  await Promise.all(stores.map((st) => st.close()));
  stores = [];
});

async function tempo(
  override: (req: StandInRequest) => StandInReply | undefined = () => undefined,
  options: { maxHeaderSize?: number } = {},
) {
  const store = await startStandIn((req) => {
    const custom = override(req);
    if (custom !== undefined) return custom;
    if (req.path === '/api/search') {
      const limit = Number(req.params.get('limit') ?? '20');
      return { body: tempoSearchAnswer(new Map([...traces].slice(0, limit))) };
    }
    const group = traces.get(req.path.replace('/api/v2/traces/', ''));
    return group === undefined
      ? { status: 404, body: 'trace not found' }
      : { body: { trace: otlpRequest(group) }, delayMs: 5 };
  }, options);
  stores.push(store);
  return store;
}

async function jaeger(override: (req: StandInRequest) => StandInReply | undefined = () => undefined) {
  const data = toJaegerV1([...traces.values()].flat()).data;
  const store = await startStandIn(
    (req) =>
      override(req) ??
      (req.path === '/api/traces'
        ? { body: { data, total: 0, limit: 0, offset: 0, errors: null } }
        : { status: 404, body: '404 page not found' }),
  );
  stores.push(store);
  return store;
}

/** The analysis part of an analyze JSON report (what was read differs by source; the findings must not). */
function findings(json: Record<string, unknown>): Record<string, unknown> {
  const { input: _input, anomalyExamples: _examples, ...rest } = json;
  return rest;
}

describe('routescope analyze --tempo / --jaeger', () => {
  it('--tempo gives the same analysis as the same spans read from a file', async () => {
    const store = await tempo();
    const remote = await cliJson(['analyze', '--tempo', store.url]);
    const local = await cliJson(['analyze', filePath]);
    expect(remote.code).toBe(0);
    expect(remote.stderr).toBe('');
    expect(remote.json.decisions).toBe(SPECS.length);
    expect(remote.json.verdicts).toEqual(local.json.verdicts);
    expect(remote.json.nearTies).toEqual(local.json.nearTies);
    expect(findings(remote.json)).toEqual(findings(local.json));
    expect(remote.json.input).toMatchObject({ inputs: [store.url], files: traces.size, problems: 0 });
  });

  it('--jaeger --service gives the same analysis as the file', async () => {
    const store = await jaeger();
    const remote = await cliJson(['analyze', '--jaeger', store.url, '--service', 'support-desk']);
    const local = await cliJson(['analyze', filePath]);
    expect(remote.code).toBe(0);
    expect(findings(remote.json)).toEqual(findings(local.json));
    const search = store.requests[0]!;
    expect(search.params.get('service')).toBe('support-desk');
    expect(JSON.parse(search.params.get('tags')!)).toEqual({ [ATTR_ROUTING_RECORD_VERSION]: '1' });
  });

  it('the query sent holds the routing filter and the user query; --since sets start/end', async () => {
    const store = await tempo();
    const before = Math.floor(Date.now() / 1000);
    const r = await cli([
      'analyze',
      '--tempo',
      store.url,
      '--query',
      '{ resource.deployment.environment = "prod" }',
      '--since',
      '2h',
    ]);
    const after = Math.ceil(Date.now() / 1000);
    expect(r.code).toBe(0);
    const search = store.requests.find((q) => q.path === '/api/search')!;
    const q = search.params.get('q')!;
    expect(q).toContain(`span.${ATTR_ROUTING_VERDICT} != nil`);
    expect(q).toContain('{ resource.deployment.environment = "prod" }');
    const start = Number(search.params.get('start'));
    const end = Number(search.params.get('end'));
    expect(end).toBeGreaterThanOrEqual(before);
    expect(end).toBeLessThanOrEqual(after + 1);
    expect(end - start).toBeGreaterThanOrEqual(7200);
    expect(end - start).toBeLessThanOrEqual(7201);
  });

  it('--limit: the search asks for that many and no more traces are fetched', async () => {
    const store = await tempo();
    const r = await cliJson(['analyze', '--tempo', store.url, '--limit', '3']);
    expect(r.code).toBe(0);
    expect(store.requests.find((q) => q.path === '/api/search')!.params.get('limit')).toBe('3');
    expect(store.requests.filter((q) => q.path.startsWith('/api/v2/traces/'))).toHaveLength(3);
    expect(r.json.decisions).toBe(6);
  });

  it('never more than 4 trace fetches in flight', async () => {
    const store = await tempo((req) => {
      const group = traces.get(req.path.replace('/api/v2/traces/', ''));
      return group === undefined ? undefined : { body: { trace: otlpRequest(group) }, delayMs: 25 };
    });
    const r = await cli(['analyze', '--tempo', store.url]);
    expect(r.code).toBe(0);
    expect(traces.size).toBeGreaterThan(4);
    expect(store.peakInFlight()).toBeLessThanOrEqual(4);
    expect(store.peakInFlight()).toBeGreaterThan(1);
  });

  it('a 503 is retried and the run succeeds with the full analysis', async () => {
    let searches = 0;
    const store = await tempo((req) =>
      req.path === '/api/search' && ++searches === 1 ? { status: 503, body: 'busy' } : undefined,
    );
    const r = await cliJson(['analyze', '--tempo', store.url]);
    expect(r.code).toBe(0);
    expect(searches).toBe(2);
    expect(r.json.decisions).toBe(SPECS.length);
  });

  it('a hanging store: timeout, exit 2, a message with the URL and what to do', async () => {
    const store = await tempo(() => ({ hang: true }));
    const r = await cli(['analyze', '--tempo', store.url, '--timeout', '0.2', '--retries', '0']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${store.url}/api/search?`);
    expect(r.stderr).toContain('no answer within 0.2 s');
    expect(r.stderr).toContain('--timeout');
    expect(r.stderr).not.toContain('unexpected error');
  });

  it('a search that finds nothing: an empty report, and a note on stderr saying what to check', async () => {
    const store = await tempo(() => ({ body: { traces: [], metrics: { inspectedBytes: '0' } } }));
    const r = await cliJson(['analyze', '--tempo', store.url, '--service', 'desk', '--since', '1h']);
    expect(r.code).toBe(0);
    expect(r.json.decisions).toBe(0);
    expect(r.stderr).toContain(`${store.url}: the search found no trace with routing spans between`);
    expect(r.stderr).toContain('widen --since, check --service');
    const full = await tempo();
    expect((await cli(['analyze', '--tempo', full.url])).stderr).toBe('');
  });

  it('a garbage answer: exit 2, a message saying what came back', async () => {
    const store = await tempo(() => ({ body: 'Bad Gateway: upstream sent too big header' }));
    const r = await cli(['analyze', '--tempo', store.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('upstream sent too big header');
    expect(r.stderr).toContain('not JSON');
  });

  it('an unreachable store (closed port): exit 2, a message naming it', async () => {
    const url = await closedPortUrl();
    const r = await cli(['analyze', '--jaeger', url, '--service', 'desk', '--retries', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${url}/api/traces?`);
    expect(r.stderr).toContain('connection refused');
    expect(r.stderr).toContain('2 attempts');
  });

  it('usage errors: a store option without a store, --jaeger without --service, --query for Jaeger, a bad --since', async () => {
    const cases: Array<[string[], string]> = [
      [['analyze'], '--tempo URL'],
      [['analyze', filePath, '--limit', '3'], '--limit applies to a trace store'],
      [['analyze', '--jaeger', 'http://127.0.0.1:1'], '--jaeger needs --service'],
      [
        ['analyze', '--jaeger', 'http://127.0.0.1:1', '--service', 'a', '--query', '{ }'],
        '--query is TraceQL',
      ],
      [['analyze', '--tempo', 'http://127.0.0.1:1', '--since', 'yesterday'], '--since must be'],
      [['analyze', '--tempo', 'tempo:3200'], '--tempo must be an http(s) URL'],
      [['analyze', '--tempo', 'https://u:s3cret@tempo.example'], 'a URL with credentials in it is refused'],
      [['analyze', '--tempo', 'http://127.0.0.1:1', '--limit', '0'], '--limit must be a whole number'],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toContain(message);
      expect(r.stderr).not.toContain('s3cret');
    }
  });
});

describe('every reading command takes the store options', () => {
  it('hotspots, floorless, explain, replay, tune and flapping read from --tempo', async () => {
    const traceId = [...traces.keys()][0]!;
    const runs: string[][] = [
      ['hotspots'],
      ['floorless'],
      ['explain', traceId],
      ['replay', '--margin', '0.05'],
      ['tune', '--target-near-tie-rate', '0.2'],
      ['flapping'],
    ];
    for (const argv of runs) {
      const store = await tempo();
      const r = await cliJson([...argv, '--tempo', store.url, '--since', '7d']);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.json.input, argv.join(' ')).toMatchObject({ inputs: [store.url], files: traces.size });
    }
  });

  it('files and a store together: one report, a span found in both counted once (any --jobs)', async () => {
    const store = await tempo();
    for (const jobs of ['1', '2']) {
      const r = await cliJson(['analyze', filePath, '--tempo', store.url, '--jobs', jobs]);
      expect(r.code).toBe(0);
      expect(r.json.input).toMatchObject({ inputs: [filePath, store.url], duplicates: SPECS.length });
      expect(r.json.decisions).toBe(SPECS.length);
    }
  });

  it('--tempo and --jaeger holding the same traces: each span counted once', async () => {
    const t = await tempo();
    const j = await jaeger();
    const r = await cliJson(['analyze', '--tempo', t.url, '--jaeger', j.url, '--service', 'support-desk']);
    expect(r.code).toBe(0);
    expect(r.json.input).toMatchObject({ inputs: [t.url, j.url], duplicates: SPECS.length });
    expect(r.json.decisions).toBe(SPECS.length);
  });
});

describe('stores behind credentials: --header', () => {
  const TOKEN = 'rs-token-7d2e94c0b1f3';
  const ENV = { ROUTESCOPE_TOKEN: TOKEN };
  const TEMPO_AUTH = { authorization: `Bearer ${TOKEN}`, 'x-scope-orgid': 'tenant-1' };
  const TEMPO_HEADERS = [
    '--header',
    'Authorization: Bearer ${ROUTESCOPE_TOKEN}',
    '--header',
    'X-Scope-OrgID: tenant-1',
  ];
  const guardedTempo = () => tempo((req) => refuseWithoutHeaders(TEMPO_AUTH, req));

  it('a Tempo that wants a bearer token and a tenant: refused without them, the full analysis with them', async () => {
    const store = await guardedTempo();
    const without = await cli(['analyze', '--tempo', store.url]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('HTTP 401');
    expect(without.stderr).toContain('pass them with --header');
    const r = await cli(['analyze', '--tempo', store.url, ...TEMPO_HEADERS, '--format', 'json'], {
      env: ENV,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const local = await cliJson(['analyze', filePath]);
    expect(findings(JSON.parse(r.stdout) as Record<string, unknown>)).toEqual(findings(local.json));
  });

  it('a Jaeger behind basic auth reads with --header, from the environment', async () => {
    const basic = `Basic ${Buffer.from('reader:s3cr3t-pw').toString('base64')}`;
    const store = await jaeger((req) => refuseWithoutHeaders({ authorization: basic }, req));
    const argv = ['analyze', '--jaeger', store.url, '--service', 'support-desk'];
    expect((await cli(argv)).code).toBe(2);
    const r = await cli([...argv, '--header', 'Authorization: ${JAEGER_AUTH}', '--format', 'json'], {
      env: { JAEGER_AUTH: basic },
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { decisions: number }).decisions).toBe(SPECS.length);
  });

  it('every reading command sends --header', async () => {
    const traceId = [...traces.keys()][0]!;
    for (const argv of [
      ['analyze'],
      ['hotspots'],
      ['floorless'],
      ['explain', traceId],
      ['replay', '--margin', '0.05'],
      ['tune', '--target-near-tie-rate', '0.2'],
      ['flapping'],
    ]) {
      const store = await guardedTempo();
      const r = await cli([...argv, '--tempo', store.url, ...TEMPO_HEADERS, '--format', 'json'], {
        env: ENV,
      });
      expect(r.code, argv.join(' ')).toBe(0);
      expect(store.requests.every((q) => q.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    }
  });

  it('usage errors (exit 2) before any request: malformed, unset variable, no store', async () => {
    const store = await guardedTempo();
    const cases: Array<[string[], string]> = [
      [['--tempo', store.url, '--header', `Bearer ${TOKEN}`], "--header has no ':'"],
      [['--tempo', store.url, '--header', `Bearer ${TOKEN}: x`], 'the name before'],
      [['--tempo', store.url, '--header', 'Authorization:'], 'has an empty value'],
      [['--tempo', store.url, '--header', 'Authorization: ${NOT_SET}'], 'NOT_SET, which is not set'],
      [['--tempo', store.url, '--header', `X-A: ${TOKEN}\u0001`], 'no HTTP header may carry'],
      [[filePath, '--header', 'X-Scope-OrgID: t'], '--header applies to a trace store'],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(['analyze', ...argv, '--verbose'], { env: ENV });
      expect(r.code, message).toBe(2);
      expect(r.stderr, message).toContain(message);
      expect(r.stdout + r.stderr, message).not.toContain(TOKEN);
    }
    expect(store.requests).toEqual([]);
  });

  it('a secret never reaches stdout or stderr: refusals that echo it, --verbose, progress, JSON, problems', async () => {
    const echo = (req: StandInRequest) =>
      `denied ${String(req.headers.authorization)} for org ${String(req.headers['x-scope-orgid'])}`;
    const refusing = await tempo((req) => ({ status: 403, body: echo(req) }));
    const first = [...traces.keys()][0]!;
    // The search passes and one fetch is refused with an echo: a problem in the report, run completes.
    const partly = await tempo((req) =>
      req.path.endsWith(first) ? { status: 403, body: echo(req) } : undefined,
    );
    const runs: CliRun[] = [];
    for (const format of ['text', 'json', 'markdown']) {
      runs.push(
        await cli(['analyze', '--tempo', refusing.url, ...TEMPO_HEADERS, '--verbose', '--format', format], {
          env: ENV,
          stderrIsTTY: true,
        }),
        await cli(
          [
            'analyze',
            '--tempo',
            partly.url,
            ...TEMPO_HEADERS,
            '--format',
            format,
            '--fail-on',
            'decisions>0',
          ],
          { env: ENV, stderrIsTTY: true },
        ),
      );
    }
    expect(runs.map((r) => r.code)).toEqual([2, 1, 2, 1, 2, 1]);
    expect(runs[0]!.stderr).toContain('denied [redacted] for org [redacted]');
    expect(runs[3]!.stdout).toContain('[redacted]');
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
      expect(r.stdout + r.stderr).not.toContain('tenant-1');
    }
  });
});

describe('a long credential (issue 31: a JWT with many claims)', () => {
  it('a 40,000-character bearer token: the run exits 0, and not one character of it is printed, whatever the store echoes', async () => {
    const jwt = `eyJ${'Zm9vYmFy'.repeat(5_000)}.c2ln`;
    const echoing = await tempo(
      (req) =>
        req.path.startsWith('/api/v2/traces/') && req.path.endsWith([...traces.keys()][0]!)
          ? { status: 403, body: `denied ${String(req.headers.authorization)}` }
          : refuseWithoutHeaders({ authorization: `Bearer ${jwt}` }, req),
      { maxHeaderSize: 256 * 1024 },
    );
    const r = await cli(
      ['analyze', '--tempo', echoing.url, '--header', 'Authorization: Bearer ${JWT}', '--format', 'json'],
      { env: { JWT: jwt } },
    );
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(jwt.slice(0, 40));
    expect(r.stdout).toContain('denied [redacted]');
  });
});

describe('a hostile store: memory bounded per answer, malformed spans counted as problems (issue 31, items 5 and 8)', () => {
  const firstId = () => [...traces.keys()][0]!;
  /** A Tempo whose answer for the first trace is `answer`; the others as usual. */
  const tempoAnswering = (answer: string) =>
    tempo((req) => (req.path.endsWith(firstId()) ? { body: answer } : undefined));
  const emptySpans = (n: number) =>
    `{"batches":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[${Array(n).fill('{}').join(',')}]}]}]}`;

  it('an answer of 200,000 empty span objects: one problem naming them, none counted as spans, the rest read', async () => {
    const store = await tempoAnswering(emptySpans(200_000));
    const local = await cliJson(['analyze', filePath]);
    const r = await cliJson(['analyze', '--tempo', store.url]);
    expect(r.code).toBe(0);
    const input = r.json.input as { spans: number; skipped: Array<{ reason: string }> };
    expect(input.spans).toBeLessThan((local.json.input as { spans: number }).spans);
    expect(input.skipped.map((p) => p.reason)).toContain(
      '200000 spans with no trace id or span id as text, or a name that is not text (the first: "{}"): not counted as spans',
    );
  });

  it('spans whose ids or name have the wrong types are problems, not valid plain spans', async () => {
    const bad = JSON.stringify({
      batches: [
        {
          scopeSpans: [
            {
              spans: [
                { traceId: 7, spanId: 'b7ad6b7169203331', name: 'x' },
                { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 5 },
              ],
            },
          ],
        },
      ],
    });
    const r = await cliJson(['analyze', '--tempo', (await tempoAnswering(bad)).url]);
    const reasons = (r.json.input as { skipped: Array<{ reason: string }> }).skipped.map((p) => p.reason);
    expect(reasons.some((x) => x.startsWith('2 spans with no trace id or span id as text'))).toBe(true);
  });

  it('more JSON objects than one per 16 bytes of --max-answer-mb: refused before parsing, exit 2, saying what to do', async () => {
    const store = await tempoAnswering(emptySpans(200_000));
    const r = await cli(['analyze', '--tempo', store.url, '--max-answer-mb', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds more than 62500 JSON objects and arrays');
    expect(r.stderr).toContain('raise --max-answer-mb');
  });

  it('an answer larger than --max-answer-mb: exit 2, naming the option', async () => {
    const store = await tempoAnswering(JSON.stringify({ batches: [], pad: 'x'.repeat(300_000) }));
    const r = await cli(['analyze', '--tempo', store.url, '--max-answer-mb', '0.25']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larger than 250000 bytes');
    expect(r.stderr).toContain('--max-answer-mb');
  });

  it('a Jaeger answer of 100,000 items without ids stops at --limit', async () => {
    const items = Array.from({ length: 100_000 }, () => ({ spans: [] }));
    const store = await jaeger(() => ({
      body: { data: items, total: 0, limit: 0, offset: 0, errors: null },
    }));
    const r = await cliJson([
      'analyze',
      '--jaeger',
      store.url,
      '--service',
      'support-desk',
      '--limit',
      '5',
      '--allow-empty',
    ]);
    expect((r.json.input as { files: number }).files).toBe(5);
  });

  it('a search whose every trace 404s on fetch says so, not "found no trace"', async () => {
    const store = await tempo((req) =>
      req.path.startsWith('/api/search') ? undefined : { status: 404, body: 'trace not found' },
    );
    const r = await cli(['analyze', '--tempo', store.url, '--allow-empty']);
    expect(r.stderr).toContain(
      `the search found traces, but not one could be read: all ${traces.size} fetches failed`,
    );
    expect(r.stderr).not.toContain('found no trace');
  });
});

describe('docs/sources.md', () => {
  const doc = readFileSync(new URL('../../docs/sources.md', import.meta.url), 'utf8');

  it('shows the routing filter and the Jaeger tag exactly as the code sends them', () => {
    expect(doc).toContain(ROUTING_TRACEQL_FILTER);
    expect(doc).toContain(`tags={"${ATTR_ROUTING_RECORD_VERSION}":"1"}`);
  });

  it('documents every store option the CLI has', async () => {
    const help = await cli(['analyze', '--help']);
    for (const flag of [
      '--tempo',
      '--jaeger',
      '--service',
      '--since',
      '--query',
      '--limit',
      '--timeout',
      '--retries',
      '--max-answer-mb',
      '--header',
    ]) {
      expect(help.stdout, flag).toContain(flag);
      expect(doc, flag).toContain(`\`${flag}`);
    }
  });
});

describe('--since', () => {
  it('--since: a sum of unit terms goes back exactly that far; nothing else parses as a duration', () => {
    const unitMs = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
    const now = Date.UTC(2026, 5, 1);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom('s', 'm', 'h', 'd', 'w')), {
          minLength: 1,
          maxLength: 4,
        }),
        (terms) => {
          const text = terms.map(([n, u]) => `${n}${u}`).join('');
          const total = terms.reduce((sum, [n, u]) => sum + n * unitMs[u], 0);
          expect(parseSince(text, now)).toBe(now - total);
        },
      ),
    );
    for (const bad of ['', '24', 'h', '1y', '-1h', '1h ago', 'yesterday', '0s', '2999-01-01T00:00:00Z']) {
      expect(parseSince(bad, now), bad).toBeUndefined();
    }
    expect(parseSince('2026-01-15T09:00:00Z', now)).toBe(Date.UTC(2026, 0, 15, 9));
  });
});
