/**
 * The near-tie panels' data links: each opens Grafana Explore on the provisioned Tempo datasource with a TraceQL
 * query for the near-tie tier-2 spans of the panel's routers, over the panel's time range.
 *
 * A link is a template Grafana fills when it is clicked, so each link is filled here the way Grafana fills a data
 * link (fillDataLink, a model of the formats it uses), read back the way Explore reads its URL (readExploreUrl),
 * and its TraceQL parsed with the real grammar. The Grafana facts the model rests on are in docs/operations.md
 * ("From a near-tie panel to its spans").
 */
import { describe, expect, it } from 'vitest';
import { parser as traceqlParser } from '@grafana/lezer-traceql';
import {
  analyzeTraceql,
  asArray,
  asRecord,
  checkTraceqlNames,
  readRepoText,
  readRepoYaml,
} from './opsQueries.js';
import {
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  SPAN_ROUTING_TIER2,
} from '../../src/semconv/semconv.js';
import { PROM_LABEL_ROUTER, PROM_LABEL_SCORER } from '../../src/semconv/metricNames.js';

interface DataLink {
  title: string;
  url: string;
  targetBlank?: boolean;
}
interface Panel {
  id: number;
  title: string;
  type: string;
  fieldConfig?: { defaults?: { links?: DataLink[] } };
  targets?: Array<{ expr?: string; query?: string }>;
}
interface Variable {
  name: string;
  type: string;
  query: unknown;
  allValue?: string;
}

const dashboard = JSON.parse(readRepoText('dashboards/grafana/routing.json')) as {
  panels: Panel[];
  templating: { list: Variable[] };
};
const provisioned = asArray(
  asRecord(readRepoYaml('dashboards/grafana/provisioning/datasources/routescope.yaml'), 'datasources')
    .datasources,
  'datasources',
).map((d) => asRecord(d, 'datasource') as { name: string; type: string; uid: string });

/** The panels that chart near-ties, each of which must lead to the near-tie spans behind it. */
const NEAR_TIE_PANELS = [
  'Near-tie rate per router',
  'Near-tie rate by scorer',
  'Most-tied skill pairs (TraceQL metrics)',
] as const;

/** A variable's value as Grafana holds it: one value, several, or "All" with a custom all value. */
type VariableValue = string | readonly string[] | { readonly all: string };

/** What a click supplies: dashboard variables, the clicked series' labels and the panel's time range (epoch ms). */
interface ClickScope {
  readonly variables: Readonly<Record<string, VariableValue>>;
  readonly fieldLabels: Readonly<Record<string, string>>;
  readonly fromMs: number;
  readonly toMs: number;
}

/** encodeURIComponent / encodeURI with the sub-delims !'()* escaped too, as Grafana's strict encoders do. */
function encodeStrict(encode: (s: string) => string, value: string): string {
  return encode(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** One value through one of Grafana's variable formats; formats the model does not know are refused. */
function formatValue(value: VariableValue, format: string): string {
  if (typeof value === 'object' && 'all' in value) {
    // A custom all value skips formatting, except under percentencode.
    return format === 'percentencode' ? encodeStrict(encodeURIComponent, value.all) : value.all;
  }
  const list = typeof value === 'string' ? null : value;
  switch (format) {
    case 'uriencode':
      return encodeStrict(encodeURI, list ? `{${list.join(',')}}` : (value as string));
    case 'percentencode':
      return encodeStrict(encodeURIComponent, list ? `{${list.join(',')}}` : (value as string));
    case 'pipe':
      return list ? list.join('|') : (value as string);
    default:
      throw new Error(`format ${format} is not modelled here: add it from Grafana's format registry first`);
  }
}

const VARIABLE_REFERENCE = /\$\{(\w+)((?:\.\w+)*)(?::(\w+))?\}|\$(\w+)/g;

/**
 * A data link's URL as Grafana fills it: every variable in the default format of data link URLs (uriencode)
 * unless the reference names its own; `__from`/`__to` are epoch milliseconds; `__field.labels.x` is a label of
 * the clicked series. A reference the scope cannot answer fails the test instead of staying in the URL.
 */
function fillDataLink(url: string, scope: ClickScope): string {
  return url.replace(
    VARIABLE_REFERENCE,
    (match, braced?: string, path?: string, format?: string, bare?: string) => {
      const name = braced ?? bare!;
      const fmt = format ?? 'uriencode';
      if (name === '__from' || name === '__to') return String(name === '__from' ? scope.fromMs : scope.toMs);
      if (name === '__field') {
        const label = /^\.labels\.(\w+)$/.exec(path ?? '')?.[1];
        const value = label === undefined ? undefined : scope.fieldLabels[label];
        if (value === undefined) throw new Error(`${match}: no such label on the clicked series`);
        return formatValue(value, fmt);
      }
      const value = scope.variables[name];
      if (value === undefined || path) throw new Error(`${match}: not a variable of the dashboard`);
      return formatValue(value, fmt);
    },
  );
}

/** What Explore reads from its URL (schema version 1: a `panes` JSON object of pane id → pane state). */
interface ExplorePane {
  datasource: unknown;
  queries: Array<{
    refId?: unknown;
    datasource?: { type?: unknown; uid?: unknown };
    queryType?: unknown;
    query?: unknown;
  }>;
  range: { from: unknown; to: unknown };
}

/** A filled link read as Explore reads it, or thrown errors saying what Explore would not accept. */
function readExploreUrl(href: string): { paneId: string; pane: ExplorePane } {
  const url = new URL(href, 'http://grafana.invalid');
  if (url.pathname !== '/explore') throw new Error(`not an Explore link: ${url.pathname}`);
  const params = [...url.searchParams.keys()].sort();
  // A stray & or # in the literal text would cut the panes JSON short and show up here as a parameter.
  if (params.join(',') !== 'panes,schemaVersion' || url.hash !== '') {
    throw new Error(`expected exactly schemaVersion and panes, got ${params.join(',')}${url.hash}`);
  }
  if (url.searchParams.get('schemaVersion') !== '1') throw new Error('schemaVersion must be 1 for panes');
  // URLSearchParams reads '+' as a space, Grafana's own parser may not: a link must not depend on which.
  if (url.search.includes('+'))
    throw new Error('a literal + in the URL reads differently in different parsers');
  const panes = asRecord(JSON.parse(url.searchParams.get('panes')!) as unknown, 'panes');
  const entries = Object.entries(panes);
  if (entries.length !== 1) throw new Error(`expected one pane, got ${entries.length}`);
  const [paneId, pane] = entries[0]!;
  return { paneId, pane: asRecord(pane, `pane ${paneId}`) as unknown as ExplorePane };
}

/** One comparison of a TraceQL spanset filter: `name = "…"`, `span.x =~ "…"`, `span.y = true`. */
interface Comparison {
  readonly field: string;
  readonly op: string;
  /** String literals unquoted; other values as written. */
  readonly value: string;
}

/** The comparisons of a TraceQL query, and whether anything but `&&` joins them. */
function readComparisons(query: string): { comparisons: Comparison[]; onlyAnd: boolean } {
  const comparisons: Comparison[] = [];
  let onlyAnd = true;
  traceqlParser.parse(query).iterate({
    enter(ref) {
      if (ref.name === 'Or' || ref.name === 'Not') onlyAnd = false;
      if (ref.name !== 'FieldExpression') return;
      const op = ref.node.getChild('FieldOp');
      const sides = ref.node.getChildren('FieldExpression');
      if (!op || sides.length !== 2) return;
      const right = sides[1]!.getChild('Static');
      const literal = right?.getChild('String');
      comparisons.push({
        field: query.slice(sides[0]!.from, sides[0]!.to),
        op: query.slice(op.from, op.to),
        value: literal
          ? (JSON.parse(query.slice(literal.from, literal.to)) as string)
          : query.slice(sides[1]!.from, sides[1]!.to),
      });
    },
  });
  return { comparisons, onlyAnd };
}

const tempoVariable = dashboard.templating.list.find((v) => v.name === 'ds_tempo')!;
const routerVariable = dashboard.templating.list.find((v) => v.name === 'router')!;

/** The uid `${ds_tempo}` takes in the stack: the one provisioned datasource of the variable's type. */
function resolveTempoUid(): string {
  const candidates = provisioned.filter((d) => d.type === tempoVariable.query);
  expect(candidates.map((d) => d.name)).toEqual(['Tempo']);
  return candidates[0]!.uid;
}

const CLICKED_ROUTER = 'support-desk';
const CLICKED_SCORER = 'embedding.v2';
/** Router selections to fill every link with: the dashboard's default (All), one router, several. */
const SELECTIONS: ReadonlyArray<{ label: string; value: VariableValue; expected: string }> = [
  { label: 'All', value: { all: routerVariable.allValue! }, expected: routerVariable.allValue! },
  { label: 'one router', value: [CLICKED_ROUTER], expected: CLICKED_ROUTER },
  { label: 'two routers', value: [CLICKED_ROUTER, 'billing.v2'], expected: `${CLICKED_ROUTER}|billing.v2` },
];
const FROM_MS = 1_767_225_600_000;
const TO_MS = 1_767_247_200_000;

/** Problems with one link filled for one selection; empty when Explore would open the near-tie spans. */
function checkLink(
  panel: Panel,
  link: DataLink,
  selection: (typeof SELECTIONS)[number],
  tempoUid: string,
): string[] {
  const problems: string[] = [];
  const scope: ClickScope = {
    variables: { ds_tempo: tempoUid, router: selection.value },
    fieldLabels: { [PROM_LABEL_ROUTER]: CLICKED_ROUTER, [PROM_LABEL_SCORER]: CLICKED_SCORER },
    fromMs: FROM_MS,
    toMs: TO_MS,
  };
  const { paneId, pane } = readExploreUrl(fillDataLink(link.url, scope));
  // Explore keeps a pane id of three characters of [0-9a-z] with a letter, and replaces any other.
  if (!/^(?=.*[a-z])[0-9a-z]{3}$/.test(paneId)) problems.push(`pane id ${paneId} would be replaced`);
  if (pane.datasource !== tempoUid)
    problems.push(`pane datasource ${String(pane.datasource)}, not ${tempoUid}`);
  // Explore takes the range as strings; a string of digits is epoch milliseconds.
  if (pane.range?.from !== String(FROM_MS) || pane.range?.to !== String(TO_MS)) {
    problems.push(`range ${JSON.stringify(pane.range)} is not the panel's time range`);
  }
  if (!Array.isArray(pane.queries) || pane.queries.length !== 1) return [...problems, 'expected one query'];
  const query = pane.queries[0]!;
  // Explore drops a query whose datasource is not the pane's.
  if (query.datasource?.type !== 'tempo' || query.datasource.uid !== tempoUid) {
    problems.push(`query datasource ${JSON.stringify(query.datasource)}`);
  }
  if (query.queryType !== 'traceql' || typeof query.query !== 'string')
    return [...problems, 'not a TraceQL query'];
  const facts = analyzeTraceql(query.query);
  problems.push(...facts.errors, ...checkTraceqlNames(facts));
  const { comparisons, onlyAnd } = readComparisons(query.query);
  if (!onlyAnd) problems.push('filters must all hold (only &&)');
  const has = (field: string, op: string, value: string) =>
    comparisons.some((c) => c.field === field && c.op === op && c.value === value);
  if (!has('name', '=', SPAN_ROUTING_TIER2)) problems.push(`does not select ${SPAN_ROUTING_TIER2} spans`);
  if (!has(`span.${ATTR_ROUTING_NEAR_TIE}`, '=', 'true')) problems.push('does not select near-ties');
  const routerFilters = comparisons.filter((c) => c.field === `span.${ATTR_ROUTING_ROUTER}`);
  const bySeries = seriesCarryRouter(panel);
  const expected = bySeries
    ? { op: '=', value: CLICKED_ROUTER, of: 'the clicked series' }
    : { op: '=~', value: selection.expected, of: '$router' };
  if (
    routerFilters.length !== 1 ||
    routerFilters[0]!.op !== expected.op ||
    routerFilters[0]!.value !== expected.value
  ) {
    problems.push(`router filter ${JSON.stringify(routerFilters)} is not ${expected.of}: ${expected.value}`);
  }
  if (
    panel.title === 'Near-tie rate by scorer' &&
    !has(`span.${ATTR_ROUTING_SCORER_NAME}`, '=', CLICKED_SCORER)
  ) {
    problems.push('does not select the clicked scorer');
  }
  return problems;
}

/**
 * Whether each series of a panel is one router of `$router`: every query filters routers by `$router` and sums by
 * the router label. Then the clicked series' router is the precise filter (and still one of `$router`).
 */
function seriesCarryRouter(panel: Panel): boolean {
  const exprs = (panel.targets ?? []).map((t) => t.expr ?? '');
  return (
    exprs.length > 0 &&
    exprs.every(
      (e) => e.includes(`${PROM_LABEL_ROUTER}=~"$router"`) && e.includes(`sum by (${PROM_LABEL_ROUTER})`),
    )
  );
}

describe('near-tie data links (dashboards/grafana/routing.json)', () => {
  const tempoUid = resolveTempoUid();
  const byTitle = (t: string) => dashboard.panels.find((p) => p.title === t);

  it('every near-tie panel has one data link, opening in a new tab', () => {
    for (const title of NEAR_TIE_PANELS) {
      const panel = byTitle(title);
      expect(panel, title).toBeDefined();
      const links = panel!.fieldConfig?.defaults?.links ?? [];
      expect(links.length, `${title}: data links`).toBe(1);
      expect(links[0]!.title.length).toBeGreaterThan(0);
      expect(links[0]!.targetBlank).toBe(true);
      const queries = panel!.targets?.map((t) => t.expr ?? t.query ?? '') ?? [];
      expect(queries.join('\n'), title).toMatch(/near_tie(="true"| = true)/);
    }
  });

  it('each opens Explore on the provisioned Tempo with the near-tie spans of $router over the panel range', () => {
    expect(tempoUid).toBe('routescope-tempo');
    const problems: string[] = [];
    const checked = new Set<string>();
    for (const panel of dashboard.panels) {
      for (const link of panel.fieldConfig?.defaults?.links ?? []) {
        checked.add(panel.title);
        for (const selection of SELECTIONS) {
          const where = `panel ${panel.id} "${panel.title}", router ${selection.label}`;
          try {
            problems.push(...checkLink(panel, link, selection, tempoUid).map((p) => `${where}: ${p}`));
          } catch (err) {
            problems.push(`${where}: ${(err as Error).message}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    for (const title of NEAR_TIE_PANELS)
      expect(checked.has(title), `${title} has no link to check`).toBe(true);
    expect(NEAR_TIE_PANELS.filter((t) => seriesCarryRouter(byTitle(t)!))).toEqual([
      'Near-tie rate per router',
    ]);
  });

  it('the checks catch a raw &&, a misspelt key, a glob-formatted $router and a hard-coded range', () => {
    const panel = byTitle('Most-tied skill pairs (TraceQL metrics)')!;
    const good = panel.fieldConfig!.defaults!.links![0]!;
    const selection = SELECTIONS[2]!;
    const variant = (url: string) => {
      try {
        return checkLink(panel, { ...good, url }, selection, tempoUid).join('; ');
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(variant(good.url)).toBe('');
    expect(variant(good.url.replace('%26%26', '&&'))).toMatch(/expected exactly schemaVersion and panes/);
    expect(variant(good.url.replace('near_tie', 'neartie'))).toMatch(/neartie is not a key/);
    expect(variant(good.url.replace('${router:pipe}', '${router}'))).toMatch(
      /router filter .* is not \$router/,
    );
    expect(variant(good.url.replace('${__from}', 'now-6h'))).toMatch(/is not the panel's time range/);
    expect(variant(good.url.replace('${ds_tempo}', 'tempo'))).toMatch(/pane datasource tempo/);
    expect(variant(good.url.replace('${router:pipe}', '${router:regex}'))).toMatch(
      /format regex is not modelled/,
    );
  });
});
