/**
 * metricNames: the Prometheus names the rules and dashboards read are the ones the real OTel JS Prometheus
 * exporter writes for the direct metrics, and the OTel names keep the naming rules (no clash with an attribute
 * name or namespace of semconv.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import {
  DEFAULT_GAP_HISTOGRAM_BOUNDARIES,
  METRIC_ROUTING_DECISIONS,
  METRIC_ROUTING_DECISIONS_UNIT,
  METRIC_ROUTING_GAP,
  METRIC_ROUTING_GAP_UNIT,
  PROM_LABEL_FLOOR_DECLARED,
  PROM_LABEL_NEAR_TIE,
  PROM_LABEL_ROUTER,
  PROM_LABEL_SCORER,
  PROM_LABEL_VERDICT,
  PROM_ROUTING_DECISIONS_TOTAL,
  PROM_ROUTING_GAP_BUCKET,
  PROM_ROUTING_GAP_COUNT,
  PROM_ROUTING_GAP_SUM,
  ROUTING_METRIC_ATTRIBUTE_KEYS,
  toPrometheusName,
} from '../../src/semconv/metricNames.js';
import {
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_VERDICT,
  CORRELATION_ATTRIBUTE_KEYS,
  ROUTING_ATTRIBUTE_KEYS,
} from '../../src/semconv/semconv.js';

let provider: MeterProvider | undefined;
afterEach(async () => {
  await provider?.shutdown();
  provider = undefined;
});

/** Record one decision and one gap through a real MeterProvider; return the exporter's text. */
async function exportOnce(): Promise<string> {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  provider = new MeterProvider({ readers: [exporter] });
  const meter = provider.getMeter('routescope-test');
  const decisions = meter.createCounter(METRIC_ROUTING_DECISIONS, { unit: METRIC_ROUTING_DECISIONS_UNIT });
  const gap = meter.createHistogram(METRIC_ROUTING_GAP, {
    unit: METRIC_ROUTING_GAP_UNIT,
    advice: { explicitBucketBoundaries: [...DEFAULT_GAP_HISTOGRAM_BOUNDARIES] },
  });
  const attrs = {
    [ATTR_ROUTING_ROUTER]: 'support',
    [ATTR_ROUTING_SCORER_NAME]: 'embedding',
    [ATTR_ROUTING_VERDICT]: 'stay',
    [ATTR_ROUTING_NEAR_TIE]: true,
    [ATTR_ROUTING_FLOOR_DECLARED]: false,
  };
  decisions.add(1, attrs);
  gap.record(0.1, attrs);
  const { resourceMetrics } = await exporter.collect();
  return new PrometheusSerializer().serialize(resourceMetrics);
}

describe('metricNames', () => {
  it('the Prometheus names and labels are the ones the OTel Prometheus exporter writes', async () => {
    const text = await exportOnce();
    const lines = text.split('\n').filter((l) => !l.startsWith('#') && l.trim() !== '');
    const seriesNames = new Set(lines.map((l) => l.split(/[{ ]/)[0]));
    for (const name of [
      PROM_ROUTING_DECISIONS_TOTAL,
      PROM_ROUTING_GAP_BUCKET,
      PROM_ROUTING_GAP_SUM,
      PROM_ROUTING_GAP_COUNT,
    ]) {
      expect(seriesNames, name).toContain(name);
    }
    const decisionLine = lines.find((l) => l.startsWith(`${PROM_ROUTING_DECISIONS_TOTAL}{`)) ?? '';
    expect(decisionLine).toContain(`${PROM_LABEL_ROUTER}="support"`);
    expect(decisionLine).toContain(`${PROM_LABEL_SCORER}="embedding"`);
    expect(decisionLine).toContain(`${PROM_LABEL_VERDICT}="stay"`);
    // Booleans become "true"/"false", the values the rules match on (as spanmetrics writes them).
    expect(decisionLine).toContain(`${PROM_LABEL_NEAR_TIE}="true"`);
    expect(decisionLine).toContain(`${PROM_LABEL_FLOOR_DECLARED}="false"`);
    // The default near-tie margin is a bucket bound, so le="0.15" counts default-policy near-ties.
    expect(lines.some((l) => l.startsWith(`${PROM_ROUTING_GAP_BUCKET}{`) && l.includes('le="0.15"'))).toBe(
      true,
    );
  });

  it('the label constants are the attribute keys spelled the exporter way', () => {
    expect(ROUTING_METRIC_ATTRIBUTE_KEYS.map(toPrometheusName)).toEqual([
      PROM_LABEL_ROUTER,
      PROM_LABEL_SCORER,
      PROM_LABEL_VERDICT,
      PROM_LABEL_NEAR_TIE,
      PROM_LABEL_FLOOR_DECLARED,
    ]);
  });

  it('metric names clash with no attribute name or namespace (one naming universe)', () => {
    const attributeNames: string[] = [...ROUTING_ATTRIBUTE_KEYS, ...CORRELATION_ATTRIBUTE_KEYS];
    for (const metric of [METRIC_ROUTING_DECISIONS, METRIC_ROUTING_GAP]) {
      expect(attributeNames).not.toContain(metric);
      for (const attr of attributeNames) {
        expect(attr.startsWith(`${metric}.`), `${metric} would be a namespace of ${attr}`).toBe(false);
        expect(metric.startsWith(`${attr}.`), `${attr} would be a namespace of ${metric}`).toBe(false);
      }
      expect(metric).toMatch(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/);
      expect(metric).not.toMatch(/total/);
    }
  });

  it('toPrometheusName gives a valid Prometheus name and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (name) => {
        const once = toPrometheusName(name);
        expect(once).toMatch(/^[a-zA-Z0-9_]*$/);
        expect(once).not.toMatch(/__/);
        expect(toPrometheusName(once)).toBe(once);
      }),
    );
  });
});
