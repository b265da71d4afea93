/**
 * The Prometheus alert rules (both label sets) and the Grafana alert provisioning: every expression parses with
 * the real PromQL grammar and names only metrics of metricNames.ts and labels of the routing metric attributes;
 * the real promtool checks the rule files and runs their unit tests; a weakened rule makes those tests fail;
 * and the Grafana rules, run by promtool over the same input series, fire exactly the same alerts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  ALLOWED_LABELS,
  analyzePromql,
  asArray,
  asRecord,
  PROMETHEUS_OWN_SERIES,
  readRepoText,
  readRepoYaml,
  repoPath,
  requirePromtool,
  runPromtool,
} from './opsQueries.js';
import { PROMETHEUS_SERIES_NAMES } from '../../src/semconv/metricNames.js';

const SOURCES = ['spanmetrics', 'direct'] as const;
const ALERTS_DIR = repoPath('dashboards/alerts');
const GRAFANA_ALERTING = 'dashboards/grafana/provisioning/alerting/routing.yaml';

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
function githubAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function rulesOf(source: string): Rule[] {
  const doc = asRecord(readRepoYaml(`dashboards/alerts/routing-${source}.rules.yaml`), source);
  return asArray(doc.groups, 'groups').flatMap((g) => asArray(asRecord(g, 'group').rules, 'rules') as Rule[]);
}

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'routescope-ops-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

/** Problems with one expression: parse errors, unknown metric names, unknown labels. */
function exprProblems(expr: string, knownMetrics: ReadonlySet<string>, where: string): string[] {
  const facts = analyzePromql(expr);
  const problems = facts.errors.map((e) => `${where}: ${e}`);
  for (const m of facts.metricNames) if (!knownMetrics.has(m)) problems.push(`${where}: unknown metric ${m}`);
  for (const l of facts.labelNames) if (!ALLOWED_LABELS.has(l)) problems.push(`${where}: unknown label ${l}`);
  return problems;
}

describe('Prometheus alert rules', () => {
  for (const source of SOURCES) {
    describe(`routing-${source}.rules.yaml`, () => {
      const rules = rulesOf(source);
      const recorded = new Set(rules.flatMap((r) => (r.record ? [r.record] : [])));
      const known = new Set<string>([...PROMETHEUS_SERIES_NAMES, ...PROMETHEUS_OWN_SERIES, ...recorded]);

      it('every expression parses and names only known metrics and routing labels', () => {
        const problems = rules.flatMap((r) => exprProblems(r.expr, known, r.record ?? r.alert ?? '?'));
        expect(problems).toEqual([]);
      });

      it(`every rule reads its own label set and is marked metrics_source=${source}`, () => {
        const raw = new Set(
          rules.flatMap((r) => analyzePromql(r.expr).metricNames).filter((m) => !recorded.has(m)),
        );
        expect([...raw].sort()).toEqual([
          source === 'spanmetrics'
            ? 'traces_span_metrics_calls_total'
            : 'agentfootprint_routing_decisions_total',
          'up',
        ]);
        for (const r of rules) expect(r.labels?.metrics_source, r.record ?? r.alert).toBe(source);
      });

      it('promtool check rules accepts the file', () => {
        const { status, output } = runPromtool(
          ['check', 'rules', `routing-${source}.rules.yaml`],
          ALERTS_DIR,
        );
        expect(output).toContain('SUCCESS');
        expect(status).toBe(0);
      });

      it('promtool test rules passes: the series that must fire do, the others do not', () => {
        const { status, output } = runPromtool(['test', 'rules', `routing-${source}.test.yaml`], ALERTS_DIR);
        expect(output).toContain('SUCCESS');
        expect(status).toBe(0);
      });
    });
  }

  it('both label sets define the same alerts and recording rules', () => {
    const names = (source: string) =>
      rulesOf(source)
        .map((r) => r.record ?? r.alert)
        .sort();
    expect(names('direct')).toEqual(names('spanmetrics'));
    expect(names('spanmetrics')).toEqual(
      expect.arrayContaining([
        'RoutingNearTieRateOverBudget',
        'RoutingFloorlessScorerInProduction',
        'RoutingUnmatchedSurge',
        'RoutingInconsistentVerdicts',
        'RoutingNonFiniteScores',
        'RoutingMetricsAbsent',
        'RoutingMetricsTargetDown',
      ]),
    );
  });

  it('every alert links a runbook section of docs/operations.md and a panel of the dashboard', () => {
    const headings = new Set(
      [...readRepoText('docs/operations.md').matchAll(/^#+ .*?\{#([a-z0-9-]+)\}$|^#+ (.+)$/gm)].map((m) =>
        m[1] !== undefined ? m[1] : githubAnchor(m[2]!),
      ),
    );
    const dashboard = JSON.parse(readRepoText('dashboards/grafana/routing.json')) as {
      uid: string;
      panels: Array<{ id: number }>;
    };
    const panelIds = new Set(dashboard.panels.map((p) => String(p.id)));
    for (const source of SOURCES) {
      for (const r of rulesOf(source).filter((x) => x.alert !== undefined)) {
        const a = r.annotations ?? {};
        const where = `${source} ${r.alert}`;
        expect(a.runbook_url, where).toBe(`docs/operations.md#runbook-${r.alert!.toLowerCase()}`);
        expect(headings, where).toContain(a.runbook_url!.split('#')[1]);
        expect(a.dashboard_uid, where).toBe(dashboard.uid);
        expect(panelIds, where).toContain(a.panel_id);
      }
    }
  });

  it('the unit tests bite: a weakened budget or a lost span filter makes promtool test rules fail', () => {
    const mutations: Array<[string, (s: string) => string]> = [
      ['near-tie budget 0.2 → 0.9', (s) => s.replace('> 0.2\n', '> 0.9\n')],
      [
        'span-name filter dropped',
        (s) => s.replaceAll('span_name="agentfootprint.routing.tier2"', 'span_name!=""'),
      ],
      ['production matcher widened', (s) => s.replace('prod|production', 'prod|production|staging')],
      [
        'new series no longer counted (increase only)',
        (s) =>
          s.replaceAll(/\n\s*or\n\s*\(traces_span_metrics_calls_total\{[^}]*\}\n\s*unless [^\n]*\)/g, ''),
      ],
      ['unmatched-surge traffic floor dropped', (s) => s.replace(') >= 30', ') >= 0')],
      [
        'absence alert on the wrong metric',
        (s) => s.replace('absent(traces_span_metrics_calls_total', 'absent(up'),
      ],
    ];
    for (const [what, mutate] of mutations) {
      const dir = tempDir();
      const rules = readFileSync(path.join(ALERTS_DIR, 'routing-spanmetrics.rules.yaml'), 'utf8');
      const mutated = mutate(rules);
      expect(mutated, what).not.toBe(rules);
      writeFileSync(path.join(dir, 'routing-spanmetrics.rules.yaml'), mutated);
      copyFileSync(
        path.join(ALERTS_DIR, 'routing-spanmetrics.test.yaml'),
        path.join(dir, 'routing-spanmetrics.test.yaml'),
      );
      const { status } = runPromtool(['test', 'rules', 'routing-spanmetrics.test.yaml'], dir);
      expect(status, what).not.toBe(0);
    }
  });

  it('a missing promtool is reported with what to install, not skipped', () => {
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      expect(() => requirePromtool()).toThrow(/Debian package `prometheus`/);
    } finally {
      process.env.PATH = saved;
    }
  });
});

interface GrafanaRule {
  uid: string;
  title: string;
  condition: string;
  for: string;
  labels: Record<string, string>;
  data: Array<{ refId: string; datasourceUid: string; model: Record<string, unknown> }>;
}

describe('Grafana alert provisioning', () => {
  const doc = asRecord(readRepoYaml(GRAFANA_ALERTING), GRAFANA_ALERTING);
  const groups = asArray(doc.groups, 'groups').map((g) => asRecord(g, 'group'));
  const datasources = asArray(
    asRecord(readRepoYaml('dashboards/grafana/provisioning/datasources/routescope.yaml'), 'datasources')
      .datasources,
    'datasources',
  ).map((d) => asRecord(d, 'datasource'));
  const promUid = datasources.find((d) => d.type === 'prometheus')?.uid;

  const rulesBySource = new Map<string, GrafanaRule[]>();
  for (const g of groups) {
    for (const r of asArray(g.rules, 'rules') as GrafanaRule[]) {
      const source = r.labels.metrics_source ?? '?';
      rulesBySource.set(source, [...(rulesBySource.get(source) ?? []), r]);
    }
  }
  const all = [...rulesBySource.values()].flat();
  const exprOf = (r: GrafanaRule) => String(r.data.find((d) => d.refId === 'A')?.model.expr);
  const thresholdOf = (r: GrafanaRule) => {
    const c = r.data.find((d) => d.refId === r.condition)?.model as {
      conditions: Array<{ evaluator: { params: number[] } }>;
    };
    return c.conditions[0]?.evaluator.params[0];
  };

  it('is file-provisioning format, with unique uids, conditions that exist, and provisioned datasources', () => {
    expect(doc.apiVersion).toBe(1);
    expect(new Set(all.map((r) => r.uid)).size).toBe(all.length);
    for (const r of all) {
      expect(
        r.data.map((d) => d.refId),
        r.uid,
      ).toContain(r.condition);
      for (const d of r.data) expect([promUid, '__expr__'], r.uid).toContain(d.datasourceUid);
    }
  });

  it('has the seven alerts for each label set, every query parsing and naming only known metrics and labels', () => {
    expect([...rulesBySource.keys()].sort()).toEqual([...SOURCES].sort());
    for (const source of SOURCES) expect(rulesBySource.get(source)?.length, source).toBe(7);
    const known = new Set<string>([...PROMETHEUS_SERIES_NAMES, ...PROMETHEUS_OWN_SERIES]);
    expect(all.flatMap((r) => exprProblems(exprOf(r), known, r.uid))).toEqual([]);
  });

  it('fires exactly what the Prometheus rules fire, over the same promtool input series', () => {
    const titleToAlert: Record<string, string> = {
      'Near-tie rate over budget': 'RoutingNearTieRateOverBudget',
      'Floorless scorer in production': 'RoutingFloorlessScorerInProduction',
      'Sudden rise of unmatched': 'RoutingUnmatchedSurge',
      'Inconsistent verdicts': 'RoutingInconsistentVerdicts',
      'Non-finite scores': 'RoutingNonFiniteScores',
      'Routing metrics absent': 'RoutingMetricsAbsent',
      'Routing metrics target down': 'RoutingMetricsTargetDown',
    };
    for (const source of SOURCES) {
      const dir = tempDir();
      // Each Grafana rule as a Prometheus alert: query A compared with threshold C, same `for` and labels.
      const rules = (rulesBySource.get(source) ?? []).map((r) => ({
        alert: titleToAlert[r.title.replace(/ \(\w+\)$/, '')],
        expr: `(${exprOf(r)}) > ${thresholdOf(r)}`,
        for: r.for,
        labels: r.labels,
      }));
      for (const r of rules) expect(r.alert, JSON.stringify(r)).toBeDefined();
      writeFileSync(
        path.join(dir, 'grafana.rules.yaml'),
        stringifyYaml({ groups: [{ name: 'grafana', rules }] }),
      );
      // The Prometheus rules' unit tests, minus annotations (Grafana's differ) and recording-rule checks.
      const tests = asRecord(
        parseYaml(readFileSync(path.join(ALERTS_DIR, `routing-${source}.test.yaml`), 'utf8')),
        't',
      );
      tests.rule_files = ['grafana.rules.yaml'];
      for (const t of asArray(tests.tests, 'tests').map((x) => asRecord(x, 'test'))) {
        delete t.promql_expr_test;
        for (const a of asArray(t.alert_rule_test, 'alert_rule_test').map((x) => asRecord(x, 'a'))) {
          for (const e of asArray(a.exp_alerts, 'exp_alerts').map((x) => asRecord(x, 'e')))
            delete e.exp_annotations;
        }
      }
      writeFileSync(path.join(dir, 'grafana.test.yaml'), stringifyYaml(tests));
      const { status, output } = runPromtool(['test', 'rules', 'grafana.test.yaml'], dir);
      expect(output, source).toContain('SUCCESS');
      expect(status, source).toBe(0);
    }
  });
});
