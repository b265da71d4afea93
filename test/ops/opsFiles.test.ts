/**
 * Every file of the ops kit: each YAML and JSON file parses, and every routing name or Prometheus routing name
 * written anywhere in it (docs and comments included) is one the key modules define.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  KNOWN_ROUTING_NAMES,
  ROUTING_METRIC_LABELS,
  readRepoText,
  repoPath,
  routingNamesIn,
} from './opsQueries.js';
import { PROMETHEUS_SERIES_NAMES } from '../../src/semconv/metricNames.js';

/** Repo-relative paths of every file under the given folders. */
function filesUnder(...folders: string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(repoPath(rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  for (const f of folders) walk(f);
  return out.sort();
}

const OPS_FILES = [...filesUnder('collector-config', 'dashboards'), 'docs/operations.md'];
const PROM_ROUTING_TOKEN = /\bagentfootprint_routing_[a-z0-9_]+/g;

/** Problems with one YAML text: every document's parse errors, with line numbers. */
function yamlProblems(text: string): string[] {
  return parseAllDocuments(text, { prettyErrors: true }).flatMap((doc) =>
    'errors' in doc ? doc.errors.map((e) => e.message) : [],
  );
}

describe('ops kit files', () => {
  it('holds the files the ops kit promises', () => {
    for (const f of [
      'collector-config/single.yaml',
      'collector-config/tail-sampling.yaml',
      'collector-config/scale-out.yaml',
      'collector-config/compose.yaml',
      'collector-config/README.md',
      'collector-config/components.json',
      'dashboards/grafana/routing.json',
      'dashboards/jaeger/README.md',
    ]) {
      expect(OPS_FILES).toContain(f);
    }
    for (const sub of ['datasources', 'dashboards', 'alerting']) {
      expect(
        OPS_FILES.some((f) => f.startsWith(`dashboards/grafana/provisioning/${sub}/`)),
        sub,
      ).toBe(true);
    }
  });

  for (const file of OPS_FILES.filter((f) => /\.ya?ml$/.test(f))) {
    it(`${file} parses as YAML`, () => {
      expect(yamlProblems(readRepoText(file))).toEqual([]);
    });
  }

  it('the YAML check reports a broken file', () => {
    expect(yamlProblems('a: [1, 2\nb: 3\n').length).toBeGreaterThan(0);
  });

  for (const file of OPS_FILES.filter((f) => f.endsWith('.json'))) {
    it(`${file} parses as JSON`, () => {
      expect(() => JSON.parse(readRepoText(file))).not.toThrow();
    });
  }

  it('every agentfootprint.routing.* name in any ops file is a semconv key, span, event or metric name', () => {
    const unknown = OPS_FILES.flatMap((file) =>
      routingNamesIn(readRepoText(file))
        .filter((n) => !KNOWN_ROUTING_NAMES.has(n))
        .map((n) => `${file}: ${n}`),
    );
    expect(unknown).toEqual([]);
  });

  it('every agentfootprint_routing_* Prometheus name in any ops file is a routing label or a series of metricNames.ts', () => {
    const known = new Set<string>([...ROUTING_METRIC_LABELS, ...PROMETHEUS_SERIES_NAMES]);
    const unknown = OPS_FILES.flatMap((file) =>
      [...readRepoText(file).matchAll(PROM_ROUTING_TOKEN)]
        .map((m) => m[0])
        .filter((n) => !known.has(n))
        .map((n) => `${file}: ${n}`),
    );
    expect(unknown).toEqual([]);
  });
});
