/**
 * opsQueries — test helpers that read the ops kit's files and take its PromQL and TraceQL apart with the real
 * parsers (@prometheus-io/lezer-promql, @grafana/lezer-traceql), so the tests can check every query parses and
 * names only metrics, labels, attributes and span names that the key modules define.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { parser as promqlParser } from '@prometheus-io/lezer-promql';
import { parser as traceqlParser } from '@grafana/lezer-traceql';
import type { SyntaxNode } from '@lezer/common';
import {
  CORRELATION_ATTRIBUTE_KEYS,
  ROUTING_ATTRIBUTE_KEYS,
  ROUTING_SPAN_AND_EVENT_NAMES,
} from '../../src/semconv/semconv.js';
import {
  METRIC_ROUTING_DECISIONS,
  METRIC_ROUTING_GAP,
  PROMETHEUS_EXTRA_LABELS,
  RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME,
  ROUTING_METRIC_ATTRIBUTE_KEYS,
  toPrometheusName,
} from '../../src/semconv/metricNames.js';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A repo-relative path made absolute. */
export function repoPath(...parts: string[]): string {
  return path.join(REPO_ROOT, ...parts);
}

/** Text of a repo file. */
export function readRepoText(relative: string): string {
  return readFileSync(repoPath(relative), 'utf8');
}

/** A repo YAML file, parsed with the `yaml` package (throws with the file name on a syntax error). */
export function readRepoYaml(relative: string): unknown {
  try {
    return parseYaml(readRepoText(relative), { prettyErrors: true });
  } catch (err) {
    throw new Error(`${relative}: ${(err as Error).message}`);
  }
}

/** Narrow to a plain object, or fail saying where. */
export function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${where}: expected a mapping, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}

/** Narrow to an array, or fail saying where. */
export function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${where}: expected a list, got ${JSON.stringify(value)}`);
  return value;
}

/** Every string anywhere inside a parsed document. */
export function collectStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      collectStrings(v, out);
    }
  }
  return out;
}

const ROUTING_NAME = /agentfootprint\.routing\.[a-z0-9_.]*[a-z0-9_]/g;

/** Every `agentfootprint.routing.*` name mentioned in a text (comments included). */
export function routingNamesIn(text: string): string[] {
  return [...text.matchAll(ROUTING_NAME)].map((m) => m[0]);
}

/** Routing keys, span and event names (semconv.ts) and metric names (metricNames.ts) the key modules define. */
export const KNOWN_ROUTING_NAMES: ReadonlySet<string> = new Set<string>([
  ...ROUTING_ATTRIBUTE_KEYS,
  ...ROUTING_SPAN_AND_EVENT_NAMES,
  METRIC_ROUTING_DECISIONS,
  METRIC_ROUTING_GAP,
]);

/** Prometheus labels of the routing metric attributes (the only routing labels a series can carry). */
export const ROUTING_METRIC_LABELS: ReadonlySet<string> = new Set(
  ROUTING_METRIC_ATTRIBUTE_KEYS.map(toPrometheusName),
);

/** Series Prometheus writes itself that the pipeline alerts read (`up`: 1 when a target's last scrape worked). */
export const PROMETHEUS_OWN_SERIES: readonly string[] = ['up'];

/** Every label a rule or dashboard may use. */
export const ALLOWED_LABELS: ReadonlySet<string> = new Set<string>([
  ...ROUTING_METRIC_LABELS,
  ...PROMETHEUS_EXTRA_LABELS,
  '__name__',
]);

/** What one PromQL expression names. */
export interface PromqlFacts {
  readonly errors: string[];
  readonly metricNames: string[];
  readonly labelNames: string[];
  /** Values of `__name__` matchers, unquoted. */
  readonly nameMatcherValues: string[];
}

/** Grafana's range variables stand for durations; anything else left unquoted is a parse error on purpose. */
export function substituteGrafanaVariables(expr: string): string {
  return expr.replace(/\$__rate_interval|\$__range|\$__interval/g, '5m');
}

function describeError(src: string, node: SyntaxNode): string {
  const line = src.slice(0, node.from).split('\n').length;
  return `syntax error at offset ${node.from} (line ${line}) near ${JSON.stringify(src.slice(Math.max(0, node.from - 20), node.from + 20))}`;
}

/** Parse PromQL with the real grammar and list its error nodes, metric names and label names. */
export function analyzePromql(expr: string): PromqlFacts {
  const src = substituteGrafanaVariables(expr);
  const tree = promqlParser.parse(src);
  const errors: string[] = [];
  const metricNames: string[] = [];
  const labelNames: string[] = [];
  const nameMatcherValues: string[] = [];
  tree.iterate({
    enter(ref) {
      const node = ref.node;
      if (ref.type.isError) errors.push(describeError(src, node));
      else if (ref.name === 'Identifier' && node.parent?.name === 'VectorSelector') {
        metricNames.push(src.slice(ref.from, ref.to));
      } else if (ref.name === 'LabelName') {
        const label = src.slice(ref.from, ref.to);
        labelNames.push(label);
        if (label === '__name__') {
          const value = node.parent?.getChild('StringLiteral');
          if (value) nameMatcherValues.push(JSON.parse(src.slice(value.from, value.to)) as string);
        }
      }
    },
  });
  return { errors, metricNames, labelNames, nameMatcherValues };
}

/** What one TraceQL query names. */
export interface TraceqlFacts {
  readonly errors: string[];
  /** `span.x`, `resource.x`, `event.x` … as scope and name. */
  readonly attributes: Array<{ scope: string; name: string }>;
  /** String literals, unquoted. */
  readonly strings: string[];
}

/** Parse TraceQL with the real grammar and list its error nodes, attributes and string literals. */
export function analyzeTraceql(query: string): TraceqlFacts {
  const tree = traceqlParser.parse(query);
  const errors: string[] = [];
  const attributes: Array<{ scope: string; name: string }> = [];
  const strings: string[] = [];
  tree.iterate({
    enter(ref) {
      const node = ref.node;
      if (ref.type.isError) errors.push(describeError(query, node));
      else if (ref.name === 'AttributeField') {
        const ident = node.getChild('Identifier');
        const scopeNode = node.firstChild;
        if (ident && scopeNode && scopeNode !== ident) {
          attributes.push({
            scope: query.slice(scopeNode.from, scopeNode.to),
            name: query.slice(ident.from, ident.to),
          });
        } else {
          errors.push(`attribute without a scope: ${query.slice(ref.from, ref.to)}`);
        }
      } else if (ref.name === 'String') {
        strings.push(JSON.parse(query.slice(ref.from, ref.to)) as string);
      }
    },
  });
  return { errors, attributes, strings };
}

/** Problems with the names a TraceQL query uses: unknown attributes, scopes or routing span/event names. */
export function checkTraceqlNames(facts: TraceqlFacts): string[] {
  const problems: string[] = [];
  const attributeKeys = new Set<string>([...ROUTING_ATTRIBUTE_KEYS, ...CORRELATION_ATTRIBUTE_KEYS]);
  const resourceKeys = new Set<string>([...CORRELATION_ATTRIBUTE_KEYS, RESOURCE_DEPLOYMENT_ENVIRONMENT_NAME]);
  const spanAndEventNames = new Set<string>(ROUTING_SPAN_AND_EVENT_NAMES);
  for (const { scope, name } of facts.attributes) {
    if (scope === 'span' || scope === 'event') {
      if (!attributeKeys.has(name)) {
        problems.push(`${scope}.${name} is not a key of src/semconv/semconv.ts`);
      }
    } else if (scope === 'resource') {
      if (!resourceKeys.has(name)) problems.push(`resource.${name} is not a resource key routescope knows`);
    } else {
      problems.push(`unexpected attribute scope ${scope}.${name}`);
    }
  }
  for (const s of facts.strings) {
    for (const n of routingNamesIn(s)) {
      if (!spanAndEventNames.has(n)) problems.push(`"${n}" is not a span or event name of semconv.ts`);
    }
  }
  return problems;
}

/** The promtool binary, or a thrown error that says how to get it (CI installs it; a missing tool is a failure). */
export function requirePromtool(): string {
  const found = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(
      'promtool not found on PATH: the alert-rule tests run the real promtool. Install the Debian package ' +
        '`prometheus` (bash test/setup/install-tools.sh) and run the tests again.',
    );
  }
  return 'promtool';
}

/** Run promtool with arguments in a folder; returns exit status and combined output. */
export function runPromtool(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(requirePromtool(), args, { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}
