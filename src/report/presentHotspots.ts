/**
 * presentHotspots — the near-tie hot spots as JSON and as a report document (alone, or inside `analyze`).
 *
 * The document is what text, Markdown and HTML render; the page adds the key figures and a bar chart of the
 * near-ties per hot spot beside the table. Pure.
 */
import type { HotspotReport, NearTieHotspot } from '../analyze/findNearTieHotspots.js';
import { tone, type Block, type Legend, type ReportDocument } from './document.js';
import { CHART_COLORS } from './palette.js';
import { countOf, formatCount, formatName, formatPercent, formatScore } from './formatValues.js';
import { gateBlocks, gatesToJson } from './presentGates.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';
import { SYNTHETIC_TRACE_LEGEND, traceIdInline } from './traceIdText.js';
import type { GateResult } from '../analyze/evaluateGates.js';

/** What `routescope hotspots` prints. */
export interface HotspotsView {
  readonly report: HotspotReport;
  readonly input: InputSummary;
  readonly gates: readonly GateResult[];
}

/** One hot spot in the JSON contract. */
export function hotspotToJson(h: NearTieHotspot): Record<string, unknown> {
  return { ...h, pair: [...h.pair] };
}

/** The JSON document of `routescope hotspots`. */
export function hotspotsToJson(v: HotspotsView, schemaVersion: number): Record<string, unknown> {
  const r = v.report;
  return {
    schemaVersion,
    command: 'hotspots',
    by: r.by,
    decisions: r.decisions,
    nearTies: r.nearTies,
    groups: r.groups,
    hotspots: r.hotspots.map(hotspotToJson),
    unpairedNearTies: r.unpairedNearTies,
    droppedNearTies: r.droppedNearTies,
    input: inputToJson(v.input),
    gates: gatesToJson(v.gates),
  };
}

/** What the hot-spot columns mean (text, Markdown and HTML alike). */
export const HOTSPOT_LEGEND: Legend = [
  ['pair', 'the top and runner-up skills of a near-tie, in either order'],
  ['share', "this pair's part of all near-ties"],
  ['met', 'decisions where this pair were the top two, tied or not'],
  ['tie rate', 'near-ties / met: how often the pair ties when it meets'],
  ['median gap', 'the middle runner-up gap of its near-ties (0: scored alike)'],
  ['menus, stays', 'how its near-ties ended: a menu offered, or the incumbent kept'],
  ['conversations', 'distinct conversations with a near-tie here (≥: at least, past the count cap)'],
];

/** The hot-spot table (shared with `analyze`). */
export function hotspotBlocks(r: HotspotReport, heading: string): Block[] {
  const repeatedPairs = pairsListedTwice(r.hotspots);
  const blocks: Block[] = [{ kind: 'heading', text: heading }];
  if (r.hotspots.length === 0) {
    blocks.push({
      kind: 'paragraph',
      text: r.nearTies === 0 ? tone('No near-ties.', 'good') : 'No group reaches the minimum count.',
    });
    return blocks;
  }
  const dims = r.by;
  blocks.push({
    kind: 'chart',
    chart: {
      type: 'bars',
      data: r.hotspots.map((h) => ({
        label: pairOf(h),
        value: h.nearTies,
        color: CHART_COLORS.nearTie,
        note: `(tie rate ${formatPercent(h.tieRate)})${groupNote(h, dims, repeatedPairs)}`,
      })),
      options: { title: `${heading}: near-ties per pair`, width: 1100 },
    },
  });
  blocks.push({
    kind: 'table',
    columns: [
      ...dims.map((d) => ({ title: d })),
      { title: 'pair' },
      { title: 'near-ties', align: 'right' as const },
      { title: 'share', align: 'right' as const },
      { title: 'met', align: 'right' as const },
      { title: 'tie rate', align: 'right' as const },
      { title: 'median gap', align: 'right' as const },
      { title: 'menus', align: 'right' as const },
      { title: 'stays', align: 'right' as const },
      { title: 'conversations', align: 'right' as const },
      { title: 'example trace' },
    ],
    legend: r.hotspots.some((h) => h.syntheticTraceIds.length > 0)
      ? [...HOTSPOT_LEGEND, SYNTHETIC_TRACE_LEGEND]
      : HOTSPOT_LEGEND,
    rows: r.hotspots.map((h) => [
      ...dims.map((d) => formatName(h[d])),
      pairOf(h),
      formatCount(h.nearTies),
      formatPercent(h.share),
      formatCount(h.meetings),
      formatPercent(h.tieRate),
      formatScore(h.medianGap),
      formatCount(h.verdicts.menu),
      formatCount(h.verdicts.stay),
      `${h.conversationsCapped ? '≥' : ''}${formatCount(h.conversations)}`,
      h.exampleTraceIds[0] === undefined
        ? ''
        : traceIdInline(h.exampleTraceIds[0], h.syntheticTraceIds.includes(h.exampleTraceIds[0])),
    ]),
  });
  const notes: string[] = [];
  if (r.unpairedNearTies > 0) notes.push(`${countOf(r.unpairedNearTies, 'near-tie')} had no recorded pair.`);
  if (r.droppedNearTies > 0)
    notes.push(`${countOf(r.droppedNearTies, 'near-tie')} fell in groups past the group cap.`);
  if (notes.length > 0) blocks.push({ kind: 'paragraph', text: tone(notes.join(' '), 'dim') });
  return blocks;
}

function pairOf(h: NearTieHotspot): string {
  return `${h.pair[0]} ↔ ${h.pair[1]}`;
}

/** Pairs that tie in more than one group (two routers, say): their bars need the group to tell them apart. */
function pairsListedTwice(hotspots: readonly NearTieHotspot[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const h of hotspots) {
    const pair = pairOf(h);
    if (seen.has(pair)) twice.add(pair);
    seen.add(pair);
  }
  return twice;
}

/**
 * The group's names after a bar's note when the same pair has another bar: the note has the room a label does
 * not (a label is cut to the chart's label column).
 */
function groupNote(h: NearTieHotspot, dims: HotspotReport['by'], repeated: ReadonlySet<string>): string {
  if (!repeated.has(pairOf(h)) || dims.length === 0) return '';
  return ` · ${dims.map((d) => formatName(h[d])).join(' · ')}`;
}

/** The document of `routescope hotspots`. */
export function hotspotsToDocument(v: HotspotsView): ReportDocument {
  const r = v.report;
  const by = r.by.length === 0 ? 'pair' : `${r.by.join(' + ')} + pair`;
  return [
    { kind: 'title', text: 'routescope hotspots — where routing keeps tying' },
    {
      kind: 'paragraph',
      text: `${countOf(r.nearTies, 'near-tie')} in ${countOf(r.decisions, 'decision')}, grouped by ${by}; ${countOf(r.groups, 'group')} met as the top two.`,
    },
    {
      kind: 'figures',
      only: 'html',
      items: [
        { label: 'decisions', value: formatCount(r.decisions) },
        {
          label: 'near-ties',
          value: formatCount(r.nearTies),
          tone: r.nearTies === 0 ? 'good' : 'warn',
        },
        {
          label: 'near-tie rate',
          value: r.decisions === 0 ? '—' : formatPercent(r.nearTies / r.decisions),
        },
        { label: 'groups met', value: formatCount(r.groups) },
        { label: 'hot spots listed', value: formatCount(r.hotspots.length) },
      ],
    },
    ...hotspotBlocks(r, 'Hot spots'),
    ...gateBlocks(v.gates),
    ...inputBlocks(v.input),
  ];
}
