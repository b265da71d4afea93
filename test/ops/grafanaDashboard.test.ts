/**
 * The Grafana dashboard: a valid classic JSON model (required fields, schemaVersion 41–43, unique panel ids,
 * gridPos inside the 24-column grid without overlaps, datasources only through the ds_* variables, every variable
 * used), every PromQL expression parsing with the real PromQL grammar and every TraceQL query with the real TraceQL
 * grammar, and every metric, label, attribute and span name they use defined in the key modules.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify as stringifyYaml } from 'yaml';
import {
  ALLOWED_LABELS,
  analyzePromql,
  analyzeTraceql,
  checkTraceqlNames,
  readRepoText,
  runPromtool,
} from './opsQueries.js';
import {
  PROMETHEUS_SERIES_NAMES,
  PROM_LABEL_FLOOR_DECLARED,
  PROM_LABEL_NEAR_TIE,
  PROM_LABEL_ROUTER,
  PROM_LABEL_SCORER,
  PROM_LABEL_SPAN_NAME,
  PROM_LABEL_VERDICT,
  PROM_ROUTING_DECISIONS_TOTAL,
  PROM_SPANMETRICS_CALLS_TOTAL,
  SPANMETRICS_TIER2_SPAN_NAME,
} from '../../src/semconv/metricNames.js';
import {
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_RUNNER_UP_ID,
  ATTR_ROUTING_TOP_ID,
  ATTR_ROUTING_VERDICT,
} from '../../src/semconv/semconv.js';

interface Target {
  refId: string;
  datasource?: { type: string; uid: string };
  expr?: string;
  query?: string;
  queryType?: string;
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  query: unknown;
  datasource?: { type: string; uid: string };
  options?: Array<{ text: string; value: string }>;
}
interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: Variable[] };
  time: { from: string; to: string };
  [key: string]: unknown;
}

const text = readRepoText('dashboards/grafana/routing.json');
const dashboard = JSON.parse(text) as Dashboard;
const variables = new Map(dashboard.templating.list.map((v) => [v.name, v]));
const targets = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p, target: t })));
const promTargets = targets.filter(({ target }) => target.expr !== undefined);
const tempoTargets = targets.filter(({ target }) => target.queryType === 'traceql');

/** A series selector string for promtool input. */
function series(metric: string, labels: Record<string, string>): string {
  return `${metric}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ')}}`;
}

/** A panel's PromQL with the dashboard variables filled in as Grafana would. */
function fillVariables(expr: string, metric: string, routers: string): string {
  return expr
    .replaceAll('$decisions', metric)
    .replaceAll('$router', routers)
    .replaceAll('$__rate_interval', '5m')
    .replaceAll('$__range', '10m');
}

/** Panels that share a grid cell. */
function overlaps(panels: readonly Panel[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < panels.length; i++) {
    for (let j = i + 1; j < panels.length; j++) {
      const a = panels[i]!.gridPos;
      const b = panels[j]!.gridPos;
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) {
        found.push(`${panels[i]!.id} overlaps ${panels[j]!.id}`);
      }
    }
  }
  return found;
}

describe('dashboards/grafana/routing.json', () => {
  it('is a classic dashboard JSON model with the required fields and a current schemaVersion', () => {
    for (const field of [
      'uid',
      'title',
      'schemaVersion',
      'panels',
      'templating',
      'time',
      'annotations',
      'editable',
    ]) {
      expect(dashboard, field).toHaveProperty(field);
    }
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(41);
    expect(dashboard.schemaVersion).toBeLessThanOrEqual(43);
    expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(dashboard.id ?? null).toBeNull(); // provisioning assigns ids; a fixed id would clash
  });

  it('has unique panel ids and every panel inside the 24-column grid, none overlapping', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) {
      const { h, w, x, y } = p.gridPos;
      for (const n of [h, w, x, y]) expect(Number.isInteger(n), `panel ${p.id}`).toBe(true);
      expect(w).toBeGreaterThan(0);
      expect(h).toBeGreaterThan(0);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x + w, `panel ${p.id}`).toBeLessThanOrEqual(24);
      expect(p.title.length).toBeGreaterThan(0);
    }
    expect(overlaps(dashboard.panels)).toEqual([]);
  });

  it('the overlap check catches two panels on one cell', () => {
    const a = { ...dashboard.panels[0]!, id: 100, gridPos: { h: 4, w: 6, x: 0, y: 0 } };
    const b = { ...dashboard.panels[0]!, id: 101, gridPos: { h: 4, w: 6, x: 3, y: 2 } };
    expect(overlaps([a, b])).toEqual(['100 overlaps 101']);
  });

  it('reaches Prometheus and Tempo only through the datasource variables, and uses every variable', () => {
    expect(variables.get('ds_prometheus')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(variables.get('ds_tempo')).toMatchObject({ type: 'datasource', query: 'tempo' });
    const expected: Record<string, string> = { prometheus: '${ds_prometheus}', tempo: '${ds_tempo}' };
    for (const { panel, target } of targets) {
      for (const ds of [panel.datasource, target.datasource]) {
        expect(ds, `panel ${panel.id}`).toBeDefined();
        expect(ds!.uid, `panel ${panel.id}`).toBe(expected[ds!.type]);
      }
    }
    expect(promTargets.length).toBeGreaterThan(0);
    expect(tempoTargets.length).toBeGreaterThan(0);
    for (const name of variables.keys()) {
      const uses = text.split(`$${name}`).length - 1 + (text.split(`\${${name}`).length - 1);
      expect(uses, `variable ${name} is never used`).toBeGreaterThan(0);
    }
  });

  it('every PromQL expression parses and names only known metrics and routing labels', () => {
    const decisions = variables.get('decisions');
    const metricChoices = (decisions?.options ?? []).map((o) => o.value);
    expect(metricChoices.sort()).toEqual([
      'agentfootprint_routing_decisions_total',
      'traces_span_metrics_calls_total',
    ]);
    const known = new Set<string>(PROMETHEUS_SERIES_NAMES);
    const problems: string[] = [];
    for (const { panel, target } of promTargets) {
      const facts = analyzePromql(target.expr!);
      const where = `panel ${panel.id} "${panel.title}"`;
      problems.push(...facts.errors.map((e) => `${where}: ${e}`));
      for (const m of facts.metricNames) if (!known.has(m)) problems.push(`${where}: unknown metric ${m}`);
      for (const v of facts.nameMatcherValues) {
        const names = v === '$decisions' ? metricChoices : [v];
        for (const m of names) if (!known.has(m)) problems.push(`${where}: unknown metric ${m}`);
      }
      for (const l of facts.labelNames)
        if (!ALLOWED_LABELS.has(l)) problems.push(`${where}: unknown label ${l}`);
    }
    expect(problems).toEqual([]);
  });

  it('the panels compute the right numbers over either label set (real promtool evaluation)', () => {
    const exprOf = (title: string) =>
      dashboard.panels.find((p) => p.title === title)?.targets?.[0]?.expr ?? '';
    for (const metric of [PROM_SPANMETRICS_CALLS_TOTAL, PROM_ROUTING_DECISIONS_TOTAL]) {
      const spanmetrics = metric === PROM_SPANMETRICS_CALLS_TOTAL;
      const decision = (labels: Record<string, string>, spanName = SPANMETRICS_TIER2_SPAN_NAME) =>
        series(
          metric,
          spanmetrics ? { [PROM_LABEL_SPAN_NAME]: spanName, service_name: 'agent', ...labels } : labels,
        );
      const d = (router: string, scorer: string, verdict: string, nearTie: string, floor: string) => ({
        [PROM_LABEL_ROUTER]: router,
        [PROM_LABEL_SCORER]: scorer,
        [PROM_LABEL_VERDICT]: verdict,
        [PROM_LABEL_NEAR_TIE]: nearTie,
        [PROM_LABEL_FLOOR_DECLARED]: floor,
      });
      const input = [
        // support: 0.5/s near-tie stays (floored scorer), 1.5/s decisive moves (floorless).
        { series: decision(d('support', 'embedding', 'stay', 'true', 'true')), values: '0+30x20' },
        { series: decision(d('support', 'embedding', 'move', 'false', 'false')), values: '0+90x20' },
        // custom: 0.5/s moves that claim to be near-ties — inconsistent.
        { series: decision(d('custom', 'keyword', 'move', 'true', 'true')), values: '0+30x20' },
        // not part of the chosen routers: must never show.
        { series: decision(d('other', 'keyword', 'menu', 'true', 'true')), values: '0+600x20' },
      ];
      if (spanmetrics) {
        // Not a tier-2 span: the span-name filter must drop it.
        input.push({
          series: decision(d('support', 'embedding', 'stay', 'true', 'false'), 'agentfootprint.routing.turn'),
          values: '0+600x20',
        });
      }
      const routers = 'support|custom';
      const check = (title: string, samples: Array<{ labels: Record<string, string>; value: number }>) => ({
        expr: fillVariables(exprOf(title), metric, routers),
        eval_time: '10m',
        exp_samples: samples.map((x) => ({ labels: series('', x.labels), value: x.value })),
      });
      const tests = {
        rule_files: [],
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: input,
            promql_expr_test: [
              check('Near-tie rate per router', [
                { labels: { [PROM_LABEL_ROUTER]: 'support' }, value: 0.25 },
                { labels: { [PROM_LABEL_ROUTER]: 'custom' }, value: 1 },
              ]),
              check('Verdict mix', [
                { labels: { [PROM_LABEL_VERDICT]: 'stay' }, value: 0.5 },
                { labels: { [PROM_LABEL_VERDICT]: 'move' }, value: 2 },
              ]),
              check('Near-tie rate by scorer', [
                { labels: { [PROM_LABEL_SCORER]: 'embedding' }, value: 0.25 },
                { labels: { [PROM_LABEL_SCORER]: 'keyword' }, value: 1 },
              ]),
              check('Floorless scorers', [
                { labels: { [PROM_LABEL_ROUTER]: 'support', [PROM_LABEL_SCORER]: 'embedding' }, value: 900 },
              ]),
              check('Inconsistent verdicts', [{ labels: {}, value: 300 }]),
            ],
          },
        ],
      };
      const dir = mkdtempSync(path.join(os.tmpdir(), 'routescope-ops-'));
      try {
        writeFileSync(path.join(dir, 'panels.test.yaml'), stringifyYaml(tests));
        const { status, output } = runPromtool(['test', 'rules', 'panels.test.yaml'], dir);
        expect(output, metric).toContain('SUCCESS');
        expect(status, metric).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('the router variable lists routers from the chosen metric', () => {
    const router = variables.get('router')!;
    const query = (router.query as { query: string }).query;
    const match = /^label_values\((.+), (\w+)\)$/.exec(query);
    expect(match).not.toBeNull();
    expect(match![2]).toBe(PROM_LABEL_ROUTER);
    const facts = analyzePromql(match![1]!);
    expect(facts.errors).toEqual([]);
    expect(facts.nameMatcherValues).toEqual(['$decisions']);
    expect(router.datasource?.uid).toBe('${ds_prometheus}');
  });

  it('every TraceQL query parses and names only semconv attributes, spans and events', () => {
    const problems: string[] = [];
    for (const { panel, target } of tempoTargets) {
      const facts = analyzeTraceql(target.query!);
      const where = `panel ${panel.id} "${panel.title}"`;
      problems.push(...facts.errors.map((e) => `${where}: ${e}`));
      problems.push(...checkTraceqlNames(facts).map((p) => `${where}: ${p}`));
      expect(facts.attributes.length, where).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
  });

  it('the TraceQL checks catch a misspelt attribute and a broken query', () => {
    expect(checkTraceqlNames(analyzeTraceql('{ span.agentfootprint.routing.neartie = true }'))).toEqual([
      'span.agentfootprint.routing.neartie is not a key of src/semconv/semconv.ts',
    ]);
    expect(analyzeTraceql('{ span.agentfootprint.routing.near_tie = }').errors.length).toBeGreaterThan(0);
    expect(analyzePromql('sum(rate(x[5m])').errors.length).toBeGreaterThan(0);
  });

  it('has the panels the ops kit promises', () => {
    const byTitle = (t: string) => dashboard.panels.find((p) => p.title === t);
    expect(byTitle('Near-tie rate per router')?.type).toBe('timeseries');
    expect(byTitle('Verdict mix')).toBeDefined();
    expect(byTitle('Near-tie rate by scorer')).toBeDefined();
    expect(byTitle('Floorless scorers')?.type).toBe('table');
    const pairs = byTitle('Most-tied skill pairs (TraceQL metrics)')?.targets?.[0]?.query ?? '';
    expect(pairs).toContain(`span.${ATTR_ROUTING_NEAR_TIE} = true`);
    expect(pairs).toContain(`by (span.${ATTR_ROUTING_TOP_ID}, span.${ATTR_ROUTING_RUNNER_UP_ID})`);
    const recent = byTitle('Recent near-tie and unmatched decisions');
    expect(recent?.type).toBe('table');
    expect(recent?.targets?.[0]?.query).toContain(`span.${ATTR_ROUTING_VERDICT} = "unmatched"`);
  });
});
