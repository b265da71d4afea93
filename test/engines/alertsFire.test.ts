/**
 * The alert rules fire on a real near-tie burst and resolve after it, through the whole path compose.yaml wires:
 * an app → the real Collector (single.yaml) → its Prometheus exporter → a real Prometheus evaluating the shipped
 * spanmetrics rules → a real Alertmanager (Debian's `prometheus-alertmanager`) routing by stack/alertmanager.yaml →
 * a webhook the test listens on.
 *
 * What the test changes, so it takes seconds rather than a quarter of an hour: every rule's `for:` becomes 1 s;
 * Alertmanager's route waits 1 s (group_wait, group_interval) and its `routescope` receiver gets the test's
 * webhook with send_resolved. The expressions, thresholds, labels, grouping and inhibition are the shipped ones.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/engines/engineBuild.js';
import { startCollector, type RunningCollector } from '../helpers/engines/collector.js';
import { engineDir, getOk, startEngine, type EngineProcess } from '../helpers/engines/engineProcess.js';
import { runRouterTurns, type TurnKind } from '../helpers/engines/routingApp.js';
import { freePort, startPrometheus, type PrometheusServer } from '../helpers/prometheusServer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROUTER = 'burst-desk';
const ALERT = 'RoutingNearTieRateOverBudget';

interface Notification {
  readonly status: 'firing' | 'resolved';
  readonly alerts: readonly {
    status: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  }[];
}

let collector: RunningCollector | undefined;
let alertmanager: EngineProcess | undefined;
let prometheus: PrometheusServer | undefined;
let webhook: Server | undefined;
let dir = '';
const received: Notification[] = [];

/** The shipped spanmetrics rules with every `for:` set to 1 s, written to `file`. */
function quickRules(file: string): void {
  const rules = parseYaml(
    readFileSync(path.join(ROOT, 'dashboards/alerts/routing-spanmetrics.rules.yaml'), 'utf8'),
  ) as { groups: { rules: { for?: string }[] }[] };
  for (const group of rules.groups)
    for (const rule of group.rules) if (rule.for !== undefined) rule.for = '1s';
  writeFileSync(file, JSON.stringify(rules));
}

/** stack/alertmanager.yaml with 1 s waits and the test's webhook on its receiver, written to `file`. */
function quickAlertmanagerConfig(file: string, url: string): void {
  const config = parseYaml(
    readFileSync(path.join(ROOT, 'collector-config/stack/alertmanager.yaml'), 'utf8'),
  ) as {
    route: Record<string, unknown>;
    receivers: { name: string; webhook_configs?: unknown[] }[];
  };
  Object.assign(config.route, { group_wait: '1s', group_interval: '1s', repeat_interval: '1h' });
  const receiver = config.receivers.find((r) => r.name === config.route.receiver)!;
  receiver.webhook_configs = [{ url, send_resolved: true }];
  writeFileSync(file, JSON.stringify(config));
}

/** Turns of the burst router: `nearTies` near-ties and `decisive` decisive ones. */
const turns = (nearTies: number, decisive: number): TurnKind[] => [
  ...Array<TurnKind>(nearTies).fill('near-tie'),
  ...Array<TurnKind>(decisive).fill('decisive'),
];

/** The newest notification about the near-tie alert of the burst router with `status`. */
function notified(status: 'firing' | 'resolved') {
  return received
    .flatMap((n) => n.alerts)
    .filter((a) => a.labels.alertname === ALERT && a.labels.agentfootprint_routing_router === ROUTER)
    .find((a) => a.status === status);
}

beforeAll(async () => {
  engine('otelcol');
  dir = mkdtempSync(path.join(os.tmpdir(), 'routescope-alerts-'));
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as Notification);
      res.end();
    });
  });
  await new Promise<void>((resolve) => webhook!.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/alerts`;

  const amDir = engineDir('alertmanager');
  const amPort = await freePort();
  quickAlertmanagerConfig(path.join(amDir, 'alertmanager.json'), hook);
  alertmanager = startEngine(
    'alertmanager',
    'prometheus-alertmanager',
    [
      `--config.file=${path.join(amDir, 'alertmanager.json')}`,
      `--storage.path=${path.join(amDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${amPort}`,
      '--cluster.listen-address=',
    ],
    amDir,
  );
  await alertmanager.waitFor('Alertmanager to be ready', () => getOk(`http://127.0.0.1:${amPort}/-/ready`));

  collector = await startCollector({
    file: 'single.yaml',
    env: { TEMPO_OTLP_ENDPOINT: '127.0.0.1:9', JAEGER_OTLP_ENDPOINT: '127.0.0.1:9' },
  });
  const rules = path.join(dir, 'rules.json');
  quickRules(rules);
  prometheus = await startPrometheus({
    target: collector.prometheusTarget!,
    jobName: 'otelcol-spanmetrics',
    rules,
    alertmanager: `127.0.0.1:${amPort}`,
    waitMs: 60_000,
  });
}, 30 * 60_000);

afterAll(async () => {
  try {
    await prometheus?.stop();
    await alertmanager?.stop();
    await collector?.stop();
  } finally {
    await new Promise((resolve) => (webhook === undefined ? resolve(undefined) : webhook.close(resolve)));
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  }
});

describe('a near-tie burst through the Collector, Prometheus and Alertmanager', () => {
  it('fires the near-tie alert, and Alertmanager sends it to the receiver with the shipped labels', async () => {
    // Two requests of the same burst (2 near-ties in 3), one scrape apart: the counters grow, so rates exist.
    const total = (n: number) =>
      `sum(traces_span_metrics_calls_total{agentfootprint_routing_router="${ROUTER}"}) == ${n}`;
    await runRouterTurns(collector!.otlpHttp, dir, ROUTER, turns(40, 20), 1);
    await prometheus!.waitFor('the first burst scraped', async () =>
      (await prometheus!.query(total(60))).samples.length > 0 ? true : undefined,
    );
    await runRouterTurns(collector!.otlpHttp, dir, ROUTER, turns(40, 20), 2);
    const firing = await prometheus!.waitFor('the near-tie alert to reach the receiver', async () =>
      notified('firing'),
    );
    expect(firing.labels).toMatchObject({ severity: 'warning', metrics_source: 'spanmetrics' });
    expect(firing.annotations.summary).toBe(`Near-tie rate over budget on router ${ROUTER}`);
    expect(firing.annotations.runbook_url).toBe('docs/operations.md#runbook-routingneartierateoverbudget');
    // Only the near-tie alert fires on this burst: no other rule is met. (Before the first burst there was no
    // routing series at all, so RoutingMetricsAbsent may have fired then, as it should; it is not counted.)
    const others = received
      .flatMap((n) => n.alerts)
      .filter((a) => a.labels.alertname !== ALERT && a.labels.alertname !== 'RoutingMetricsAbsent');
    expect(others).toEqual([]);
  });

  it('resolves after the burst, once decisive decisions bring the rate under 20 %, and the receiver hears it', async () => {
    await runRouterTurns(collector!.otlpHttp, dir, ROUTER, turns(0, 600), 3);
    const resolved = await prometheus!.waitFor('the resolved notification', async () => notified('resolved'));
    expect(resolved.labels.agentfootprint_routing_router).toBe(ROUTER);
    const [ratio] = (
      await prometheus!.query(
        `routescope:near_tie:ratio_rate5m{metrics_source="spanmetrics", agentfootprint_routing_router="${ROUTER}"}`,
      )
    ).samples;
    expect(ratio!.value).toBeLessThan(0.2);
  });
});
