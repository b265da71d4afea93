/**
 * prometheus (end to end): the direct metrics reach a real Prometheus and read back as the near-tie rate the
 * test routed.
 *
 * App side: the real decideTier2 wrapped with a meterProvider whose reader is the real OTel Prometheus exporter
 * serving /metrics on loopback. Server side: the real `prometheus` binary (Debian package `prometheus`; the test
 * fails, not skips, without it), started here on loopback with a temp config and temp storage, scraping every
 * second and evaluating the project's own recording rules (dashboards/alerts/routing-direct.rules.yaml). The
 * near-tie rate is read through the HTTP API three ways — the raw counters, the alert's recording rule and the
 * dashboard panel's expression — and each must equal the share of near-ties among decideTier2's verdicts.
 * The same mix is routed twice, one scrape apart, so every series starts at the same value it then gains: rate()
 * extrapolates every series by the same factor and the ratio of rates is the ratio of counts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import {
  PROM_LABEL_ENVIRONMENT,
  PROM_LABEL_NEAR_TIE,
  PROM_LABEL_ROUTER,
  PROM_ROUTING_DECISIONS_TOTAL,
  PROM_ROUTING_GAP_BUCKET,
  PROM_ROUTING_GAP_COUNT,
  RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME,
} from '../../src/semconv/metricNames.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import type { IntentScore, RoutingPolicy, Tier2Verdict } from '../../src/policy/types.js';
import type { Tier2Call } from '../../src/instrument/types.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIRECT_RULES = path.join(REPO_ROOT, 'dashboards/alerts/routing-direct.rules.yaml');
const DASHBOARD = path.join(REPO_ROOT, 'dashboards/grafana/routing.json');
const NEAR_TIE_RULE = 'routescope:near_tie:ratio_rate5m{metrics_source="direct"}';
const ENVIRONMENT = 'e2e';
/** Upper bound of every wait on Prometheus (startup, a scrape, a rule evaluation). */
const WAIT_MS = 20_000;

// — the routed mix —
const s = (id: string, score: number): IntentScore => ({ id, score });
const MARGIN: RoutingPolicy = { nearTieMargin: 0.15, menuSize: 3 };
const KINDS = {
  nearTieStay: { scores: [s('billing', 0.5), s('refunds', 0.45)], incumbentId: 'refunds', policy: MARGIN },
  nearTieMenu: { scores: [s('a', 0.5), s('b', 0.48), s('c', 0.47)], incumbentId: undefined, policy: MARGIN },
  decisiveMove: {
    scores: [s('billing', 2), s('refunds', 0.2)],
    incumbentId: 'refunds',
    policy: MARGIN,
    scorer: { floor: 0 },
  },
  lone: { scores: [s('billing', 1)], incumbentId: undefined, policy: MARGIN },
  unmatched: { scores: [s('a', -1), s('b', -2)], incumbentId: 'a', policy: { ...MARGIN, floor: 0 } },
} satisfies Record<string, Tier2Call>;

/** How many of each kind every router routes per batch. */
const MIX: Record<string, Partial<Record<keyof typeof KINDS, number>>> = {
  support: { nearTieStay: 5, nearTieMenu: 3, decisiveMove: 7, lone: 2, unmatched: 3 },
  sales: { nearTieStay: 1, nearTieMenu: 1, decisiveMove: 6, lone: 1, unmatched: 1 },
};

// — processes and temp files, all released in afterAll —
let prometheus: ChildProcess | undefined;
let prometheusLog = '';
let meterProvider: MeterProvider | undefined;
let tempDir: string | undefined;
let prometheusUrl = '';

/** A port free on loopback right now (the OS picks it; the listener is closed before it is handed out). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** The prometheus binary on PATH, or a failure that says how to get it. */
function requirePrometheus(): string {
  const found = spawnSync('prometheus', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(
      'prometheus not found on PATH: the metrics end-to-end test runs a real Prometheus server. Install the ' +
        'Debian package `prometheus` (bash test/setup/install-tools.sh) and run the tests again.',
    );
  }
  return 'prometheus';
}

interface Sample {
  readonly metric: Record<string, string>;
  readonly time: number;
  readonly value: number;
}

/** An instant query through the HTTP API; the result as samples (a scalar comes back as one sample). */
async function query(promql: string): Promise<{ time: number; samples: Sample[] }> {
  const url = `${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`;
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const body = (await response.json()) as {
    status: string;
    error?: string;
    data?: { resultType: string; result: unknown };
  };
  if (body.status !== 'success' || body.data === undefined) {
    throw new Error(`Prometheus refused ${promql}: ${body.error ?? response.status}`);
  }
  const now = Date.now() / 1000;
  if (body.data.resultType === 'scalar') {
    const [time, value] = body.data.result as [number, string];
    return { time, samples: [{ metric: {}, time, value: Number(value) }] };
  }
  const result = body.data.result as { metric: Record<string, string>; value: [number, string] }[];
  const samples = result.map((r) => ({ metric: r.metric, time: r.value[0], value: Number(r.value[1]) }));
  return { time: samples[0]?.time ?? now, samples };
}

/** The scrape target's health, for failure messages. */
async function targetHealth(): Promise<string> {
  try {
    const response = await fetch(`${prometheusUrl}/api/v1/targets`, { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json()) as {
      data?: { activeTargets?: { health: string; lastError: string; scrapeUrl: string }[] };
    };
    return JSON.stringify(body.data?.activeTargets?.map((t) => [t.scrapeUrl, t.health, t.lastError]));
  } catch (err) {
    return `targets unavailable (${(err as Error).message})`;
  }
}

/** Poll `check` until it returns a value, at most WAIT_MS; on timeout fail saying what was awaited and why. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let last = '';
  while (Date.now() < deadline) {
    if (prometheus?.exitCode !== null && prometheus?.exitCode !== undefined) {
      throw new Error(
        `prometheus exited (${prometheus.exitCode}) while waiting for ${what}:\n${prometheusLog}`,
      );
    }
    try {
      const value = await check();
      if (value !== undefined) return value;
      last = 'not yet';
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `gave up after ${WAIT_MS / 1000}s waiting for ${what} (last: ${last}); targets: ${await targetHealth()}\n` +
      prometheusLog.slice(-2_000),
  );
}

/** Sum of every series of a query, once it has any. */
async function total(promql: string): Promise<{ value: number; time: number } | undefined> {
  const { samples, time } = await query(`sum(${promql})`);
  return samples.length === 0 ? undefined : { value: samples[0]!.value, time };
}

/** Start the exporter on a free loopback port and the meter provider behind the wrappers. */
async function startApp(): Promise<string> {
  const port = await freePort();
  const exporter = new PrometheusExporter({
    host: '127.0.0.1',
    port,
    preventServerStart: true,
    withResourceConstantLabels: /^deployment\.environment\.name$/,
  });
  meterProvider = new MeterProvider({
    resource: resourceFromAttributes({ [RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME]: ENVIRONMENT }),
    readers: [exporter],
  });
  await exporter.startServer();
  return `127.0.0.1:${port}`;
}

/** Start Prometheus on a free loopback port, scraping `target` every second, with the direct rules loaded. */
async function startPrometheus(target: string): Promise<void> {
  const binary = requirePrometheus();
  tempDir = mkdtempSync(path.join(os.tmpdir(), 'routescope-prometheus-'));
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  // JSON is YAML: Prometheus reads it as its config file.
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: [DIRECT_RULES],
    scrape_configs: [{ job_name: 'routescope-e2e', static_configs: [{ targets: [target] }] }],
  };
  const configFile = path.join(tempDir, 'prometheus.yml');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  prometheus = spawn(
    binary,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(tempDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keepLog = (chunk: Buffer) => void (prometheusLog = (prometheusLog + chunk.toString()).slice(-20_000));
  prometheus.stdout?.on('data', keepLog);
  prometheus.stderr?.on('data', keepLog);
  prometheus.on('error', (err) => void (prometheusLog += `\nspawn error: ${err.message}`));
  await waitFor('Prometheus to be ready', async () => {
    const response = await fetch(`${prometheusUrl}/-/ready`, { signal: AbortSignal.timeout(1_000) });
    return response.ok ? true : undefined;
  });
}

/** Stop Prometheus: TERM, then KILL if it has not exited within 5 s. */
async function stopPrometheus(): Promise<void> {
  const child = prometheus;
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

afterAll(async () => {
  try {
    await stopPrometheus();
  } finally {
    await meterProvider?.shutdown();
    if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true });
  }
});

/** Route one batch of the mix through one wrapper per router; every verdict, by router. */
function routeBatch(): Map<string, Tier2Verdict[]> {
  const byRouter = new Map<string, Tier2Verdict[]>();
  for (const [router, counts] of Object.entries(MIX)) {
    const wrapped = instrumentDecideTier2(decideTier2, {
      meterProvider,
      routerName: router,
      scorerName: 'embedding',
    });
    const verdicts: Tier2Verdict[] = [];
    for (const [kind, n] of Object.entries(counts)) {
      const call: Tier2Call = KINDS[kind as keyof typeof KINDS];
      for (let i = 0; i < n; i++)
        verdicts.push(wrapped(call.scores, call.incumbentId, call.policy, call.scorer));
    }
    byRouter.set(router, verdicts);
  }
  return byRouter;
}

const isNearTie = (v: Tier2Verdict) => !v.decisive && v.runnerUp !== undefined;

/** Per-router values of a query, keyed by the router label. */
function byRouterLabel(samples: readonly Sample[]): Record<string, number> {
  return Object.fromEntries(samples.map((x) => [x.metric[PROM_LABEL_ROUTER] ?? '?', x.value]));
}

/** The dashboard's "near-tie rate per router" expression with Grafana's variables filled in for the direct metrics. */
function dashboardNearTieExpr(): string {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { title?: string; targets?: { expr?: string }[] }[];
  };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
  const expr = exprs.find(
    (e) =>
      e.includes(`sum by (${PROM_LABEL_ROUTER})`) &&
      e.includes(`${PROM_LABEL_NEAR_TIE}="true"`) &&
      e.includes('rate('),
  );
  if (expr === undefined) throw new Error(`${DASHBOARD}: no near-tie-rate-by-router panel expression found`);
  const filled = expr
    .replaceAll('$decisions', PROM_ROUTING_DECISIONS_TOTAL)
    .replaceAll('$router', '.*')
    .replaceAll('$__rate_interval', '5m');
  expect(filled, 'a Grafana variable left in the dashboard expression').not.toContain('$');
  return filled;
}

/** What was routed (both batches), and when Prometheus first showed all of it. */
let routed: Map<string, Tier2Verdict[]> = new Map();
let expectedRatio: Record<string, number> = {};
let fullyScrapedAt = 0;

beforeAll(async () => {
  const target = await startApp();
  await startPrometheus(target);

  const first = routeBatch();
  const perBatch = [...first.values()].reduce((n, v) => n + v.length, 0);
  await waitFor(`Prometheus to scrape the first ${perBatch} decisions`, async () => {
    const got = await total(PROM_ROUTING_DECISIONS_TOTAL);
    return got?.value === perBatch ? got : undefined;
  });
  const second = routeBatch();
  const scraped = await waitFor(`Prometheus to scrape all ${2 * perBatch} decisions`, async () => {
    const got = await total(PROM_ROUTING_DECISIONS_TOTAL);
    return got?.value === 2 * perBatch ? got : undefined;
  });
  fullyScrapedAt = scraped.time;
  routed = new Map([...first].map(([router, verdicts]) => [router, [...verdicts, ...second.get(router)!]]));
  // The near-tie rate routed, from decideTier2's own verdicts.
  expectedRatio = Object.fromEntries(
    [...routed].map(([router, verdicts]) => [router, verdicts.filter(isNearTie).length / verdicts.length]),
  );
});

describe('direct metrics through a real Prometheus', () => {
  it('the mix is a real test: routers differ, and neither is all or no near-ties', () => {
    const ratios = Object.values(expectedRatio);
    expect(ratios).toHaveLength(Object.keys(MIX).length);
    expect(new Set(ratios).size).toBe(ratios.length);
    for (const ratio of ratios) expect(ratio > 0 && ratio < 1).toBe(true);
  });

  it('the raw counters give the near-tie rate per router exactly', async () => {
    const counters = await query(
      `sum by (${PROM_LABEL_ROUTER}) (${PROM_ROUTING_DECISIONS_TOTAL}{${PROM_LABEL_NEAR_TIE}="true"})` +
        ` / sum by (${PROM_LABEL_ROUTER}) (${PROM_ROUTING_DECISIONS_TOTAL})`,
    );
    expect(byRouterLabel(counters.samples)).toEqual(expectedRatio);
  });

  it("the alert rules' near-tie recording rule gives the same rate", async () => {
    // An evaluation that started after the full counts were visible (the series time is the evaluation's).
    await waitFor('the near-tie recording rule to evaluate past the last scrape', async () => {
      const { samples } = await query(`timestamp(${NEAR_TIE_RULE})`);
      const times = samples.map((x) => x.value);
      return times.length === Object.keys(expectedRatio).length && Math.min(...times) > fullyScrapedAt
        ? true
        : undefined;
    });
    const rule = byRouterLabel((await query(NEAR_TIE_RULE)).samples);
    expect(Object.keys(rule).sort()).toEqual(Object.keys(expectedRatio).sort());
    for (const [router, ratio] of Object.entries(expectedRatio)) expect(rule[router]).toBeCloseTo(ratio, 12);
  });

  it("the dashboard panel's expression, as Grafana sends it for the direct metrics, gives the same rate", async () => {
    const panel = byRouterLabel((await query(dashboardNearTieExpr())).samples);
    expect(Object.keys(panel).sort()).toEqual(Object.keys(expectedRatio).sort());
    for (const [router, ratio] of Object.entries(expectedRatio)) expect(panel[router]).toBeCloseTo(ratio, 12);
  });

  it('the gap histogram counts every runner-up, and le="0.15" the gaps within the default margin', async () => {
    const withRunnerUp = [...routed.values()].flat().filter((v) => v.runnerUp !== undefined);
    const withinMargin = withRunnerUp.filter((v) => v.runnerUp!.gap <= 0.15);
    expect(withinMargin.length).toBeGreaterThan(0);
    expect(withinMargin.length).toBeLessThan(withRunnerUp.length);
    expect((await total(PROM_ROUTING_GAP_COUNT))?.value).toBe(withRunnerUp.length);
    expect((await total(`${PROM_ROUTING_GAP_BUCKET}{le="0.15"}`))?.value).toBe(withinMargin.length);
  });

  it('the environment resource attribute arrives as a label (withResourceConstantLabels)', async () => {
    const envs = await query(`count by (${PROM_LABEL_ENVIRONMENT}) (${PROM_ROUTING_DECISIONS_TOTAL})`);
    expect(envs.samples.map((x) => x.metric[PROM_LABEL_ENVIRONMENT])).toEqual([ENVIRONMENT]);
  });
});
