/**
 * presentFlapping — the flapping report as JSON and as a report document.
 *
 * The document is what text, Markdown and HTML render; the page adds the key figures, the pairs and the
 * conversations ranked as bars, and the tied skill pairs when a chart digest was read. Pure.
 */
import type { ChartDigest } from '../analyze/chartDigest.js';
import type { FlappingEvent, FlappingReport } from '../analyze/flapping.js';
import { tiedPairsBlocks } from './digestBlocks.js';
import { look, tone, type Block, type Legend, type ReportDocument } from './document.js';
import { countOf, formatCount, formatName } from './formatValues.js';
import { CHART_COLORS } from './palette.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';
import { traceIdInline, traceIdList } from './traceIdText.js';

/** What `routescope flapping` prints. */
export interface FlappingView {
  readonly report: FlappingReport;
  /** What was read; absent for a report built from records in memory. */
  readonly input?: InputSummary;
  /** The page's chart digest, read in the same pass (HTML only). */
  readonly digest?: ChartDigest;
}

/**
 * A chart's bars, longest first. The tables rank by flaps (bounces and stay runs); the bars draw turns that
 * flapped (bounces and near-tie stays), so in the tables' order the longest bar need not lead. Ties keep the
 * tables' order.
 */
function longestFirst<T extends { readonly value: number }>(bars: T[]): T[] {
  return bars.sort((a, b) => b.value - a.value);
}

/** One event as a sentence. */
export function describeFlappingEvent(e: FlappingEvent): string {
  if (e.kind === 'bounce') return `${e.skill} → ${e.via} → ${e.skill} (turns ${e.fromTurn}–${e.toTurn})`;
  const against = e.challengers.length > 0 ? ` against ${e.challengers.join(', ')}` : '';
  return `${e.length} near-tie stays on ${e.incumbent}${against} (from turn ${e.fromTurn})`;
}

/** The JSON document of `routescope flapping`. */
export function flappingToJson(v: FlappingView, schemaVersion: number): Record<string, unknown> {
  const { kind: _kind, ...rest } = v.report;
  return { schemaVersion, command: 'flapping', ...rest, ...(v.input ? { input: inputToJson(v.input) } : {}) };
}

/** What the flapping columns mean, with the report's own window and run length. */
export function flappingLegend(config: FlappingReport['config']): Legend {
  return [
    ['bounces', `A → B → A within ${config.window} turns`],
    ['stay runs', `${config.minStayRun} or more near-tie stays in a row on one incumbent`],
    ['near-tie stays', 'turns the incumbent kept although the top two tied, in runs or not'],
  ];
}

/** The document of `routescope flapping`. */
export function flappingToDocument(v: FlappingView): ReportDocument {
  const r = v.report;
  const blocks: Block[] = [
    { kind: 'title', text: 'routescope flapping — skills that bounce and incumbents kept by ambiguity' },
    {
      kind: 'paragraph',
      only: 'html',
      text: `A → B → A within ${r.config.window} turns; runs of at least ${r.config.minStayRun} near-tie stays on one incumbent.`,
    },
    {
      kind: 'figures',
      only: 'html',
      items: [
        { label: 'conversations', value: formatCount(r.conversations) },
        {
          label: 'flapping',
          value: formatCount(r.conversationsFlapping),
          tone: r.conversationsFlapping > 0 ? 'warn' : 'good',
        },
        { label: 'bounces', value: formatCount(r.bounces) },
        { label: 'near-tie stays', value: formatCount(r.nearTieStays) },
        { label: 'stay runs', value: formatCount(r.stayRuns) },
      ],
    },
    {
      kind: 'fields',
      rows: [
        [
          'conversations',
          `${formatCount(r.conversations)} (${formatCount(r.conversationsKeyedByTrace)} keyed by trace: no conversation id)`,
        ],
        [
          'flapping',
          r.conversationsFlapping === 0
            ? tone('none', 'good')
            : tone(formatCount(r.conversationsFlapping), 'warn'),
        ],
        ['bounces', `${formatCount(r.bounces)} (A → B → A within ${r.config.window} turns)`],
        [
          'near-tie stays',
          `${formatCount(r.nearTieStays)} in ${formatCount(r.stayRuns)} runs of ${r.config.minStayRun}+`,
        ],
        ...(r.outOfOrder > 0
          ? [
              [
                'out of order',
                tone(`${countOf(r.outOfOrder, 'decision')} judged in arrival order`, 'warn'),
              ] as const,
            ]
          : []),
      ],
    },
    { kind: 'heading', text: 'Skill pairs' },
    {
      kind: 'paragraph',
      only: 'html',
      text: 'Turns that flapped per pair of skills: bounces (A → B → A) plus near-tie stays, whether or not they made a run.',
    },
    {
      kind: 'chart',
      chart: {
        type: 'bars',
        data: longestFirst(
          r.topPairs.map((p) => ({
            label: `${p.pair[0]} ↔ ${p.pair[1]}`,
            value: p.bounces + p.nearTieStays,
            color: CHART_COLORS.nearTie,
            note: `(${countOf(p.bounces, 'bounce')}, ${countOf(p.nearTieStays, 'stay')})`,
          })),
        ),
        options: { title: 'Skill pairs', width: 1100 },
      },
    },
    {
      kind: 'table',
      columns: [
        { title: 'router' },
        { title: 'pair' },
        { title: 'bounces', align: 'right' },
        { title: 'stay runs', align: 'right' },
        { title: 'near-tie stays', align: 'right' },
        { title: 'conversations', align: 'right' },
      ],
      rows: r.topPairs.map((p) => [
        formatName(p.router),
        `${p.pair[0]} ↔ ${p.pair[1]}`,
        formatCount(p.bounces),
        formatCount(p.stayRuns),
        formatCount(p.nearTieStays),
        formatCount(p.conversations),
      ]),
      legend: flappingLegend(r.config),
    },
    { kind: 'heading', text: 'Conversations' },
    {
      kind: 'paragraph',
      only: 'html',
      text: 'Conversations that flapped most: bounces plus near-tie stays, out of their turns.',
    },
    {
      kind: 'chart',
      chart: {
        type: 'bars',
        data: longestFirst(
          r.topConversations.map((c) => ({
            label: c.id,
            value: c.bounces + c.nearTieStays,
            color: CHART_COLORS.decisive,
            note: `of ${countOf(c.decisions, 'turn')}`,
          })),
        ),
        options: { title: 'Conversations', width: 1100 },
      },
    },
  ];
  if (r.topConversations.length === 0) {
    blocks.push({ kind: 'paragraph', text: tone('No conversation flapped.', 'good') });
  } else {
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'conversation' },
        { title: 'router' },
        { title: 'turns', align: 'right' },
        { title: 'bounces', align: 'right' },
        { title: 'stay runs', align: 'right' },
        { title: 'examples' },
      ],
      rows: r.topConversations.map((c) => [
        c.keyedBy === 'trace'
          ? [...traceIdInline(c.id, c.syntheticId === true), ' (trace)']
          : look(c.id, 'id'),
        formatName(c.router),
        formatCount(c.decisions),
        formatCount(c.bounces),
        formatCount(c.stayRuns),
        c.examples.flatMap((e, i) => [
          ...(i > 0 ? ['; '] : []),
          `${describeFlappingEvent(e)} [`,
          ...traceIdList(e.traceIds, e.syntheticTraceIds),
          ']',
        ]),
      ]),
      legend: [
        ['turns', 'routing decisions in the conversation'],
        ['examples', 'the first bounces and runs, with their traces'],
      ],
    });
  }
  if (v.digest !== undefined) blocks.push(...tiedPairsBlocks(v.digest, false));
  if (v.input !== undefined) blocks.push(...inputBlocks(v.input));
  return blocks;
}
