/**
 * serve's /metrics scraped by a real Prometheus with the shipped direct rules: the routing counters serve
 * computes from received spans give the near-tie rate the test routed, through the alert's recording rule, and
 * the near-tie alert goes pending. Nothing but a scrape config points Prometheus at serve. And `promtool check
 * metrics` finds nothing to say about the exposition.
 *
 * The real `prometheus` binary (Debian package; fails, not skips, without it) runs on loopback with temp
 * storage, scraping every second. The spans come from the real SDK and OTLP/HTTP exporter.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROM_ROUTING_DECISIONS_TOTAL } from '../../src/semconv/metricNames.js';
import type { RunningServe } from '../../src/serve/startServe.js';
import { startPrometheus, type PrometheusServer, type Sample } from '../helpers/prometheusServer.js';
import { exportDecisions, startTestServe } from '../serve/serveHarness.js';

const RULES = fileURLToPath(new URL('../../dashboards/alerts/routing-direct.rules.yaml', import.meta.url));
const WAIT_MS = 30_000;

let serve: RunningServe | undefined;
let prometheus: PrometheusServer | undefined;

/** The samples of an instant query. */
async function instant(promql: string): Promise<Sample[]> {
  return (await prometheus!.query(promql)).samples;
}

/** Poll Prometheus until `check` gives a value, at most WAIT_MS. */
function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  return prometheus!.waitFor(what, check);
}

beforeAll(async () => {
  serve = await startTestServe();
  prometheus = await startPrometheus({
    target: new URL(serve.endpoint).host,
    jobName: 'routescope-serve',
    rules: RULES,
    waitMs: WAIT_MS,
  });
}, 60_000);

afterAll(async () => {
  try {
    await prometheus?.stop();
  } finally {
    await serve?.close();
  }
});

describe('serve /metrics through a real Prometheus and the shipped rules', () => {
  it('the recording rule gives the routed near-tie rate, and the near-tie alert goes pending', async () => {
    // Two batches one scrape apart, so rate() sees every series grow by the same factor.
    const first = await exportDecisions(serve!.endpoint, 60, 'json');
    await eventually('the first batch scraped', async () => {
      const [s] = await instant(`sum(${PROM_ROUTING_DECISIONS_TOTAL})`);
      return s?.value === 60 ? true : undefined;
    });
    const second = await exportDecisions(serve!.endpoint, 60, 'protobuf');
    await eventually('both batches scraped', async () => {
      const [s] = await instant(`sum(${PROM_ROUTING_DECISIONS_TOTAL})`);
      return s?.value === 120 ? true : undefined;
    });
    expect(first.length + second.length).toBe(120);
    // Every third turn of exportDecisions is a near-tie.
    const ratio = await eventually('the near-tie recording rule', async () => {
      const [s] = await instant(
        'routescope:near_tie:ratio_rate5m{metrics_source="direct",agentfootprint_routing_router="desk"}',
      );
      return s === undefined ? undefined : s.value;
    });
    expect(ratio).toBeCloseTo(1 / 3, 6);
    const alert = await eventually('the near-tie alert', async () => {
      const r = await fetch(`${prometheus!.url}/api/v1/alerts`);
      const body = (await r.json()) as {
        data: { alerts: { labels: Record<string, string>; state: string }[] };
      };
      return body.data.alerts.find((a) => a.labels.alertname === 'RoutingNearTieRateOverBudget');
    });
    expect(alert.labels.agentfootprint_routing_router).toBe('desk');
    expect(['pending', 'firing']).toContain(alert.state);
  }, 90_000);

  it('/metrics passes `promtool check metrics`, the exposition lint, with every family serve writes', async () => {
    const text = await (await fetch(serve!.metricsUrl)).text();
    for (const family of [
      PROM_ROUTING_DECISIONS_TOTAL,
      'agentfootprint_routing_gap_bucket',
      'routescope_serve_requests_total',
      'routescope_serve_window_bytes',
      'process_resident_memory_bytes',
    ])
      expect(text).toContain(`\n${family}`);
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
  });
});
