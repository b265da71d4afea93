/**
 * single.yaml end to end: a real app → the real Collector (built from the kit's manifest) → its Prometheus
 * exporter scraped by a real Prometheus loading the shipped spanmetrics rules → every recording rule, every alert
 * rule and every Prometheus expression of the Grafana dashboard evaluated on the series the Collector really
 * emits, and compared with `routescope analyze` of the same spans.
 *
 * The wrapped router also pushes its direct metrics (the decisions counter, the gap histogram) over OTLP to the
 * same Collector, so the direct rules file and the dashboard's gap-median panel run on real series too.
 *
 * The app (test/helpers/engines/routingApp.ts) runs twice with two seeds: the same decisions under new ids, each
 * run one OTLP request. Every series then goes 0 → N → 2N in two steps, so a rate or increase over any group of
 * series is exactly the ratio of counts, and the figures must equal analyze's to 1e-9 (float rounding only).
 * The Collector writes the routing spans to its file exporter too: analyze of that folder must equal analyze of
 * what the app sent.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { ATTR_ROUTING_RUNNER_UP_GAP } from '../../src/semconv/semconv.js';
import {
  DEFAULT_GAP_HISTOGRAM_BOUNDARIES,
  PROM_ROUTING_DECISIONS_TOTAL,
} from '../../src/semconv/metricNames.js';
import { engine } from '../helpers/engines/engineBuild.js';
import { startCollector, type RunningCollector } from '../helpers/engines/collector.js';
import {
  analyze,
  verdictCountsByRouter,
  withoutInput,
  type AnalyzeReport,
  type AnalyzeRow,
} from '../helpers/engines/analyzeCli.js';
import {
  APP_SEED,
  WRAPPED_ROUTER,
  runRouterTurns,
  runRoutingApp,
  type AppRun,
} from '../helpers/engines/routingApp.js';
import { readTraceSets } from '../helpers/engines/traceSets.js';
import { startPrometheus, type PrometheusServer, type Sample } from '../helpers/prometheusServer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULES = path.join(ROOT, 'dashboards/alerts/routing-spanmetrics.rules.yaml');
const DASHBOARD = path.join(ROOT, 'dashboards/grafana/routing.json');
const DIRECT_RULES = path.join(ROOT, 'dashboards/alerts/routing-direct.rules.yaml');
const TIER2 = 'traces_span_metrics_calls_total{span_name="agentfootprint.routing.tier2"}';
const ROUTER = 'agentfootprint_routing_router';
const SCORER = 'agentfootprint_routing_scorer_name';
const VERDICT = 'agentfootprint_routing_verdict';

let collector: RunningCollector | undefined;
let prometheus: PrometheusServer | undefined;
let appDir = '';
const runs: AppRun[] = [];
let sent: AnalyzeReport;
let written: AnalyzeReport;
let meterProvider: MeterProvider | undefined;

/** The samples of an instant query. */
async function instant(promql: string): Promise<Sample[]> {
  return (await prometheus!.query(promql)).samples;
}

/** Wait until Prometheus has scraped a sum of `total` over `series`, twice (two scrapes of the same value). */
async function scrapedTotal(series: string, total: number): Promise<void> {
  await prometheus!.waitFor(`${total} of ${series} scraped twice`, async () => {
    const [s] = await instant(
      `count_over_time(sum(${series})[5s:1s]) * (min_over_time(sum(${series})[2s:1s]) == ${total})`,
    );
    return s !== undefined && s.value >= 2 ? true : undefined;
  });
}

beforeAll(async () => {
  engine('otelcol');
  collector = await startCollector({
    file: 'single.yaml',
    // The trace stores are another test's subject (Jaeger: jaegerReadBack); here nothing listens there.
    env: { TEMPO_OTLP_ENDPOINT: '127.0.0.1:9', JAEGER_OTLP_ENDPOINT: '127.0.0.1:9' },
  });
  prometheus = await startPrometheus({
    target: collector.prometheusTarget!,
    jobName: 'otelcol-spanmetrics',
    rules: [RULES, DIRECT_RULES],
    exemplars: true,
    waitMs: 60_000,
  });
  appDir = mkdtempSync(path.join(os.tmpdir(), 'routescope-single-'));
  // The wrapped router's direct metrics (the counter and the gap histogram), pushed over OTLP to the same
  // Collector by one meter provider for both runs, so its cumulative series grow from run to run too.
  meterProvider = new MeterProvider({
    resource: resourceFromAttributes({
      'service.name': 'wrapped-agent',
      'deployment.environment.name': 'e2e',
    }),
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${collector.otlpHttp}/v1/metrics` }),
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  for (const [k, seed] of [APP_SEED, APP_SEED + 1].entries()) {
    runs.push(await runRoutingApp(collector.otlpHttp, appDir, seed, { meterProvider }));
    const perRun = runs[0]!.demo.decisions + runs[0]!.wrappedDecisions;
    await scrapedTotal(TIER2, (k + 1) * perRun);
    await scrapedTotal(PROM_ROUTING_DECISIONS_TOTAL, (k + 1) * runs[0]!.wrappedDecisions);
  }
  sent = analyze(runs.flatMap((r) => r.files));
  // The file exporter flushes every second; wait until its folder holds every decision.
  await prometheus
    .waitFor('the file exporter to hold every decision', async () => {
      const report = analyze([collector!.traceDir]);
      return report.decisions === sent.decisions ? report : undefined;
    })
    .then((report) => (written = report));
}, 30 * 60_000);

afterAll(async () => {
  try {
    await meterProvider?.shutdown();
    await prometheus?.stop();
  } finally {
    await collector?.stop();
    if (appDir !== '') rmSync(appDir, { recursive: true, force: true });
  }
});

/** Per-label values of a query's samples. */
function byLabel(samples: readonly Sample[], label: string): Record<string, number> {
  return Object.fromEntries(samples.map((s) => [s.metric[label] ?? '', s.value]));
}

/** analyze's rows as name → figure. */
function rowsOf(rows: readonly AnalyzeRow[], figure: (row: AnalyzeRow) => number): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [r.name, figure(r)]));
}

function expectClose(actual: Record<string, number>, expected: Record<string, number>): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [key, value] of Object.entries(expected)) expect(actual[key], key).toBeCloseTo(value, 9);
}

describe('single.yaml on the real Collector, scraped by a real Prometheus', () => {
  it('the app sent what it says, and the Collector file holds exactly those decisions', () => {
    expect(sent.decisions).toBe(2 * (runs[0]!.demo.decisions + runs[0]!.wrappedDecisions));
    expect(sent.misroutes).toBe(2 * runs[0]!.demo.misroutes);
    expect(withoutInput(written)).toEqual(withoutInput(sent));
  });

  it('the calls counter holds every decision by router and verdict, without a collector_instance_id label', async () => {
    const samples = await instant(`sum by (${ROUTER}, ${VERDICT}) (${TIER2})`);
    const counted = Object.fromEntries(
      samples.map((s) => [`${s.metric[ROUTER]} ${s.metric[VERDICT]}`, s.value]),
    );
    const expected = verdictCountsByRouter(sent);
    expect(counted).toEqual(expected);
    // single.yaml leaves the instance label out (one instance; the id would begin new series at each restart).
    expect(await instant(`count(${TIER2.replace('}', ', collector_instance_id!=""}')})`)).toEqual([]);
  });

  it('the recording rules give analyze’s near-tie and unmatched rates and verdict counts per router', async () => {
    const nearTie = await prometheus!.waitFor('the near-tie rule', async () => {
      const s = await instant('routescope:near_tie:ratio_rate5m{metrics_source="spanmetrics"}');
      return s.length > 0 ? s : undefined;
    });
    expectClose(
      byLabel(nearTie, ROUTER),
      rowsOf(sent.byRouter.rows, (r) => r.nearTieRate),
    );
    const unmatched = await prometheus!.waitFor('the unmatched rule', async () => {
      const s = await instant('routescope:unmatched:ratio_rate10m{metrics_source="spanmetrics"}');
      return s.length > 0 ? s : undefined;
    });
    expectClose(
      byLabel(unmatched, ROUTER),
      rowsOf(sent.byRouter.rows, (r) => (r.verdicts.unmatched ?? 0) / r.decisions),
    );
    const byVerdict = await instant(
      'routescope:tier2_decisions_by_verdict:increase1h{metrics_source="spanmetrics"}',
    );
    const counts = Object.fromEntries(
      byVerdict.map((s) => [`${s.metric[ROUTER]} ${s.metric[VERDICT]}`, s.value]),
    );
    for (const row of sent.byRouter.rows)
      for (const [verdict, n] of Object.entries(row.verdicts))
        if (n > 0) expect(counts[`${row.name} ${verdict}`], `${row.name} ${verdict}`).toBeCloseTo(n, 9);
    for (const record of recordNames()) expect((await instant(record)).length, record).toBeGreaterThan(0);
    // The direct metrics' rules (the wrapped router pushes them): the same near-tie rate for that router.
    const direct = await prometheus!.waitFor('the direct near-tie rule', async () => {
      const s = await instant('routescope:near_tie:ratio_rate5m{metrics_source="direct"}');
      return s.length > 0 ? s : undefined;
    });
    expectClose(
      byLabel(direct, ROUTER),
      rowsOf(
        sent.byRouter.rows.filter((r) => r.name === WRAPPED_ROUTER),
        (r) => r.nearTieRate,
      ),
    );
  });

  it('each alert rule answers what analyze implies: only the near-tie alert, for the routers over 20 %', async () => {
    const expected: Record<string, string[]> = {
      RoutingNearTieRateOverBudget: sent.byRouter.rows.filter((r) => r.nearTieRate > 0.2).map((r) => r.name),
      // No decision is in production, none contradicts its near-tie flag, no floorless decision is unmatched,
      // no hour before this one to surge against; the metrics and their target are there.
      RoutingFloorlessScorerInProduction: [],
      RoutingUnmatchedSurge: [],
      RoutingInconsistentVerdicts: [],
      RoutingNonFiniteScores: [],
      RoutingMetricsAbsent: [],
      RoutingMetricsTargetDown: [],
    };
    expect(expected.RoutingNearTieRateOverBudget!.length).toBeGreaterThan(0);
    const alerts = alertRules();
    expect(Object.keys(alerts).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, expr] of Object.entries(alerts)) {
      const firing = (await instant(expr)).map((s) => s.metric[ROUTER] ?? '').sort();
      expect(firing, name).toEqual([...expected[name]!].sort());
    }
  });

  it('every Prometheus panel of the dashboard has data, and the near-tie, verdict and scorer panels equal analyze', async () => {
    const panels = dashboardQueries();
    expect(Object.keys(panels).length).toBeGreaterThanOrEqual(6);
    const results: Record<string, Sample[]> = {};
    for (const [title, expr] of Object.entries(panels)) results[title] = await instant(expr);
    for (const [title, samples] of Object.entries(results)) expect(samples.length, title).toBeGreaterThan(0);
    // The panel answers 0 rather than nothing (`or vector(0)`), and analyze finds none either.
    expect(results['Inconsistent verdicts']!.map((s) => s.value)).toEqual([sent.inconsistent]);
    expectClose(
      byLabel(results['Near-tie rate per router']!, ROUTER),
      rowsOf(sent.byRouter.rows, (r) => r.nearTieRate),
    );
    expectClose(
      byLabel(results['Near-tie rate by scorer']!, SCORER),
      rowsOf(sent.byScorer.rows, (r) => r.nearTieRate),
    );
    const mix = byLabel(results['Verdict mix']!, VERDICT);
    const all = Object.values(mix).reduce((a, b) => a + b, 0);
    const shares = Object.fromEntries(Object.entries(mix).map(([k, v]) => [k, v / all]));
    expectClose(
      shares,
      Object.fromEntries(
        Object.entries(sent.verdicts)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => [k, n / sent.decisions]),
      ),
    );
    // The gap median from the direct histogram lies in the bucket that holds the exact median of the gaps the
    // wrapped router recorded (histogram_quantile interpolates inside a bucket: that is its rounding).
    const [median] = results['Runner-up gap, median (direct metrics only)']!;
    expect(median!.metric[ROUTER]).toBe(WRAPPED_ROUTER);
    const exact = exactMedian(wrappedGaps());
    const bounds = [0, ...DEFAULT_GAP_HISTOGRAM_BOUNDARIES, Infinity];
    const bucket = bounds.findIndex((b, i) => i > 0 && median!.value <= b);
    expect(exact, `estimate ${median!.value}`).toBeGreaterThan(bounds[bucket - 1]!);
    expect(exact, `estimate ${median!.value}`).toBeLessThanOrEqual(bounds[bucket]!);
    const floorless = results['Floorless scorers']!.map((s) => `${s.metric[ROUTER]} ${s.metric[SCORER]}`);
    expect(floorless.sort()).toEqual(sent.floorless.map((f) => `${f.router} ${f.scorer}`).sort());
  });

  it('the Grafana alert rules fire where the Prometheus rules do, and the trace-to-metrics queries equal analyze', async () => {
    const wrapped = sent.byRouter.rows.find((r) => r.name === WRAPPED_ROUTER)!;
    const overBudget = sent.byRouter.rows.filter((r) => r.nearTieRate > 0.2).map((r) => r.name);
    const rules = grafanaAlertRules();
    expect(rules.length).toBe(14);
    for (const rule of rules) {
      const firing = (await instant(rule.expr))
        .filter((s) => s.value > rule.threshold)
        .map((s) => s.metric[ROUTER] ?? '')
        .sort();
      const expected = rule.title.startsWith('Near-tie rate over budget')
        ? rule.title.endsWith('(direct)')
          ? wrapped.nearTieRate > 0.2
            ? [WRAPPED_ROUTER]
            : []
          : overBudget.sort()
        : [];
      expect(firing, rule.title).toEqual(expected);
    }
    // The Tempo datasource's "trace to metrics" queries, with $__tags as Grafana fills it for a router's trace.
    const [nearTieQuery, verdictQuery] = tracesToMetricsQueries();
    for (const row of sent.byRouter.rows) {
      const tags = `${ROUTER}="${row.name}"`;
      const [rate] = await instant(nearTieQuery!.replaceAll('$__tags', tags));
      expect(rate?.value, row.name).toBeCloseTo(row.nearTieRate, 9);
      const mix = byLabel(await instant(verdictQuery!.replaceAll('$__tags', tags)), VERDICT);
      const all = Object.values(mix).reduce((a, b) => a + b, 0);
      for (const [verdict, n] of Object.entries(row.verdicts))
        if (n > 0) expect(mix[verdict]! / all, `${row.name} ${verdict}`).toBeCloseTo(n / row.decisions, 9);
    }
  });

  // Last in the file: it sends more decisions. The connector puts exemplars on the points of the one flush that
  // counted their spans and clears them after it, so a scrape that falls between two flushes sees none (the kit
  // flushes every 15 s and Prometheus scrapes every 15 s in stack/prometheus.yaml; here both run every second).
  // Small batches are sent until a scrape has caught one.
  it('exemplars on the calls counter carry the trace ids of routing spans the app sent', async () => {
    const files = runs.flatMap((r) => r.files);
    let batch = 0;
    const ids = await prometheus!.waitFor('an exemplar', async () => {
      files.push(
        await runRouterTurns(collector!.otlpHttp, appDir, 'exemplar-desk', ['near-tie', 'decisive'], ++batch),
      );
      const end = Date.now() / 1000;
      const response = await fetch(
        `${prometheus!.url}/api/v1/query_exemplars?query=${encodeURIComponent(TIER2)}&start=${end - 600}&end=${end}`,
      );
      const body = (await response.json()) as { data: { exemplars: { labels: Record<string, string> }[] }[] };
      const found = body.data.flatMap((series) => series.exemplars.map((e) => e.labels.trace_id ?? ''));
      return found.length > 0 ? found : undefined;
    });
    const routingTraces = new Set(
      [...readTraceSets(files).entries()].filter(([, t]) => t.routingSpans.size > 0).map(([id]) => id),
    );
    for (const id of ids) expect(routingTraces.has(id.toLowerCase()), id).toBe(true);
  });
});

/** The shipped rules file's groups. */
function ruleGroups(): { rules: { record?: string; alert?: string; expr: string }[] }[] {
  return (
    parseYaml(readFileSync(RULES, 'utf8')) as {
      groups: { rules: { record?: string; alert?: string; expr: string }[] }[];
    }
  ).groups;
}

/** Every recording rule's name, selected by its metrics_source label. */
function recordNames(): string[] {
  return ruleGroups().flatMap((g) =>
    g.rules.filter((r) => r.record !== undefined).map((r) => `${r.record}{metrics_source="spanmetrics"}`),
  );
}

/** Every alert rule's expression, by alert name. */
function alertRules(): Record<string, string> {
  return Object.fromEntries(
    ruleGroups().flatMap((g) => g.rules.filter((r) => r.alert !== undefined).map((r) => [r.alert!, r.expr])),
  );
}

/**
 * Every Prometheus expression of the dashboard, by panel title, with Grafana's variables as the dashboard's
 * defaults give them: the spanmetrics counter, every router, a 5-minute rate interval and a 1-hour range.
 */
function dashboardQueries(): Record<string, string> {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { title: string; targets?: { expr?: string; datasource?: unknown }[]; panels?: unknown[] }[];
  };
  const out: Record<string, string> = {};
  for (const panel of dashboard.panels)
    for (const target of panel.targets ?? [])
      if (target.expr !== undefined)
        out[panel.title] = target.expr
          .replaceAll('$decisions', 'traces_span_metrics_calls_total')
          .replaceAll('$router', '.*')
          .replaceAll('$__rate_interval', '5m')
          .replaceAll('$__range', '1h');
  return out;
}

/** The runner-up gaps the wrapped router's routing spans carry, in the app's own files. */
function wrappedGaps(): number[] {
  const gaps: number[] = [];
  for (const file of runs.flatMap((r) => r.files).filter((f) => path.basename(f).startsWith('wrapped-')))
    for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean))
      for (const rs of (JSON.parse(line) as OtlpLine).resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const span of ss.spans) {
            const gap = span.attributes?.find((a) => a.key === ATTR_ROUTING_RUNNER_UP_GAP)?.value;
            if (span.name === 'agentfootprint.routing.tier2' && gap?.doubleValue !== undefined)
              gaps.push(gap.doubleValue);
          }
  return gaps;
}

interface OtlpLine {
  resourceSpans: {
    scopeSpans: {
      spans: { name: string; attributes?: { key: string; value: { doubleValue?: number } }[] }[];
    }[];
  }[];
}

/** The median of `values` (the lower middle of an even count: Prometheus' rank is q·count). */
function exactMedian(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  expect(sorted.length).toBeGreaterThan(0);
  return sorted[Math.ceil(sorted.length / 2) - 1]!;
}

/** Grafana's provisioned alert rules: each one's Prometheus query (refId A) and its threshold (refId C, `gt`). */
function grafanaAlertRules(): { title: string; expr: string; threshold: number }[] {
  const file = path.join(ROOT, 'dashboards/grafana/provisioning/alerting/routing.yaml');
  const parsed = parseYaml(readFileSync(file, 'utf8')) as {
    groups: {
      rules: {
        title: string;
        data: {
          refId: string;
          model: { expr?: string; conditions?: { evaluator: { type: string; params: number[] } }[] };
        }[];
      }[];
    }[];
  };
  return parsed.groups.flatMap((g) =>
    g.rules.map((rule) => {
      const query = rule.data.find((d) => d.refId === 'A')!.model.expr!;
      const evaluator = rule.data.find((d) => d.refId === 'C')!.model.conditions![0]!.evaluator;
      expect(evaluator.type, rule.title).toBe('gt');
      return { title: rule.title, expr: query, threshold: evaluator.params[0]! };
    }),
  );
}

/** The Tempo datasource's trace-to-metrics queries (near-tie rate, verdict mix), in their order. */
function tracesToMetricsQueries(): string[] {
  const file = path.join(ROOT, 'dashboards/grafana/provisioning/datasources/routescope.yaml');
  const parsed = parseYaml(readFileSync(file, 'utf8')) as {
    datasources: { type: string; jsonData?: { tracesToMetrics?: { queries: { query: string }[] } } }[];
  };
  const tempo = parsed.datasources.find((d) => d.type === 'tempo')!;
  return tempo.jsonData!.tracesToMetrics!.queries.map((q) => q.query);
}
