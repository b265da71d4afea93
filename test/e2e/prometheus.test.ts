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
import { readFileSync } from 'node:fs';
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
import {
  freePort,
  startPrometheus,
  type PrometheusServer,
  type Sample,
} from '../helpers/prometheusServer.js';
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

// — processes, all released in afterAll —
let prometheus: PrometheusServer | undefined;
let meterProvider: MeterProvider | undefined;

/** An instant query of the running Prometheus. */
function query(promql: string): Promise<{ time: number; samples: Sample[] }> {
  return prometheus!.query(promql);
}

/** Poll the running Prometheus until `check` gives a value, at most WAIT_MS. */
function waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  return prometheus!.waitFor(what, check);
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

afterAll(async () => {
  try {
    await prometheus?.stop();
  } finally {
    await meterProvider?.shutdown();
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
  prometheus = await startPrometheus({
    target,
    jobName: 'routescope-e2e',
    rules: DIRECT_RULES,
    waitMs: WAIT_MS,
  });

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
