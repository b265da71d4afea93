/**
 * Direct metrics pushed over OTLP through the Collector: the label set they reach Prometheus with.
 *
 * No Collector runs on the test machines, so the path is rebuilt from its parts. The instrumentation records
 * through the real SDK with `deployment.environment.name` on the RESOURCE, as an app sets it. The Collector's
 * metrics pipeline is applied as configured: each transform statement must be the one form this test models,
 * `set(attributes[K], resource.attributes[K])` (guarded so a point that has K keeps it). The contrib Prometheus
 * exporter then writes a point's attributes as labels and resource attributes only on `target_info` (unless
 * `resource_to_telemetry_conversion` is on; its README, "Setting resource attributes as metric labels"). The
 * resulting series go to the real promtool with routing-direct.rules.yaml, and the production alert must fire.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, MetricReader, DataPointType } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { stringify as stringifyYaml } from 'yaml';
import { asArray, asRecord, readRepoYaml, runPromtool } from './opsQueries.js';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import {
  METRIC_ROUTING_DECISIONS,
  PROM_LABEL_ENVIRONMENT,
  PROM_ROUTING_DECISIONS_TOTAL,
  RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME,
  toPrometheusName,
} from '../../src/semconv/metricNames.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';

class MemoryMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

type Attrs = Record<string, string>;
interface Point {
  readonly attributes: Attrs;
  readonly value: number;
}

/** The decision counter's points and resource, from the real SDK: a floorless scorer in production. */
async function recordDirectMetrics(): Promise<{ resource: Attrs; points: Point[] }> {
  const reader = new MemoryMetricReader();
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ [RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME]: 'production' }),
    readers: [reader],
  });
  try {
    const decide = instrumentDecideTier2(decideTier2, {
      meterProvider: provider,
      routerName: 'support',
      scorerName: 'embedding',
    });
    for (let i = 0; i < 5; i++) {
      decide(
        [
          { id: 'billing', score: 2 },
          { id: 'refunds', score: 0.2 },
        ],
        'refunds',
        {
          nearTieMargin: 0.15,
          menuSize: 3,
        },
      );
    }
    const { resourceMetrics } = await reader.collect();
    const resource = Object.fromEntries(
      Object.entries(resourceMetrics.resource.attributes).map(([k, v]) => [k, String(v)]),
    );
    const metric = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === METRIC_ROUTING_DECISIONS);
    expect(metric?.dataPointType).toBe(DataPointType.SUM);
    const points = (metric?.dataPoints ?? []).map((p) => ({
      attributes: Object.fromEntries(Object.entries(p.attributes).map(([k, v]) => [k, String(v)])),
      value: Number(p.value),
    }));
    return { resource, points };
  } finally {
    await provider.shutdown();
  }
}

const SET_FROM_RESOURCE =
  /^set\(datapoint\.attributes\["([^"]+)"\], resource\.attributes\["([^"]+)"\]\)(?: where datapoint\.attributes\["([^"]+)"\] == nil and resource\.attributes\["([^"]+)"\] != nil)?$/;

/** The transform statements of a config's metrics pipeline, applied to points; an unmodelled one throws. */
function applyMetricsPipeline(config: Record<string, unknown>, resource: Attrs, points: Point[]): Point[] {
  const processors = asRecord(config.processors, 'processors');
  const pipeline = asRecord(
    asRecord(asRecord(config.service, 'service').pipelines, 'pipelines').metrics,
    'metrics',
  );
  let out = points;
  for (const id of asArray(pipeline.processors, 'metrics.processors') as string[]) {
    if (!id.startsWith('transform')) continue;
    for (const group of asArray(asRecord(processors[id], id).metric_statements, 'metric_statements')) {
      const g = asRecord(group, 'statement group');
      expect(g.context, id).toBe('datapoint');
      for (const statement of asArray(g.statements, 'statements') as string[]) {
        const m = SET_FROM_RESOURCE.exec(statement);
        if (m === null)
          throw new Error(
            `${id}: this test models only set(datapoint.attributes[K], resource.attributes[K]): ${statement}`,
          );
        const [, target, source] = m as unknown as [string, string, string];
        out = out.map((p) =>
          p.attributes[target] === undefined && resource[source] !== undefined
            ? { ...p, attributes: { ...p.attributes, [target]: resource[source] } }
            : p,
        );
      }
    }
  }
  return out;
}

/** The labels the contrib Prometheus exporter writes for a point (job/instance come from the scrape). */
function prometheusLabels(exporter: Record<string, unknown>, resource: Attrs, point: Point): Attrs {
  const conversion = exporter.resource_to_telemetry_conversion as { enabled?: boolean } | undefined;
  const attrs = conversion?.enabled === true ? { ...resource, ...point.attributes } : point.attributes;
  return Object.fromEntries(Object.entries(attrs).map(([k, v]) => [toPrometheusName(k), v]));
}

describe('direct metrics pushed over OTLP through the Collector', () => {
  for (const file of ['single.yaml', 'tail-sampling.yaml']) {
    it(`${file}: the series keep deployment_environment_name and the production alert fires on them`, async () => {
      const config = asRecord(readRepoYaml(`collector-config/${file}`), file);
      const { resource, points } = await recordDirectMetrics();
      expect(points.length).toBeGreaterThan(0);
      for (const p of points) expect(p.attributes[RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME]).toBeUndefined();
      const exporter = asRecord(asRecord(config.exporters, 'exporters').prometheus, 'prometheus');
      const series = applyMetricsPipeline(config, resource, points).map((p) => ({
        labels: {
          job: 'otelcol',
          instance: 'otelcol:8889',
          ...prometheusLabels(exporter, resource, p),
        } as Attrs,
        value: p.value,
      }));
      for (const s of series) expect(s.labels[PROM_LABEL_ENVIRONMENT], file).toBe('production');

      const selector = (labels: Attrs) =>
        `${PROM_ROUTING_DECISIONS_TOTAL}{${Object.entries(labels)
          .map(([k, v]) => `${k}="${v}"`)
          .join(', ')}}`;
      const dir = mkdtempSync(path.join(os.tmpdir(), 'routescope-ops-'));
      try {
        // The rules as shipped, minus annotations (this test is about labels; the rule tests check the text).
        const rules = asRecord(readRepoYaml('dashboards/alerts/routing-direct.rules.yaml'), 'rules');
        for (const g of asArray(rules.groups, 'groups'))
          for (const r of asArray(asRecord(g, 'group').rules, 'rules'))
            delete asRecord(r, 'rule').annotations;
        writeFileSync(path.join(dir, 'rules.yaml'), stringifyYaml(rules));
        const tests = {
          rule_files: ['rules.yaml'],
          evaluation_interval: '1m',
          tests: [
            {
              interval: '1m',
              // The recorded count, growing by as much every minute.
              input_series: series.map((s) => ({ series: selector(s.labels), values: `0+${s.value}x20` })),
              alert_rule_test: [
                {
                  eval_time: '15m',
                  alertname: 'RoutingFloorlessScorerInProduction',
                  exp_alerts: [
                    {
                      exp_labels: {
                        agentfootprint_routing_router: 'support',
                        agentfootprint_routing_scorer_name: 'embedding',
                        deployment_environment_name: 'production',
                        metrics_source: 'direct',
                        severity: 'warning',
                      },
                    },
                  ],
                },
              ],
            },
          ],
        };
        writeFileSync(path.join(dir, 'labels.test.yaml'), stringifyYaml(tests));
        const { status, output } = runPromtool(['test', 'rules', 'labels.test.yaml'], dir);
        expect(output, file).toContain('SUCCESS');
        expect(status, file).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
