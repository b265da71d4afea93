/**
 * Jaeger v2 fed by the Collector: an app → the real Collector (single.yaml, its `otlp_grpc/jaeger` exporter) → the
 * real Jaeger (built from github.com/jaegertracing/jaeger, running collector-config/stack/jaeger.yaml), with the
 * Collector's span metrics scraped by a real Prometheus that Jaeger's Monitor tab reads. Then:
 * - `routescope analyze --jaeger <its URL> --service <each service>` reads back the decisions the app sent (the
 *   same analysis as the app's own files), and so does `routescope analyze` of what its API v3 search answers;
 * - the searches dashboards/jaeger/README.md tells users to type find exactly the traces with that evidence;
 * - the trace links `routescope explain --jaeger-url` prints resolve to the trace;
 * - the Monitor tab's API (`/api/metrics/calls`) shows the routing spans' calls, from the span metrics.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/engines/engineBuild.js';
import { startCollector, type RunningCollector } from '../helpers/engines/collector.js';
import { jaegerPorts, startJaeger, type RunningJaeger } from '../helpers/engines/jaeger.js';
import { analyze, cliJson, withoutInput } from '../helpers/engines/analyzeCli.js';
import { APP_SEED, runRoutingApp, type AppRun } from '../helpers/engines/routingApp.js';
import { readTraceSets, type Evidence } from '../helpers/engines/traceSets.js';
import { startPrometheus, type PrometheusServer } from '../helpers/prometheusServer.js';

const SERVICES = { demo: 'acme-support', wrapped: 'wrapped-agent' } as const;

let collector: RunningCollector | undefined;
let prometheus: PrometheusServer | undefined;
let jaeger: RunningJaeger | undefined;
let appDir = '';
const runs: AppRun[] = [];

/** Jaeger's query API, parsed; fails with the status. */
async function api<T>(pathAndQuery: string): Promise<T> {
  const response = await fetch(`${jaeger!.queryUrl}${pathAndQuery}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${pathAndQuery}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Trace ids a Jaeger search (the Search tab's fields) finds in the last two days. */
async function search(
  service: string,
  operation: string | undefined,
  tags: Record<string, string>,
): Promise<string[]> {
  const end = Date.now() * 1000;
  const query = new URLSearchParams({
    service,
    limit: '5000',
    start: String(end - 2 * 86_400_000_000),
    end: String(end),
    ...(operation === undefined ? {} : { operation }),
    ...(Object.keys(tags).length === 0 ? {} : { tags: JSON.stringify(tags) }),
  });
  const body = await api<{ data: { traceID: string }[] }>(`/api/traces?${query}`);
  return body.data.map((t) => t.traceID.toLowerCase()).sort();
}

/** The app's trace ids of one part (`demo` or `wrapped`) with `evidence`, or with a span named `spanName`. */
function sentWith(kind: 'demo' | 'wrapped', evidence: Evidence | { spanName: string }): string[] {
  const files = runs.flatMap((r) => r.files).filter((f) => path.basename(f).startsWith(`${kind}-`));
  return [...readTraceSets(files).entries()]
    .filter(([, t]) =>
      typeof evidence === 'string' ? t.evidence.has(evidence) : t.names.has(evidence.spanName),
    )
    .map(([id]) => id)
    .sort();
}

/** Every example trace id a report names. */
function exampleIds(report: unknown): string[] {
  const out: string[] = [];
  JSON.stringify(report, (key, value: unknown) => {
    if (key === 'exampleTraceIds' && Array.isArray(value)) out.push(...(value as string[]));
    return value;
  });
  return out;
}

/** A report without its example trace ids. */
function withoutExamples(report: unknown): unknown {
  return JSON.parse(
    JSON.stringify(report, (key, value: unknown) => (key === 'exampleTraceIds' ? undefined : value)),
  );
}

beforeAll(async () => {
  engine('otelcol');
  engine('jaeger');
  const ports = await jaegerPorts();
  collector = await startCollector({
    file: 'single.yaml',
    env: { JAEGER_OTLP_ENDPOINT: `127.0.0.1:${ports.otlpGrpc}`, TEMPO_OTLP_ENDPOINT: '127.0.0.1:9' },
  });
  prometheus = await startPrometheus({
    target: collector.prometheusTarget!,
    jobName: 'otelcol-spanmetrics',
    rules: [],
    waitMs: 60_000,
  });
  jaeger = await startJaeger(ports, prometheus.url);
  appDir = mkdtempSync(path.join(os.tmpdir(), 'routescope-jaeger-'));
  // Two runs (the same decisions, new ids), so the span-metrics counters grow and the Monitor tab has rates.
  for (const seed of [APP_SEED, APP_SEED + 1]) {
    runs.push(await runRoutingApp(collector.otlpHttp, appDir, seed));
    await prometheus.waitFor('the run counted', async () => {
      const [s] = (await prometheus!.query('sum(traces_span_metrics_calls_total)')).samples;
      return s !== undefined && s.value > 0 ? true : undefined;
    });
  }
  const sentTraces = readTraceSets(runs.flatMap((r) => r.files)).size;
  await jaeger.waitFor(
    'Jaeger to hold every trace the app sent',
    async () => {
      const found =
        (await search(SERVICES.demo, undefined, {})).length +
        (await search(SERVICES.wrapped, undefined, {})).length;
      return found >= sentTraces ? found : undefined;
    },
    60_000,
  );
}, 30 * 60_000);

afterAll(async () => {
  try {
    await jaeger?.stop();
    await prometheus?.stop();
  } finally {
    await collector?.stop();
    if (appDir !== '') rmSync(appDir, { recursive: true, force: true });
  }
});

describe('Jaeger v2 fed by the Collector', () => {
  it('routescope analyze --jaeger reads back the decisions the app sent, service by service', () => {
    for (const [kind, service] of Object.entries(SERVICES)) {
      const files = runs.flatMap((r) => r.files).filter((f) => path.basename(f).startsWith(`${kind}-`));
      const fromJaeger = analyze(
        [],
        ['--jaeger', jaeger!.queryUrl, '--service', service, '--since', '48h', '--limit', '5000'],
      );
      expect(fromJaeger.decisions, service).toBeGreaterThan(0);
      // The example trace ids are the first seen: Jaeger returns traces in its own order, so they may be
      // other traces of the same group; each must be a trace the app sent.
      const sentIds = new Set(readTraceSets(files).keys());
      for (const id of exampleIds(fromJaeger)) expect(sentIds.has(id), id).toBe(true);
      expect(withoutExamples(withoutInput(fromJaeger)), service).toEqual(
        withoutExamples(withoutInput(analyze(files))),
      );
    }
  });

  it('the README searches find exactly the traces with that evidence', async () => {
    const rows: [Evidence, string | undefined, Record<string, string>][] = [
      ['near-tie', 'agentfootprint.routing.tier2', { 'agentfootprint.routing.near_tie': 'true' }],
      ['unmatched', 'agentfootprint.routing.tier2', { 'agentfootprint.routing.verdict': 'unmatched' }],
      ['floorless', 'agentfootprint.routing.tier2', { 'agentfootprint.routing.floor_declared': 'false' }],
    ];
    for (const [evidence, operation, tags] of rows)
      for (const [kind, service] of Object.entries(SERVICES) as ['demo' | 'wrapped', string][]) {
        const expected = sentWith(kind, evidence);
        expect(await search(service, operation, tags), `${service} ${evidence}`).toEqual(expected);
      }
    // Misroute marks by their source (the demo's reviewer marks as `human-review`), on the routing span as an
    // event or on a feedback span; and the feedback spans by their operation.
    const marked = sentWith('demo', 'misroute');
    expect(marked.length).toBeGreaterThan(0);
    expect(
      await search(SERVICES.demo, undefined, { 'agentfootprint.routing.misroute.source': 'human-review' }),
    ).toEqual(marked);
    expect(await search(SERVICES.demo, 'agentfootprint.routing.feedback', {})).toEqual(
      sentWith('demo', { spanName: 'agentfootprint.routing.feedback' }),
    );
  });

  it('the API v3 search answers OTLP/JSON that routescope analyze reads as the same decisions', async () => {
    const now = Date.now();
    const query = new URLSearchParams({
      'query.service_name': SERVICES.wrapped,
      'query.start_time_min': new Date(now - 2 * 86_400_000).toISOString(),
      'query.start_time_max': new Date(now).toISOString(),
      'query.num_traces': '5000',
    });
    const body = await api<{ result: { resourceSpans: unknown[] } }>(`/api/v3/traces?${query}`);
    expect(body.result.resourceSpans.length).toBeGreaterThan(0);
    const file = path.join(appDir, 'jaeger-v3.json');
    writeFileSync(file, JSON.stringify(body));
    const files = runs.flatMap((r) => r.files).filter((f) => path.basename(f).startsWith('wrapped-'));
    expect(withoutExamples(withoutInput(analyze([file])))).toEqual(
      withoutExamples(withoutInput(analyze(files))),
    );
  });

  it('the trace links explain prints resolve in Jaeger to the trace', async () => {
    const files = runs.flatMap((r) => r.files);
    const conversation = runs[0]!.demo.explainConversationId!;
    const explained = cliJson('explain', [conversation, ...files, '--jaeger-url', jaeger!.queryUrl]) as {
      traceLinks?: { jaeger?: string }[];
    };
    const links =
      JSON.stringify(explained).match(new RegExp(`${jaeger!.queryUrl}/trace/[0-9a-f]{32}`, 'g')) ?? [];
    expect(links.length).toBeGreaterThan(0);
    for (const link of new Set(links)) {
      const id = link.slice(-32);
      const body = await api<{ data: { traceID: string; spans: unknown[] }[] }>(`/api/traces/${id}`);
      expect(body.data[0]!.traceID.toLowerCase()).toBe(id);
      expect(body.data[0]!.spans.length).toBeGreaterThan(0);
    }
  });

  it("the Monitor tab's API shows the routing spans' calls, from the span metrics in Prometheus", async () => {
    const calls = await jaeger!.waitFor('the Monitor tab to show the routing operation', async () => {
      const now = Date.now();
      const query = new URLSearchParams({
        service: SERVICES.wrapped,
        groupByOperation: 'true',
        spanKind: 'internal',
        endTs: String(now),
        lookback: String(10 * 60_000),
        step: '1000',
        ratePer: '60000',
      });
      const body = await api<{
        metrics: {
          labels: { name: string; value: string }[];
          metricPoints: { gaugeValue: { doubleValue: number } }[];
        }[];
      }>(`/api/metrics/calls?${query}`);
      const routing = body.metrics.find((m) =>
        m.labels.some((l) => l.name === 'operation' && l.value === 'agentfootprint.routing.tier2'),
      );
      const values = routing?.metricPoints.map((p) => p.gaugeValue.doubleValue).filter((v) => v > 0) ?? [];
      return values.length > 0 ? values : undefined;
    });
    expect(calls.length).toBeGreaterThan(0);
  });
});
