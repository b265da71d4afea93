/**
 * presentExplain — the post-mortem of one trace or conversation as JSON and as a report document.
 *
 * Each decision shows its ranked table (raw score and share), gap against margin, the floor, the verdict and
 * its sentence, the counterfactuals and the replay check; turn routes and misroute marks sit in the same
 * timeline. The page adds the key figures, each decision's ranked bars with the floor and the near-tie zone
 * (decisionChart), and links to open each trace. Pure.
 */
import type { Counterfactual, CounterfactualSet } from '../analyze/findCounterfactuals.js';
import type { ExplainedDecision, ExplainEntry, ExplainReport } from '../analyze/explainDecisions.js';
import { recordedFloorSource } from '../analyze/floorSources.js';
import type { VerdictSummary } from '../analyze/replayDecision.js';
import type { MisrouteMark } from '../record/types.js';
import type { TraceLinks } from './traceLinks.js';
import { barKeyBlocks, decisionChartBlock, MAX_EXPLAIN_DECISIONS, traceLinkBlocks } from './decisionChart.js';
import { tone, type Block, type Inline, type Legend, type ReportDocument, type Span } from './document.js';
import { describeFloorSource } from './floorSourceText.js';
import { explainIdBlocks } from './explainIdBlocks.js';
import { traceIdInline } from './traceIdText.js';
import {
  countOf,
  formatCount,
  formatName,
  formatPercent,
  formatScore,
  formatSetting,
  formatTime,
} from './formatValues.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';

/** What `routescope explain` prints. */
export interface ExplainView {
  readonly report: ExplainReport;
  /** Links per trace id, when `--jaeger-url` / `--grafana-url` were given. */
  readonly links: Readonly<Record<string, TraceLinks>>;
  /** What was read; absent for a report built from records in memory. */
  readonly input?: InputSummary;
  /** Where a page links a trace or conversation id (serve: its explain pages); ids are text without it. */
  readonly idHref?: (kind: 'trace' | 'conversation', id: string) => string;
}

/** The JSON document of `routescope explain`. */
export function explainToJson(v: ExplainView, schemaVersion: number): Record<string, unknown> {
  const r = v.report;
  return {
    schemaVersion,
    command: 'explain',
    target: r.target,
    matchedBy: r.matchedBy,
    traceIds: r.traceIds,
    syntheticTraceIds: r.syntheticTraceIds,
    conversationIds: r.conversationIds,
    decisions: r.decisions,
    links: v.links,
    entries: r.entries.map(entryToJson),
    truncated: r.truncated,
    ...(v.input ? { input: inputToJson(v.input) } : {}),
  };
}

function entryToJson(e: ExplainEntry): Record<string, unknown> {
  const { kind: _kind, ...record } = e.record;
  if (e.kind !== 'decision') return { kind: e.kind, ...record };
  return {
    kind: 'decision',
    ...record,
    floorSource: recordedFloorSource(e.record) ?? null,
    judgedAs: e.semantics,
    why: e.why,
    replay: e.replay,
    anomalies: e.anomalies,
    counterfactuals: e.counterfactuals,
  };
}

/** The document of `routescope explain`. */
export function explainToDocument(v: ExplainView): ReportDocument {
  const r = v.report;
  const blocks: Block[] = [{ kind: 'title', text: `routescope explain ${r.target}` }];
  if (r.records === 0) {
    blocks.push({
      kind: 'paragraph',
      text: tone(`No routing record has trace id or conversation id ${r.target}.`, 'warn'),
    });
    if (v.input !== undefined) blocks.push(...inputBlocks(v.input));
    return blocks;
  }
  const what = r.matchedBy.map((m) => (m === 'trace' ? 'trace id' : 'conversation id')).join(' and ');
  const { turns, marks } = r;
  const found = [
    countOf(r.decisions, 'routing decision'),
    ...(turns > 0 ? [countOf(turns, 'turn route')] : []),
    ...(marks > 0 ? [countOf(marks, 'misroute mark')] : []),
  ];
  const listed = found.length > 1 ? `${found.slice(0, -1).join(', ')} and ${found.at(-1)!}` : found[0]!;
  const made = r.syntheticTraceIds.length;
  blocks.push({
    kind: 'paragraph',
    text: [
      `${listed} matched by ${what}, in time order, in ${countOf(r.traceIds.length, 'trace')}.`,
      ...(made === 0
        ? []
        : [
            tone(
              ` ${formatCount(made)} of those trace ids ${made === 1 ? 'is' : 'are'} synthetic (marked so): made up for event-log records, which carry none; explain takes them, no trace store holds them.`,
              'dim',
            ),
          ]),
    ],
  });
  // Marks arrive as events on the decision span or as feedback spans; count both.
  const misroutes = r.entries.reduce(
    (k, e) => k + (e.kind === 'misroute' ? 1 : e.kind === 'decision' ? e.record.misroutes.length : 0),
    0,
  );
  blocks.push({
    kind: 'figures',
    only: 'html',
    items: [
      { label: 'decisions', value: formatCount(r.decisions) },
      { label: 'traces', value: formatCount(r.traceIds.length) },
      { label: 'conversations', value: formatCount(r.conversationIds.length) },
      { label: 'misroute marks', value: formatCount(misroutes), tone: misroutes > 0 ? 'bad' : 'good' },
    ],
  });
  if (v.idHref !== undefined && r.decisions + r.entries.length > 0)
    blocks.push(...explainIdBlocks(r, v.idHref));
  const linkRows = Object.entries(v.links).flatMap(([traceId, l]) => [
    ...(l.jaeger === undefined ? [] : [[`jaeger ${traceId}`, { text: l.jaeger, href: l.jaeger }] as const]),
    ...(l.grafana === undefined
      ? []
      : [[`grafana ${traceId}`, { text: l.grafana, href: l.grafana }] as const]),
  ]);
  if (linkRows.length > 0)
    blocks.push({ kind: 'heading', text: 'Open the trace' }, { kind: 'fields', rows: linkRows });
  if (r.decisions > 0) blocks.push(...barKeyBlocks());
  let n = 0;
  for (const e of r.entries) {
    if (e.kind === 'decision') blocks.push(...decisionBlocks(e, ++n, v.links[e.record.traceId], v.idHref));
    else if (e.kind === 'turn') {
      const t = e.record;
      const parts = [`by ${t.by}`];
      if (t.from !== undefined) parts.push(`from ${t.from}`);
      if (t.to !== undefined) parts.push(`to ${t.to}`);
      if (t.offered !== undefined)
        parts.push(`offered [${t.offered.join(', ')}]${t.stayOffered === true ? ' + stay' : ''}`);
      if (t.witnessKeyword !== undefined) parts.push(`keyword ${t.witnessKeyword}`);
      if (t.decider?.picked !== undefined) parts.push(`decider picked ${t.decider.picked}`);
      if (t.droppedResume !== undefined)
        parts.push(`dropped resume ${t.droppedResume.id ?? ''} ${t.droppedResume.reason ?? ''}`.trim());
      blocks.push({
        kind: 'paragraph',
        text: [
          tone(`${formatTime(t.timeUnixMs)} turn route`, 'strong'),
          `: ${parts.join(', ')} (trace `,
          ...traceIdInline(t.traceId, t.syntheticTraceId === true),
          ')',
        ],
      });
      blocks.push(...misrouteList(t.misroutes));
    } else {
      blocks.push({
        kind: 'paragraph',
        text: [
          tone(`${formatTime(e.record.timeUnixMs)} misroute mark`, 'bad'),
          `: ${describeMark(e.record.mark)} (trace `,
          ...traceIdInline(e.record.traceId, e.record.syntheticTraceId === true),
          ')',
        ],
      });
    }
  }
  if (r.truncated > 0)
    blocks.push({
      kind: 'paragraph',
      text: tone(`${formatCount(r.truncated)} further records were not kept.`, 'dim'),
    });
  if (v.input !== undefined) blocks.push(...inputBlocks(v.input));
  return blocks;
}

function decisionBlocks(
  e: ExplainedDecision,
  n: number,
  links: TraceLinks | undefined,
  idHref: ExplainView['idHref'],
): Block[] {
  const d = e.record;
  const verdict: Inline =
    d.verdict === 'move'
      ? `move → ${String(d.to)}`
      : d.verdict === 'menu'
        ? `menu [${(d.offered ?? []).join(', ')}]`
        : d.verdict;
  const source = recordedFloorSource(d);
  const floorText =
    d.effectiveFloor === undefined || source === undefined
      ? tone('none (floorless: unmatched unreachable)', 'warn')
      : `${formatSetting(d.effectiveFloor)} (${describeFloorSource(source, d.policy.floor !== undefined && d.scorerTraits.floor !== undefined ? formatSetting(d.scorerTraits.floor) : undefined)})`;
  const gapText: Inline =
    d.runnerUp === undefined
      ? 'no runner-up alive'
      : [
          `${formatScore(d.runnerUp.gap)} ${d.runnerUp.gap >= d.policy.nearTieMargin ? '>=' : '<'} margin ${formatSetting(d.policy.nearTieMargin)} → `,
          d.decisive ? tone('decisive', 'good') : tone('near-tie', 'warn'),
        ];
  const alive = (score: number): boolean =>
    Number.isFinite(score) && (d.effectiveFloor === undefined || score > d.effectiveFloor);
  const blocks: Block[] = [
    {
      kind: 'heading',
      text: `${n}. ${formatTime(d.timeUnixMs)} · router ${formatName(d.router)} · scorer ${formatName(d.scorer)}`,
    },
    {
      kind: 'fields',
      rows: [
        [
          'verdict',
          [
            { text: verdict as string, tone: 'strong', only: 'text' },
            { text: d.verdict, look: 'verdict', only: 'html' },
            { text: (verdict as string).slice(d.verdict.length), only: 'html' },
          ],
        ],
        ['why', [e.why, { text: ` (judged as ${e.semantics})`, tone: 'dim', only: 'html' }]],
        ['gap vs margin', gapText],
        ['floor', floorText],
        [
          'incumbent',
          d.incumbent === undefined
            ? 'none (cold start)'
            : `${d.incumbent.id}${d.incumbent.scored ? '' : ' (not scored)'}`,
        ],
        [
          'where',
          [
            'trace ',
            ...linked(traceIdInline(d.traceId, d.syntheticTraceId === true), idHref?.('trace', d.traceId)),
            ` span ${d.spanId}`,
            ...(d.conversationId === undefined
              ? []
              : [
                  ' · conversation ',
                  {
                    text: d.conversationId,
                    look: 'id' as const,
                    ...(idHref === undefined ? {} : { href: idHref('conversation', d.conversationId) }),
                  },
                ]),
            ` · ${d.source.file}:${d.source.line}`,
          ],
        ],
      ],
    },
    {
      kind: 'table',
      columns: [
        { title: '#', align: 'right' },
        { title: 'candidate' },
        { title: 'raw score', align: 'right' },
        { title: 'share', align: 'right' },
        { title: 'note' },
      ],
      rows: d.ranked.map((c, i) => [
        String(i + 1),
        c.id,
        formatScore(c.score),
        formatPercent(c.relevance),
        [
          ...(c.id === d.incumbent?.id ? ['incumbent '] : []),
          alive(c.score) ? '' : tone('at/below floor', 'dim'),
        ],
      ]),
      legend: RANKED_LEGEND,
    },
  ];
  if (n <= MAX_EXPLAIN_DECISIONS) blocks.splice(2, 0, decisionChartBlock(e, n));
  blocks.push(...traceLinkBlocks(links));
  if (d.omitted > 0)
    blocks.push({
      kind: 'paragraph',
      text: tone(`${formatCount(d.omitted)} more candidates were not recorded.`, 'dim'),
    });
  blocks.push({ kind: 'paragraph', only: 'html', text: tone('What would have changed it:', 'strong') });
  blocks.push({ kind: 'list', items: counterfactualItems(e.counterfactuals) });
  blocks.push({ kind: 'paragraph', text: replayLine(e) });
  blocks.push(...misrouteList(d.misroutes));
  return blocks;
}

/** What the ranked-candidate columns mean (text, Markdown and HTML alike). */
export const RANKED_LEGEND: Legend = [
  ['raw score', "the scorer's own number; the policy compares these"],
  ['share', 'softmax of the raw scores over every candidate: how the scorer split its belief'],
  ['at/below floor', 'not alive: a score at or below the floor cannot win'],
];

function counterfactualItems(cf: CounterfactualSet): Inline[] {
  const items: Inline[] = [];
  const m = cf.margin;
  items.push(
    m.kind === 'none' ? `margin: no change would alter the verdict — ${m.reason}` : describeChange(m),
  );
  if (cf.floor.length === 0)
    items.push(
      `floor: no change would alter the verdict${cf.noFloor === undefined ? '' : ` — ${cf.noFloor.reason}`}`,
    );
  for (const f of cf.floor) items.push(describeChange(f));
  if (cf.note !== undefined) items.push(tone(cf.note, 'dim'));
  return items;
}

function describeResult(v: VerdictSummary): string {
  if (v.verdict === 'move') return `move to ${String(v.to)}`;
  if (v.verdict === 'menu') return `a menu of [${(v.offered ?? []).join(', ')}]`;
  return v.verdict;
}

function describeChange(c: Counterfactual): Inline {
  if (c.kind === 'margin') {
    const how =
      c.direction === 'raise'
        ? `raising the margin above the gap ${formatScore(c.gap)} (from ${formatSetting(c.from)})`
        : `lowering the margin to the gap ${formatScore(c.gap)} (from ${formatSetting(c.from)})`;
    return ['margin: ', how, ' → ', tone(describeResult(c.result), 'strong')];
  }
  const pivot = `the score of ${c.pivot.id} (${formatScore(c.pivot.score)})`;
  const how =
    c.direction === 'declare'
      ? `declaring a floor at ${pivot} (no floor now)`
      : c.direction === 'raise'
        ? `raising the floor from ${formatSetting(c.from)} to ${pivot} (at the floor is out)`
        : `lowering the floor from ${formatSetting(c.from)} to just below ${pivot}`;
  return ['floor: ', how, ' → ', tone(describeResult(c.result), 'strong')];
}

function replayLine(e: ExplainedDecision): Inline {
  const r = e.replay;
  if (r.kind === 'undecidable')
    return tone(`replay (${e.semantics}): cannot be decided — ${r.reason}`, 'dim');
  if (r.differences.length > 0)
    return [
      tone(`replay (${e.semantics}): the policy does not reproduce this verdict`, 'bad'),
      ` — ${r.differences.join('; ')}`,
    ];
  const partial =
    r.undecided.length > 0 ? ` (undecided with omitted candidates: ${r.undecided.join(', ')})` : '';
  return tone(`replay (${e.semantics}): the policy reproduces this verdict${partial}`, 'dim');
}

function misrouteList(marks: readonly MisrouteMark[]): Block[] {
  if (marks.length === 0) return [];
  return [{ kind: 'list', items: marks.map((m) => [tone('misroute mark', 'bad'), `: ${describeMark(m)}`]) }];
}

function describeMark(m: MisrouteMark): string {
  const parts: string[] = [];
  if (m.expected !== undefined) parts.push(`expected ${m.expected}`);
  if (m.reason !== undefined) parts.push(`reason ${m.reason}`);
  if (m.source !== undefined) parts.push(`source ${m.source}`);
  return parts.length === 0 ? 'marked misrouted' : parts.join(', ');
}

/** The id span (the first) made a link to `href`, when there is one. */
function linked(spans: Span[], href: string | undefined): Span[] {
  if (href === undefined) return spans;
  const [id, ...rest] = spans;
  return [{ ...id!, href }, ...rest];
}
