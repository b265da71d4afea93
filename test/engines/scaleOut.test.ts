/**
 * scale-out.yaml on the real Collector: a front Collector with the load-balancing exporter in front of two back
 * Collectors, each running tail-sampling.yaml and sending its sampled traces to a sink of its own. The test
 * gives the front tier a static resolver naming the two backs (the file resolves them by DNS), and the backs a
 * 2 s `decision_wait` (30 s in the file). Every span of a trace lands on one back (the routing spans in their
 * files, the kept traces in their sinks); both backs get some; each back's span metrics carry its own
 * collector_instance_id; and Prometheus, scraping both with the shipped rules, sums them to the figures of
 * `routescope analyze` of what the app sent.
 *
 * Counts, and ratios of the summed counters, are exact. A rate over both instances is not exactly a ratio of
 * counts: Prometheus extrapolates each series from its own first sample and the two backs flush at different
 * moments (seen: 5 % apart), so the near-tie recording rule is compared within 10 % of analyze's rate, and exactly
 * in its shape (one series per router, summed over the instances).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/engines/engineBuild.js';
import { SINK_CONFIG, startCollector, type RunningCollector } from '../helpers/engines/collector.js';
import { analyze, verdictCountsByRouter, type AnalyzeReport } from '../helpers/engines/analyzeCli.js';
import { APP_SEED, runRoutingApp, type AppRun } from '../helpers/engines/routingApp.js';
import { readTraceSets } from '../helpers/engines/traceSets.js';
import { startPrometheus, type PrometheusServer } from '../helpers/prometheusServer.js';

const RULES = fileURLToPath(
  new URL('../../dashboards/alerts/routing-spanmetrics.rules.yaml', import.meta.url),
);
const TIER2 = 'traces_span_metrics_calls_total{span_name="agentfootprint.routing.tier2"}';
const ROUTER = 'agentfootprint_routing_router';
const VERDICT = 'agentfootprint_routing_verdict';

const started: RunningCollector[] = [];
let front: RunningCollector;
let backs: RunningCollector[] = [];
let sinks: RunningCollector[] = [];
let prometheus: PrometheusServer | undefined;
let appDir = '';
const runs: AppRun[] = [];
let sent: AnalyzeReport;

async function start(options: Parameters<typeof startCollector>[0]): Promise<RunningCollector> {
  const running = await startCollector(options);
  started.push(running);
  return running;
}

beforeAll(async () => {
  engine('otelcol');
  sinks = [
    await start({ file: 'sink', config: SINK_CONFIG }),
    await start({ file: 'sink', config: SINK_CONFIG }),
  ];
  backs = [];
  for (const sink of sinks)
    backs.push(
      await start({
        file: 'tail-sampling.yaml',
        env: { TEMPO_OTLP_ENDPOINT: sink.otlpGrpc, JAEGER_OTLP_ENDPOINT: sink.otlpGrpc },
        edit: (config) => {
          (config.processors!.tail_sampling as { decision_wait: string }).decision_wait = '2s';
        },
      }),
    );
  front = await start({
    file: 'scale-out.yaml',
    edit: (config) => {
      const lb = config.exporters!.load_balancing as { resolver: unknown };
      lb.resolver = { static: { hostnames: backs.map((b) => b.otlpGrpc) } };
    },
  });
  prometheus = await startPrometheus({
    target: backs.map((b) => b.prometheusTarget!),
    jobName: 'otelcol-spanmetrics',
    rules: RULES,
    waitMs: 60_000,
  });
  appDir = mkdtempSync(path.join(os.tmpdir(), 'routescope-scale-'));
  // Two runs, the same decisions under new ids: every series grows after its first sample, so rates exist.
  for (const seed of [APP_SEED, APP_SEED + 1]) {
    runs.push(await runRoutingApp(front.otlpHttp, appDir, seed));
    const total = analyze(runs.flatMap((r) => r.files)).decisions;
    await prometheus.waitFor(`${total} decisions counted over both backs, scraped twice`, async () => {
      const [s] = (await prometheus!.query(`count_over_time((sum(${TIER2}) == ${total})[5s:1s])`)).samples;
      return s !== undefined && s.value >= 2 ? true : undefined;
    });
  }
  sent = analyze(runs.flatMap((r) => r.files));
}, 30 * 60_000);

afterAll(async () => {
  try {
    await prometheus?.stop();
  } finally {
    for (const c of started.reverse()) await c.stop();
    if (appDir !== '') rmSync(appDir, { recursive: true, force: true });
  }
});

describe('scale-out.yaml in front of two tail-sampling.yaml instances', () => {
  it('every span of a trace lands on one back, and both backs get traces', async () => {
    const routing = await front.waitFor('both backs to write every routing decision', async () => {
      const perBack = backs.map((b) => readTraceSets([b.traceDir]));
      const decisions = backs.map((b) => analyze([b.traceDir]).decisions);
      return decisions[0]! + decisions[1]! === sent.decisions ? perBack : undefined;
    });
    for (const traces of routing) expect(traces.size).toBeGreaterThan(0);
    const onBoth = [...routing[0]!.keys()].filter((id) => routing[1]!.has(id));
    expect(onBoth).toEqual([]);
    // The sampled traces, whole in the sink of the back that took them and absent from the other.
    const kept = sinks.map((s) => readTraceSets([s.traceDir]));
    const sentTraces = readTraceSets(runs.flatMap((r) => r.files));
    for (const [i, traces] of kept.entries())
      for (const [id, arrived] of traces) {
        expect(
          routing[i]!.has(id) || !routing[1 - i]!.has(id),
          `trace ${id} sampled on the back without its routing spans`,
        ).toBe(true);
        expect(kept[1 - i]!.has(id), `trace ${id} in both sinks`).toBe(false);
        expect(
          [...sentTraces.get(id)!.spans].every((s) => arrived.spans.has(s)),
          `trace ${id} in part`,
        ).toBe(true);
      }
  });

  it('each back labels its series with its own collector_instance_id, and the sums equal analyze', async () => {
    const instances = (await prometheus!.query(`count by (collector_instance_id) (${TIER2})`)).samples;
    expect(instances.length).toBe(2);
    const counts = (await prometheus!.query(`sum by (${ROUTER}, ${VERDICT}) (${TIER2})`)).samples;
    const counted = Object.fromEntries(
      counts.map((s) => [`${s.metric[ROUTER]} ${s.metric[VERDICT]}`, s.value]),
    );
    const expected = verdictCountsByRouter(sent);
    expect(counted).toEqual(expected);
    const byVerdict = await prometheus!.waitFor('the verdict recording rule over both backs', async () => {
      const s = (
        await prometheus!.query(
          'routescope:tier2_decisions_by_verdict:increase1h{metrics_source="spanmetrics"}',
        )
      ).samples;
      const sum = s.reduce((a, x) => a + x.value, 0);
      return Math.abs(sum - sent.decisions) < 1e-6 ? s : undefined;
    });
    for (const s of byVerdict)
      expect(s.value, `${s.metric[ROUTER]} ${s.metric[VERDICT]}`).toBeCloseTo(
        expected[`${s.metric[ROUTER]} ${s.metric[VERDICT]}`]!,
        6,
      );
    // The near-tie rate from the summed counters: exactly analyze's.
    const ratio = (
      await prometheus!.query(
        `sum by (${ROUTER}) (${TIER2.replace('}', ', agentfootprint_routing_near_tie="true"}')}) / sum by (${ROUTER}) (${TIER2})`,
      )
    ).samples;
    for (const row of sent.byRouter.rows.filter((r) => r.nearTies > 0))
      expect(ratio.find((s) => s.metric[ROUTER] === row.name)?.value, row.name).toBeCloseTo(
        row.nearTieRate,
        9,
      );
    // The recording rule: one series per router, summed over the instances, near analyze's rate (see above).
    // Each instance's series extrapolated from its own first sample: the longer they have been scraped, the
    // closer the rates come to the counts. Wait until every series is 15 s old.
    await prometheus!.waitFor('every series 15 s old', async () => {
      const [s] = (await prometheus!.query(`min(count_over_time(${TIER2}[30s]))`)).samples;
      return s !== undefined && s.value >= 15 ? true : undefined;
    });
    const nearTie = await prometheus!.waitFor('the near-tie rule over both backs', async () => {
      const s = (await prometheus!.query('routescope:near_tie:ratio_rate5m{metrics_source="spanmetrics"}'))
        .samples;
      return s.length === sent.byRouter.rows.length && s.every((x) => Number.isFinite(x.value))
        ? s
        : undefined;
    });
    for (const row of sent.byRouter.rows) {
      const value = nearTie.find((s) => s.metric[ROUTER] === row.name)!.value;
      expect(Math.abs(value - row.nearTieRate), row.name).toBeLessThanOrEqual(0.1 * row.nearTieRate + 1e-9);
    }
  });
});
