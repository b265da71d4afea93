/**
 * The Collector configurations and the compose stack: they parse, their pipelines are wired to components they
 * define, those components are in the Collector built from collector-config/otelcol-builder.yaml (its list,
 * components.json, is checked against the real build by test/engines), under their current type names,
 * and every routing name they mention is a key of src/semconv/semconv.ts. The stack itself cannot start on
 * the CI machines (no Docker engine), so these checks are what keep it correct.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createMemorySdk } from '../helpers/otelSdk.js';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import { spawnSync } from 'node:child_process';
import {
  ALLOWED_LABELS,
  KNOWN_ROUTING_NAMES,
  analyzePromql,
  asArray,
  asRecord,
  collectStrings,
  readRepoText,
  readRepoYaml,
  repoPath,
  routingNamesIn,
  runPromtool,
} from './opsQueries.js';
import {
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_VERDICT,
  EVENT_ROUTING_MISROUTED,
  SPAN_ROUTING_FEEDBACK,
  SPAN_ROUTING_TIER2,
} from '../../src/semconv/semconv.js';
import {
  PROMETHEUS_SERIES_NAMES,
  RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME,
  ROUTING_METRIC_ATTRIBUTE_KEYS,
  SPANMETRICS_NAMESPACE,
} from '../../src/semconv/metricNames.js';

const COLLECTOR_CONFIGS = ['single.yaml', 'tail-sampling.yaml', 'scale-out.yaml'] as const;
const KINDS = ['receivers', 'processors', 'exporters', 'connectors', 'extensions'] as const;
type Kind = (typeof KINDS)[number];

interface ComponentList {
  release: string;
  builder: string;
  manifest: string;
  types: Record<Kind, Record<string, string>>;
}

const components = JSON.parse(readRepoText('collector-config/components.json')) as ComponentList;

function configOf(file: string): Record<string, unknown> {
  return asRecord(readRepoYaml(`collector-config/${file}`), file);
}

/** Component ids of one kind a config defines (`type` or `type/name`). */
function defined(config: Record<string, unknown>, kind: Kind): Set<string> {
  const section = config[kind];
  return new Set(section === undefined || section === null ? [] : Object.keys(asRecord(section, kind)));
}

const typeOf = (id: string): string => id.split('/')[0] ?? id;

/** Problems with a config's wiring: undefined or unused components, connectors used on one side only. */
function wiringProblems(config: Record<string, unknown>, file: string): string[] {
  const problems: string[] = [];
  const service = asRecord(config.service, `${file} service`);
  const pipelines = asRecord(service.pipelines, `${file} service.pipelines`);
  const receivers = defined(config, 'receivers');
  const processors = defined(config, 'processors');
  const exporters = defined(config, 'exporters');
  const connectors = defined(config, 'connectors');
  const extensions = defined(config, 'extensions');
  const used = new Set<string>();
  const connectorIn = new Set<string>();
  const connectorOut = new Set<string>();
  for (const [pipelineId, raw] of Object.entries(pipelines)) {
    const signal = typeOf(pipelineId);
    if (!['traces', 'metrics', 'logs'].includes(signal))
      problems.push(`${file}: pipeline ${pipelineId}: unknown signal`);
    const p = asRecord(raw, `${file} pipeline ${pipelineId}`);
    for (const id of asArray(p.receivers, `${file} ${pipelineId}.receivers`) as string[]) {
      if (receivers.has(id)) used.add(`receivers:${id}`);
      else if (connectors.has(id)) connectorOut.add(id);
      else problems.push(`${file}: pipeline ${pipelineId} receives from undefined ${id}`);
    }
    for (const id of (p.processors ?? []) as string[]) {
      if (processors.has(id)) used.add(`processors:${id}`);
      else problems.push(`${file}: pipeline ${pipelineId} uses undefined processor ${id}`);
    }
    for (const id of asArray(p.exporters, `${file} ${pipelineId}.exporters`) as string[]) {
      if (exporters.has(id)) used.add(`exporters:${id}`);
      else if (connectors.has(id)) connectorIn.add(id);
      else problems.push(`${file}: pipeline ${pipelineId} exports to undefined ${id}`);
    }
  }
  for (const id of (service.extensions ?? []) as string[]) {
    if (extensions.has(id)) used.add(`extensions:${id}`);
    else problems.push(`${file}: service uses undefined extension ${id}`);
  }
  for (const [kind, ids] of [
    ['receivers', receivers],
    ['processors', processors],
    ['exporters', exporters],
    ['extensions', extensions],
  ] as const) {
    for (const id of ids)
      if (!used.has(`${kind}:${id}`)) problems.push(`${file}: ${kind} ${id} is defined but unused`);
  }
  for (const id of connectors) {
    if (!connectorIn.has(id) || !connectorOut.has(id)) {
      problems.push(`${file}: connector ${id} must be an exporter of one pipeline and a receiver of another`);
    }
  }
  return problems;
}

/** Tail-sampling policies, nested `and` / `composite` / `drop` sub-policies included. */
function flattenPolicies(policies: unknown[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const raw of policies) {
    const policy = asRecord(raw, 'policy');
    out.push(policy);
    for (const key of ['and', 'composite', 'drop']) {
      const nested = policy[key] as Record<string, unknown> | undefined;
      if (!nested) continue;
      for (const sub of ['and_sub_policy', 'composite_sub_policy', 'drop_sub_policy']) {
        if (Array.isArray(nested[sub])) out.push(...flattenPolicies(nested[sub]));
      }
    }
  }
  return out;
}

describe('collector configs', () => {
  it('components.json names one release, and every component in it is a module of that release', () => {
    expect(components.release).toMatch(/^\d+\.\d+\.\d+$/);
    expect(components.builder).toBe(`go.opentelemetry.io/collector/cmd/builder v${components.release}`);
    expect(existsSync(repoPath(components.manifest))).toBe(true);
    for (const kind of KINDS) {
      for (const [type, module] of Object.entries(components.types[kind])) {
        // Core v0 modules and contrib modules carry the release itself (v1 modules are the stable line).
        expect(module, `${kind} ${type}`).toMatch(
          new RegExp(` v(${components.release.replaceAll('.', '\\.')}|1\\.\\d+\\.\\d+)$`),
        );
      }
    }
  });

  it('the builder manifest holds exactly the components the configs use, at the release', () => {
    const manifest = asRecord(readRepoYaml(components.manifest), components.manifest);
    expect(asRecord(manifest.dist, 'dist').version).toBe(components.release);
    for (const kind of KINDS) {
      const modules = asArray(manifest[kind], kind).map((m) => String(asRecord(m, kind).gomod));
      const used = new Set<string>();
      for (const file of COLLECTOR_CONFIGS)
        for (const id of defined(configOf(file), kind)) used.add(typeOf(id));
      const needed = [...used].map((type) => components.types[kind][type] ?? `${kind} ${type}: not built`);
      expect(modules.sort(), kind).toEqual([...new Set(needed)].sort());
    }
  });

  for (const file of COLLECTOR_CONFIGS) {
    describe(file, () => {
      const config = configOf(file);

      it('every pipeline names only components the file defines, and every component is used', () => {
        expect(wiringProblems(config, file)).toEqual([]);
      });

      it('every component type is in the built Collector, under its current name (no deprecated alias)', () => {
        const missing: string[] = [];
        for (const kind of KINDS) {
          for (const id of defined(config, kind)) {
            if (!(typeOf(id) in components.types[kind])) missing.push(`${kind} ${id}`);
          }
        }
        expect(missing).toEqual([]);
      });

      it('every routing name it mentions, comments included, is in semconv.ts', () => {
        const unknown = routingNamesIn(readRepoText(`collector-config/${file}`)).filter(
          (n) => !KNOWN_ROUTING_NAMES.has(n),
        );
        expect(unknown).toEqual([]);
      });
    });
  }

  it('the checks catch a pipeline naming an undefined component and a type outside the distribution', () => {
    const broken = structuredClone(configOf('single.yaml'));
    const pipelines = asRecord(asRecord(broken.service, 'service').pipelines, 'pipelines');
    asRecord(pipelines.traces, 'traces').exporters = [
      'otlp_grpc/tempo',
      'otlp_grpc/jaeger',
      'otlp_grpc/nowhere',
    ];
    expect(wiringProblems(broken, 'broken.yaml')).toContain(
      'broken.yaml: pipeline traces exports to undefined otlp_grpc/nowhere',
    );
    expect('spanmetricsprocessor' in components.types.processors).toBe(false);
    // The deprecated aliases still load in the Collector, but the kit uses the current names.
    expect('spanmetrics' in components.types.connectors).toBe(false);
    expect('otlp' in components.types.exporters).toBe(false);
  });

  for (const file of ['single.yaml', 'tail-sampling.yaml']) {
    it(`${file}: spanmetrics dimensions are exactly the bounded routing labels (no candidate ids)`, () => {
      const connector = asRecord(
        asRecord(configOf(file).connectors, 'connectors').span_metrics,
        'span_metrics',
      );
      expect(connector.namespace).toBe(SPANMETRICS_NAMESPACE);
      const names = asArray(connector.dimensions, 'dimensions').map((d) => asRecord(d, 'dimension').name);
      expect(names).toEqual([...ROUTING_METRIC_ATTRIBUTE_KEYS, RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME]);
    });

    it(`${file}: the file exporter writes rotated OTLP/JSON lines the analyzer reads`, () => {
      const exporter = asRecord(asRecord(configOf(file).exporters, 'exporters')['file/routescope'], 'file');
      expect(exporter.format).toBe('json');
      expect(exporter.compression).toBeUndefined();
      const rotation = asRecord(exporter.rotation, 'rotation');
      expect(rotation.max_megabytes).toBeGreaterThan(0);
      expect(rotation.max_backups).toBeGreaterThan(0);
    });

    it(`${file}: the routing-span filter keeps exactly the routing spans`, () => {
      const filter = asRecord(
        asRecord(configOf(file).processors, 'processors')['filter/routing_spans'],
        'filter',
      );
      const conditions = asArray(asRecord(filter.traces, 'traces').span, 'span') as string[];
      const kept = conditions.flatMap((c) => [...c.matchAll(/name != "([^"]+)"/g)].map((m) => m[1]));
      expect(kept).toContain(SPAN_ROUTING_TIER2);
      expect(kept).toContain(SPAN_ROUTING_FEEDBACK);
    });
  }

  it('tail-sampling.yaml keeps near-ties, unmatched, floorless decisions, misroute marks, and a share of the rest', () => {
    const tail = asRecord(
      asRecord(configOf('tail-sampling.yaml').processors, 'processors').tail_sampling,
      'tail',
    );
    const policies = flattenPolicies(asArray(tail.policies, 'policies'));
    const byType = (type: string) => policies.filter((p) => p.type === type);
    const booleans = byType('boolean_attribute').map((p) =>
      asRecord(p.boolean_attribute, 'boolean_attribute'),
    );
    expect(booleans).toContainEqual({ key: ATTR_ROUTING_NEAR_TIE, value: true });
    expect(booleans).toContainEqual({ key: ATTR_ROUTING_FLOOR_DECLARED, value: false });
    const strings = byType('string_attribute').map((p) => asRecord(p.string_attribute, 'string_attribute'));
    expect(strings).toContainEqual({ key: ATTR_ROUTING_VERDICT, values: ['unmatched'] });
    const ottl = collectStrings(byType('ottl_condition').map((p) => p.ottl_condition));
    expect(ottl).toContain(`spanevent.name == "${EVENT_ROUTING_MISROUTED}"`);
    expect(ottl).toContain(`span.name == "${SPAN_ROUTING_FEEDBACK}"`);
    const share = byType('probabilistic').map(
      (p) => asRecord(p.probabilistic, 'probabilistic').sampling_percentage,
    );
    expect(share.length).toBeGreaterThan(0);
    for (const s of share) expect(s).toBeGreaterThan(0);
    // The policies name only semconv keys (keys inside OTTL strings included).
    for (const n of collectStrings(policies).flatMap(routingNamesIn))
      expect(KNOWN_ROUTING_NAMES).toContain(n);
  });

  it('tail-sampling.yaml stores every feedback span exactly once, whatever the sampler decides for its trace', () => {
    // Late spans inherit their trace's decision while it is in the num_traces buffer (contrib
    // tailsamplingprocessor README, "Late-Arriving Spans"): a late mark in a dropped trace would be lost.
    const config = configOf('tail-sampling.yaml');
    const processors = asRecord(config.processors, 'processors');
    const pipelines = asRecord(asRecord(config.service, 'service').pipelines, 'pipelines');
    /** Whether a filter processor's span conditions drop a span of this name (`span.name ==` / `!=` forms). */
    const drops = (id: string, name: string) =>
      (asArray(asRecord(asRecord(processors[id], id).traces, 'traces').span, 'span') as string[]).some((c) =>
        c.split(' and ').every((clause) => {
          const m = /^span\.name (==|!=) "([^"]+)"$/.exec(clause.trim());
          if (m === null) throw new Error(`${id}: condition not modelled: ${c}`);
          return m[1] === '==' ? name === m[2] : name !== m[2];
        }),
      );
    const storedCopies = (name: string, kept: boolean) =>
      Object.values(pipelines)
        .map((raw) => asRecord(raw, 'pipeline'))
        .filter((p) => (p.exporters as string[]).includes('otlp_grpc/tempo'))
        .filter((p) =>
          (p.processors as string[]).every((id) =>
            id === 'tail_sampling' ? kept : typeOf(id) === 'filter' ? !drops(id, name) : true,
          ),
        ).length;
    for (const kept of [true, false]) {
      expect(storedCopies(SPAN_ROUTING_FEEDBACK, kept), `feedback, trace kept=${kept}`).toBe(1);
      expect(storedCopies(SPAN_ROUTING_TIER2, kept), `tier2, trace kept=${kept}`).toBe(kept ? 1 : 0);
      expect(storedCopies('llm.chat', kept), `other span, trace kept=${kept}`).toBe(kept ? 1 : 0);
    }
    // The sampler itself still sees feedback spans: no filter drops them before it.
    const sampled = Object.values(pipelines)
      .map((raw) => asRecord(raw, 'pipeline'))
      .find((p) => (p.processors as string[]).includes('tail_sampling'))!;
    const before = (sampled.processors as string[]).slice(
      0,
      (sampled.processors as string[]).indexOf('tail_sampling'),
    );
    for (const id of before.filter((x) => typeOf(x) === 'filter'))
      expect(drops(id, SPAN_ROUTING_FEEDBACK)).toBe(false);
  });

  it('scale-out.yaml load-balances by trace id and no sampling or aggregation happens in that tier', () => {
    const config = configOf('scale-out.yaml');
    const lb = asRecord(asRecord(config.exporters, 'exporters').load_balancing, 'load_balancing');
    expect(lb.routing_key).toBe('traceID');
    expect(asRecord(lb.resolver, 'resolver')).toHaveProperty('dns');
    expect(defined(config, 'processors')).not.toContain('tail_sampling');
    expect(defined(config, 'connectors').size).toBe(0);
  });
});

describe('compose stack', () => {
  const composeDir = repoPath('collector-config');
  const compose = asRecord(readRepoYaml('collector-config/compose.yaml'), 'compose.yaml');
  const services = asRecord(compose.services, 'services');
  const mounts = new Map<string, { service: string; source: string; target: string }[]>();
  for (const [name, raw] of Object.entries(services)) {
    const svc = asRecord(raw, `service ${name}`);
    mounts.set(
      name,
      ((svc.volumes ?? []) as string[]).map((v) => {
        const [source = '', target = ''] = v.split(':');
        return { service: name, source, target };
      }),
    );
  }

  it('runs the collector, Tempo, Jaeger, Prometheus and Grafana with pinned images', () => {
    expect(Object.keys(services).sort()).toEqual([
      'alertmanager',
      'grafana',
      'jaeger',
      'otelcol',
      'otelcol-volume-init',
      'prometheus',
      'tempo',
    ]);
    for (const [name, raw] of Object.entries(services)) {
      const image = String(asRecord(raw, name).image);
      expect(image, name).toMatch(/:[^:]+$/);
      expect(image, name).not.toMatch(/:latest$/);
    }
    const collectorImage = String(asRecord(services.otelcol, 'otelcol').image);
    expect(collectorImage).toBe(`otel/opentelemetry-collector-contrib:${components.release}`);
  });

  it("the collector can write the file exporter's folder: an init step hands the volume to the image's user", () => {
    // otel/opentelemetry-collector-contrib is FROM scratch with `USER 10001:10001`
    // (opentelemetry-collector-releases, distributions/otelcol-contrib/Dockerfile); a new named volume is root's.
    const IMAGE_USER = '10001:10001';
    const otel = asRecord(services.otelcol, 'otelcol');
    const env = asRecord(otel.environment ?? {}, 'environment');
    const exporter = asRecord(
      asRecord(configOf('single.yaml').exporters, 'exporters')['file/routescope'],
      'file',
    );
    const filePath = String(exporter.path).replace(
      /\$\{env:(\w+):-([^}]*)\}/g,
      (_m, name: string, fallback: string) => String(env[name] ?? fallback),
    );
    const folder = path.posix.dirname(filePath);
    const volume = (mounts.get('otelcol') ?? []).find((m) => m.target === folder);
    expect(volume, `nothing is mounted at ${folder}`).toBeDefined();
    expect(volume!.source.startsWith('.'), 'a named volume, created empty and root-owned').toBe(false);
    const user = String(otel.user ?? IMAGE_USER);
    expect(user.split(':')[0], 'the collector runs as a non-root user').not.toBe('0');
    const inits = Object.entries(services).filter(([name, raw]) => {
      if (name === 'otelcol') return false;
      const svc = asRecord(raw, name);
      const command = collectStrings(svc.command);
      return (
        (mounts.get(name) ?? []).some((m) => m.source === volume!.source && m.target === folder) &&
        command[0] === 'chown' &&
        command.includes(user) &&
        command.includes(folder) &&
        String(svc.user ?? '0').split(':')[0] === '0'
      );
    });
    expect(inits.map(([name]) => name)).toHaveLength(1);
    const dependsOn = asRecord(otel.depends_on, 'otelcol depends_on');
    expect(asRecord(dependsOn[inits[0]![0]], 'depends_on entry').condition).toBe(
      'service_completed_successfully',
    );
  });

  it('every file it mounts exists in the repository', () => {
    const missing: string[] = [];
    for (const list of mounts.values()) {
      for (const { service, source } of list) {
        if (!source.startsWith('.')) continue; // named volumes
        if (!existsSync(path.resolve(composeDir, source))) missing.push(`${service}: ${source}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('each service is started with the config file it mounts', () => {
    const targetsOf = (service: string) => (mounts.get(service) ?? []).map((m) => m.target);
    for (const service of ['otelcol', 'tempo', 'jaeger', 'prometheus', 'alertmanager']) {
      const command = collectStrings(asRecord(services[service], service).command).join(' ');
      const configPath = /config(?:\.file)?=(\S+)/.exec(command)?.[1];
      expect(configPath, `${service} command`).toBeDefined();
      expect(targetsOf(service)).toContain(configPath);
    }
  });

  it('the stack files it mounts are consistent with each other', () => {
    // The collector it runs passes the same checks as the others (it is single.yaml).
    const otelSources = (mounts.get('otelcol') ?? []).map((m) => m.source);
    expect(otelSources).toContain('./single.yaml');
    // Prometheus loads the rule files compose mounts, and scrapes services that exist.
    const prom = asRecord(readRepoYaml('collector-config/stack/prometheus.yaml'), 'prometheus.yaml');
    const ruleGlob = String(asArray(prom.rule_files, 'rule_files')[0]);
    const ruleTargets = (mounts.get('prometheus') ?? [])
      .map((m) => m.target)
      .filter((t) => t.includes('/rules/'));
    expect(ruleTargets.length).toBe(2);
    for (const t of ruleTargets) expect(path.dirname(t)).toBe(path.dirname(ruleGlob));
    const targets = asArray(prom.scrape_configs, 'scrape_configs').flatMap((sc) =>
      asArray(asRecord(sc, 'scrape').static_configs, 'static_configs').flatMap(
        (s) => asRecord(s, 'static').targets as string[],
      ),
    );
    for (const t of targets) {
      const host = t.split(':')[0] ?? '';
      expect(host === 'host.docker.internal' || host in services, t).toBe(true);
    }
    // Grafana's dashboard provider reads the folder the dashboard is mounted into.
    const provider = asRecord(
      asArray(
        asRecord(readRepoYaml('dashboards/grafana/provisioning/dashboards/routescope.yaml'), 'providers')
          .providers,
        'providers',
      )[0],
      'provider',
    );
    const dashboardMount = (mounts.get('grafana') ?? []).find((m) => m.source.endsWith('routing.json'));
    expect(path.dirname(dashboardMount?.target ?? '')).toBe(asRecord(provider.options, 'options').path);
  });

  it("promtool check config accepts the stack's prometheus.yaml with the rule files it mounts in place", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'routescope-ops-'));
    try {
      const prom = readRepoText('collector-config/stack/prometheus.yaml');
      const ruleMounts = (mounts.get('prometheus') ?? []).filter((m) => m.target.includes('/rules/'));
      const ruleDir = path.dirname(ruleMounts[0]?.target ?? '/missing/');
      mkdirSync(path.join(dir, 'rules'));
      for (const m of ruleMounts) {
        copyFileSync(path.resolve(composeDir, m.source), path.join(dir, 'rules', path.basename(m.target)));
      }
      writeFileSync(path.join(dir, 'prometheus.yaml'), prom.replaceAll(`${ruleDir}/`, 'rules/'));
      const { status, output } = runPromtool(['check', 'config', 'prometheus.yaml'], dir);
      expect(output).toContain(`SUCCESS: ${ruleMounts.length} rule files found`);
      expect(status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exemplars reach Grafana: spanmetrics adds them, the exporter writes OpenMetrics, Prometheus stores them', () => {
    for (const file of ['single.yaml', 'tail-sampling.yaml']) {
      const config = configOf(file);
      const connector = asRecord(asRecord(config.connectors, 'connectors').span_metrics, 'span_metrics');
      expect(asRecord(connector.exemplars, `${file} exemplars`).enabled, file).toBe(true);
      // Exemplars are written only in OpenMetrics (contrib prometheusexporter README, enable_open_metrics).
      const exporter = asRecord(asRecord(config.exporters, 'exporters').prometheus, 'prometheus');
      expect(exporter.enable_open_metrics, file).toBe(true);
    }
    const command = collectStrings(asRecord(services.prometheus, 'prometheus').command);
    expect(command).toContain('--enable-feature=exemplar-storage');
    const datasources = asArray(
      asRecord(readRepoYaml('dashboards/grafana/provisioning/datasources/routescope.yaml'), 'ds').datasources,
      'datasources',
    ).map((d) => asRecord(d, 'datasource'));
    const prom = datasources.find((d) => d.type === 'prometheus')!;
    const tempo = datasources.find((d) => d.type === 'tempo')!;
    const destinations = asArray(asRecord(prom.jsonData, 'jsonData').exemplarTraceIdDestinations, 'dest');
    // The exporter's exemplar label for the trace id is `trace_id` (prometheustranslator.ExemplarTraceIDKey).
    expect(destinations.map((d) => asRecord(d, 'dest'))).toContainEqual({
      name: 'trace_id',
      datasourceUid: tempo.uid,
    });
    const dashboard = JSON.parse(readRepoText('dashboards/grafana/routing.json')) as {
      panels: Array<{ id: number; targets?: Array<{ exemplar?: boolean }> }>;
    };
    expect(dashboard.panels.find((p) => p.id === 1)?.targets?.[0]?.exemplar).toBe(true);
  });

  it("Tempo's tracesToMetrics runs explicit queries over the metrics this stack writes", () => {
    const tempo = asArray(
      asRecord(readRepoYaml('dashboards/grafana/provisioning/datasources/routescope.yaml'), 'ds').datasources,
      'datasources',
    )
      .map((d) => asRecord(d, 'datasource'))
      .find((d) => d.type === 'tempo')!;
    const t2m = asRecord(asRecord(tempo.jsonData, 'jsonData').tracesToMetrics, 'tracesToMetrics');
    const tags = asArray(t2m.tags, 'tags').map((t) => asRecord(t, 'tag'));
    for (const t of tags) expect(ALLOWED_LABELS).toContain(String(t.value));
    const queries = asArray(t2m.queries, 'queries').map((q) => String(asRecord(q, 'query').query));
    expect(queries.length).toBeGreaterThan(0);
    const tagMatchers = tags.map((t) => `${String(t.value)}="support"`).join(', ');
    for (const q of queries) {
      expect(q).toContain('$__tags');
      const facts = analyzePromql(q.replaceAll('$__tags', tagMatchers));
      expect(facts.errors, q).toEqual([]);
      for (const m of facts.metricNames) expect(PROMETHEUS_SERIES_NAMES, q).toContain(m);
      for (const l of facts.labelNames) expect(ALLOWED_LABELS, q).toContain(l);
    }
  });

  it("the stack's Alertmanager receives Prometheus' alerts, and amtool accepts its config", () => {
    const prom = asRecord(readRepoYaml('collector-config/stack/prometheus.yaml'), 'prometheus.yaml');
    const managers = asArray(asRecord(prom.alerting, 'alerting').alertmanagers, 'alertmanagers');
    const targets = managers.flatMap((m) =>
      asArray(asRecord(m, 'am').static_configs, 'static_configs').flatMap(
        (s) => asRecord(s, 'static').targets as string[],
      ),
    );
    expect(targets).toEqual(['alertmanager:9093']);
    expect(Object.keys(services)).toContain('alertmanager');
    const found = spawnSync('amtool', ['--version'], { encoding: 'utf8' });
    if (found.error || found.status !== 0) {
      throw new Error(
        'amtool not found on PATH: install the Debian package `prometheus-alertmanager` (bash test/setup/install-tools.sh)',
      );
    }
    const check = spawnSync('amtool', ['check-config', 'stack/alertmanager.yaml'], {
      cwd: composeDir,
      encoding: 'utf8',
    });
    expect(`${check.stdout}${check.stderr}`).toContain('SUCCESS');
    expect(check.status).toBe(0);
  });

  it('jaeger.yaml wires only components it defines and reads SPM metrics from the Prometheus service', () => {
    const jaeger = asRecord(readRepoYaml('collector-config/stack/jaeger.yaml'), 'jaeger.yaml');
    expect(wiringProblems(jaeger, 'jaeger.yaml')).toEqual([]);
    const storage = asRecord(asRecord(jaeger.extensions, 'extensions').jaeger_storage, 'jaeger_storage');
    const metricBackends = Object.values(asRecord(storage.metric_backends, 'metric_backends'));
    const endpoint = String(
      asRecord(asRecord(metricBackends[0], 'backend').prometheus, 'prometheus').endpoint,
    );
    expect(new URL(endpoint).hostname).toBe('prometheus');
  });

  it('tempo.yaml turns on the local-blocks processor the TraceQL metrics panels need', () => {
    const tempo = asRecord(readRepoYaml('collector-config/stack/tempo.yaml'), 'tempo.yaml');
    const defaults = asRecord(asRecord(tempo.overrides, 'overrides').defaults, 'defaults');
    expect(asRecord(defaults.metrics_generator, 'metrics_generator').processors).toContain('local-blocks');
  });

  it('tempo.yaml keeps the INTERNAL child spans in local blocks (filter_server_spans: false)', async () => {
    // Tempo 2.8 local-blocks keeps, by default, only a span that is SERVER-kind or a root
    // (localblocks/processor.go filterBatches). The spans the panels count are INTERNAL children.
    const keptByTempoDefault = (s: ReadableSpan) =>
      s.kind === SpanKind.SERVER || s.parentSpanContext === undefined;
    const sdk = createMemorySdk();
    try {
      const decide = instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider, routerName: 'r' });
      decide([{ id: 'a', score: 0.5 }], undefined, { nearTieMargin: 0.1, menuSize: 3 });
      markMisrouted(
        { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' },
        { expected: 'billing' },
        { tracerProvider: sdk.provider },
      );
      const spans = sdk.spans();
      expect(spans.map((s) => s.name).sort()).toEqual([SPAN_ROUTING_FEEDBACK, SPAN_ROUTING_TIER2]);
      for (const s of spans) expect(s.kind, s.name).toBe(SpanKind.INTERNAL);
      const feedback = spans.find((s) => s.name === SPAN_ROUTING_FEEDBACK)!;
      expect(keptByTempoDefault(feedback)).toBe(false);
    } finally {
      await sdk.shutdown();
    }
    const tempo = asRecord(readRepoYaml('collector-config/stack/tempo.yaml'), 'tempo.yaml');
    const generator = asRecord(tempo.metrics_generator, 'metrics_generator');
    const localBlocks = asRecord(asRecord(generator.processor, 'processor').local_blocks, 'local_blocks');
    expect(localBlocks.filter_server_spans).toBe(false);
  });
});
