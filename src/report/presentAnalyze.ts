/**
 * presentAnalyze — the overview (`routescope analyze`) as JSON and as a report document.
 *
 * The JSON object is the documented contract (docs/json-output.md, `schemaVersion`); the document is the
 * readable report text, Markdown and HTML render: the verdict mix, near-tie rates per router / scorer /
 * service, the top hot spots, floorless scorers, anomalies, gates and the input. The page adds the key figures
 * and, from the chart digest read in the same pass, the verdict mix, the near-tie rate over time, the gap
 * histogram and the tied skill pairs as charts (hot spots and floorless scorers draw their own). Pure.
 */
import type { ChartDigest } from '../analyze/chartDigest.js';
import { ANOMALY_KINDS } from '../analyze/detectAnomalies.js';
import type { GateResult } from '../analyze/evaluateGates.js';
import type { FloorlessReport } from '../analyze/findFloorlessScorers.js';
import type { FloorSourceCounts } from '../analyze/floorSources.js';
import type { HotspotReport } from '../analyze/findNearTieHotspots.js';
import type { AnomalyExample, Breakdown, DecisionSummary } from '../analyze/summarizeDecisions.js';
import { gapHistogramBlocks, tiedPairsBlocks, timelineBlocks, verdictMixBlocks } from './digestBlocks.js';
import { tone, type Block, type Inline, type Legend, type ReportDocument, type Span } from './document.js';
import {
  countOf,
  formatCount,
  formatName,
  formatPercent,
  formatSetting,
  formatTime,
} from './formatValues.js';
import { EFFECTIVE_FLOOR_NOTE } from './floorSourceText.js';
import { floorlessBlocks } from './presentFloorless.js';
import { gateBlocks, gatesToJson } from './presentGates.js';
import { hotspotBlocks, hotspotToJson } from './presentHotspots.js';
import { INSTRUMENTATION_HINT, inputBlocks, inputToJson, type InputSummary } from './presentInput.js';
import { policyBlocks } from './presentPolicy.js';
import { traceIdInline } from './traceIdText.js';

/** What `routescope analyze` prints. */
export interface AnalyzeView {
  readonly summary: DecisionSummary;
  readonly hotspots: HotspotReport;
  readonly floorless: FloorlessReport;
  /** What was read; absent for a report built from records in memory. */
  readonly input?: InputSummary;
  readonly gates: readonly GateResult[];
  /** The page's chart digest, read in the same pass (HTML only). */
  readonly digest?: ChartDigest;
}

/** The JSON document of `routescope analyze`. */
export function analyzeToJson(v: AnalyzeView, schemaVersion: number): Record<string, unknown> {
  const s = v.summary;
  return {
    schemaVersion,
    command: 'analyze',
    decisions: s.decisions,
    verdicts: s.verdicts,
    nearTies: s.nearTies,
    nearTieRate: s.nearTieRate,
    menuRate: s.menuRate,
    unmatchedRate: s.unmatchedRate,
    byService: s.byService,
    byRouter: s.byRouter,
    byScorer: s.byScorer,
    hotspots: v.hotspots.hotspots.map(hotspotToJson),
    floorlessDecisions: s.floorlessDecisions,
    floorSources: s.floorSources,
    floorless: v.floorless.floorless,
    inconsistent: s.inconsistent,
    policy: s.policy,
    replay: s.replay,
    anomalies: s.anomalies,
    anomalyExamples: s.anomalyExamples,
    errors: s.errors,
    turns: s.turns,
    misroutes: s.misroutes,
    timeRange: s.timeRange ?? null,
    ...(v.input ? { input: inputToJson(v.input) } : {}),
    gates: gatesToJson(v.gates),
  };
}

/** The document of `routescope analyze`. */
export function analyzeToDocument(v: AnalyzeView): ReportDocument {
  const s = v.summary;
  const rateTone = (x: number): Span => tone(formatPercent(x), x > 0.2 ? 'bad' : x > 0.1 ? 'warn' : 'good');
  const stats = v.input?.stats;
  const blocks: Block[] = [
    { kind: 'title', text: `routescope analyze — ${countOf(s.decisions, 'routing decision')}` },
    {
      kind: 'paragraph',
      only: 'html',
      text:
        s.timeRange === undefined
          ? 'No routing decision in the input.'
          : `${countOf(s.decisions, 'tier-2 decision')} from ${formatTime(s.timeRange.firstMs)} to ${formatTime(s.timeRange.lastMs)}.`,
    },
    figureBlock(s, rateTone),
    {
      kind: 'fields',
      rows: [
        [
          'decisions',
          s.timeRange === undefined
            ? formatCount(s.decisions)
            : `${formatCount(s.decisions)} (${formatTime(s.timeRange.firstMs)} … ${formatTime(s.timeRange.lastMs)})`,
        ],
        [
          'verdicts',
          `move ${formatCount(s.verdicts.move)} · stay ${formatCount(s.verdicts.stay)} · menu ${formatCount(s.verdicts.menu)} · unmatched ${formatCount(s.verdicts.unmatched)}`,
        ],
        ['near-ties', [`${formatCount(s.nearTies)} · rate `, rateTone(s.nearTieRate)]],
        ['menu rate', formatPercent(s.menuRate)],
        ['unmatched rate', formatPercent(s.unmatchedRate)],
        [
          'floorless',
          s.floorlessDecisions === 0
            ? tone('none', 'good')
            : tone(`${countOf(s.floorlessDecisions, 'decision')} judged with no floor`, 'warn'),
        ],
        ...(s.decisions > 0 ? [['floor set by', floorSourcesText(s.floorSources)] as const] : []),
        [
          'inconsistent',
          s.inconsistent === 0
            ? tone('none', 'good')
            : tone(`${formatCount(s.inconsistent)} verdicts the policy does not reproduce`, 'bad'),
        ],
        [
          'turns / misroutes',
          `${formatCount(s.turns)} turn routes · ${formatCount(s.misroutes)} misroute marks`,
        ],
        ...(s.errors > 0
          ? [['errors', tone(`${formatCount(s.errors)} routing calls threw`, 'bad')] as const]
          : []),
      ],
    },
    ...(s.decisions === 0
      ? [
          {
            kind: 'paragraph' as const,
            text: tone(
              stats !== undefined && stats.events > 0
                ? `No tier-2 decision in the input: its agentfootprint event logs hold ${formatCount(stats.events - stats.otherEvents)} turn_routed events, none with scores (tier 2 never ran), and ${formatCount(stats.otherEvents)} other events, skipped.`
                : `No tier-2 routing spans in the input. Turn the instrumentation on (${INSTRUMENTATION_HINT}) and export its spans: README, "Plug into your agent".`,
              'warn',
            ),
          },
        ]
      : []),
    ...(v.digest === undefined
      ? []
      : [
          ...verdictMixBlocks(s.verdicts),
          ...timelineBlocks(v.digest),
          ...gapHistogramBlocks(v.digest),
          ...tiedPairsBlocks(v.digest),
        ]),
    ...breakdownBlocks('Near-tie rate by router', s.byRouter),
    ...breakdownBlocks('Near-tie rate by scorer', s.byScorer),
    ...(s.byService.rows.length > 1 || s.byService.rows[0]?.name !== null
      ? breakdownBlocks('Near-tie rate by service', s.byService)
      : []),
    ...hotspotBlocks(v.hotspots, 'Near-tie hot spots'),
    ...floorlessBlocks(v.floorless, 'Floorless scorers'),
    ...anomalyBlocks(s),
    ...policyBlocks(s.policy.choice, s.policy.services),
    ...gateBlocks(v.gates),
    ...(v.input === undefined ? [] : inputBlocks(v.input)),
  ];
  return blocks;
}

/** The page's headline figures; each that counts something links to the section that shows it (serve: its list). */
function figureBlock(s: DecisionSummary, rateTone: (x: number) => Span): Block {
  return {
    kind: 'figures',
    only: 'html',
    items: [
      { label: 'decisions', value: formatCount(s.decisions) },
      {
        label: 'near-tie rate',
        value: formatPercent(s.nearTieRate),
        href: '#near-tie-hot-spots',
        tone: rateTone(s.nearTieRate).tone as 'good' | 'warn' | 'bad',
      },
      { label: 'menu rate', value: formatPercent(s.menuRate), href: '#verdict-mix' },
      {
        label: 'floorless decisions',
        value: formatCount(s.floorlessDecisions),
        href: '#floorless-scorers',
        tone: s.floorlessDecisions > 0 ? 'warn' : 'good',
      },
      {
        label: 'inconsistent',
        value: formatCount(s.inconsistent),
        href: '#anomalies',
        tone: s.inconsistent > 0 ? 'bad' : 'good',
      },
      { label: 'misroute marks', value: formatCount(s.misroutes) },
    ],
  };
}

function breakdownBlocks(heading: string, b: Breakdown): Block[] {
  if (b.rows.length === 0) return [];
  const rows = b.rows.map((r) => [
    formatName(r.name),
    formatCount(r.decisions),
    formatCount(r.nearTies),
    formatPercent(r.nearTieRate),
    formatCount(r.verdicts.move),
    formatCount(r.verdicts.stay),
    formatCount(r.verdicts.menu),
    formatCount(r.verdicts.unmatched),
  ]);
  if (b.pooled !== undefined) {
    const p = b.pooled;
    rows.push([
      '(all others)',
      formatCount(p.decisions),
      formatCount(p.nearTies),
      formatPercent(p.nearTieRate),
      formatCount(p.verdicts.move),
      formatCount(p.verdicts.stay),
      formatCount(p.verdicts.menu),
      formatCount(p.verdicts.unmatched),
    ]);
  }
  return [
    { kind: 'heading', text: heading },
    {
      kind: 'table',
      columns: [
        { title: 'name' },
        { title: 'decisions', align: 'right' },
        { title: 'near-ties', align: 'right' },
        { title: 'rate', align: 'right' },
        { title: 'move', align: 'right' },
        { title: 'stay', align: 'right' },
        { title: 'menu', align: 'right' },
        { title: 'unmatched', align: 'right' },
      ],
      rows,
      legend: BREAKDOWN_LEGEND,
    },
  ];
}

/** What the near-tie breakdown columns mean (text, Markdown and HTML alike). */
export const BREAKDOWN_LEGEND: Legend = [
  ['near-ties', 'decisions whose top two candidates were closer than the margin'],
  ['rate', 'near-ties / decisions'],
  ['move … unmatched', 'how the decisions ended'],
];

function anomalyBlocks(s: DecisionSummary): Block[] {
  const total = ANOMALY_KINDS.reduce((t, k) => t + s.anomalies[k], 0);
  const replayNote =
    s.replay.partial + s.replay.undecidable > 0
      ? ` Replay: ${formatCount(s.replay.complete)} complete, ${formatCount(s.replay.partial)} partial (candidates omitted from the record: only what they cannot change was checked), ${formatCount(s.replay.undecidable)} undecidable.`
      : '';
  const blocks: Block[] = [{ kind: 'heading', text: 'Anomalies' }];
  if (total === 0) {
    blocks.push({ kind: 'paragraph', text: [tone('None.', 'good'), replayNote] });
    return blocks;
  }
  blocks.push({
    kind: 'fields',
    rows: ANOMALY_KINDS.filter((k) => s.anomalies[k] > 0).map(
      (k) => [k, formatCount(s.anomalies[k])] as const,
    ),
  });
  blocks.push({ kind: 'list', items: s.anomalyExamples.map(describeAnomaly) });
  if (replayNote !== '') blocks.push({ kind: 'paragraph', text: tone(replayNote.trim(), 'dim') });
  return blocks;
}

function describeAnomaly(a: AnomalyExample): Inline {
  const where: (string | Span)[] = [
    'trace ',
    ...traceIdInline(a.at.traceId, a.at.syntheticTraceId === true),
    ` span ${a.at.spanId} (${a.at.file}:${a.at.line})`,
  ];
  switch (a.kind) {
    case 'odd-margin':
      return [
        ...where,
        `: near-tie margin ${formatSetting(a.margin)} (a margin <= 0 makes everything decisive)`,
      ];
    case 'odd-menu-size':
      return [...where, `: menu size ${formatSetting(a.menuSize)} (a menu offers at least two)`];
    case 'duplicate-candidates':
      return [...where, `: duplicate candidate ids ${a.ids.join(', ')}`];
    case 'inconsistent':
      return [
        tone('inconsistent', 'bad'),
        ' ',
        ...where,
        `, judged as ${a.semantics}: ${a.differences.join('; ')}`,
      ];
  }
}

/** Whose floors judged the decisions: the policy's, the scorer's, or only the effective one (an event's). */
function floorSourcesText(c: FloorSourceCounts): Inline {
  // Counts of decisions by where their floor came from, never floor values: said in the words.
  const text = `the policy in ${countOf(c.policy, 'decision')} · the scorer in ${formatCount(c.scorer)} · unknown which (effective floor only) in ${formatCount(c.effective)} · no floor in ${formatCount(c.none)}`;
  return c.effective === 0 ? text : [text, tone(` (${EFFECTIVE_FLOOR_NOTE})`, 'dim')];
}
