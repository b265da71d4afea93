/**
 * presentReplay — the replay report as JSON (a documented contract, docs/json-output.md) and as the report
 * document text, Markdown and HTML render.
 *
 * The page adds the key figures, the flip matrix as a heatmap, the verdicts before and after as bars and,
 * when a chart digest was read, the gap histogram with the recorded and the new margin. Pure.
 */
import type { ChartDigest } from '../analyze/chartDigest.js';
import type { ReplayReport } from '../analyze/replay.js';
import { VERDICT_KINDS } from '../analyze/verdictCounts.js';
import { chartSection, gapHistogramBlocks } from './digestBlocks.js';
import { look, tone, type Block, type ReportDocument } from './document.js';
import { countOf, formatCount, formatName, formatPercent, formatScore, formatTime } from './formatValues.js';
import { fadeColor, VERDICT_COLORS } from './palette.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';
import { policyBlocks } from './presentPolicy.js';
import { traceIdInline } from './traceIdText.js';

/** What `routescope replay` prints. */
export interface ReplayView {
  readonly report: ReplayReport;
  /** What was read; absent for a report built from records in memory. */
  readonly input?: InputSummary;
  /** The page's chart digest, read in the same pass (HTML only). */
  readonly digest?: ChartDigest;
}

/** Describe the replay's thresholds: `margin 0.2, floor as recorded, menu size as recorded`. */
export function describeThresholds(t: ReplayReport['thresholds']): string {
  const parts = [
    t.nearTieMargin === undefined ? 'margin as recorded' : `margin ${t.nearTieMargin}`,
    t.floor === undefined ? 'floor as recorded' : t.floor === null ? 'no floor' : `floor ${t.floor}`,
    t.menuSize === undefined ? 'menu size as recorded' : `menu size ${t.menuSize}`,
  ];
  return parts.join(', ');
}

/** The JSON document of `routescope replay`. */
export function replayToJson(v: ReplayView, schemaVersion: number): Record<string, unknown> {
  const r = v.report;
  return {
    schemaVersion,
    command: 'replay',
    thresholds: {
      nearTieMargin: r.thresholds.nearTieMargin ?? 'recorded',
      menuSize: r.thresholds.menuSize ?? 'recorded',
      floor: r.thresholds.floor === undefined ? 'recorded' : r.thresholds.floor,
    },
    where: r.where,
    excluded: r.excluded,
    undecidable: r.undecidable,
    partial: r.partial,
    before: r.before,
    after: r.after,
    flips: r.flips,
    flipped: r.flipped,
    moveToMenu: r.moveToMenu,
    menuToMove: r.menuToMove,
    menuChanged: r.menuChanged,
    unmatchedNowReachable: r.unmatchedNowReachable,
    scorers: r.scorers,
    policy: r.policy,
    consistency: r.consistency,
    list: r.list,
    undecidableExamples: r.undecidableExamples,
    ...(v.input ? { input: inputToJson(v.input) } : {}),
  };
}

/** The document of `routescope replay`. */
export function replayToDocument(v: ReplayView): ReportDocument {
  const r = v.report;
  const blocks: Block[] = [
    { kind: 'title', text: 'routescope replay — the recorded decisions under other thresholds' },
    {
      kind: 'paragraph',
      only: 'html',
      text: `What the recorded decisions would have been under: ${describeThresholds(r.thresholds)}.`,
    },
    figureBlock(r),
    {
      kind: 'fields',
      rows: [
        ['thresholds', describeThresholds(r.thresholds)],
        ['selection', `${r.selection} (${formatCount(r.excluded)} excluded)`],
        [
          'replayed',
          `${countOf(r.after.decisions, 'decision')}${r.partial > 0 ? ` (${formatCount(r.partial)} from partial records)` : ''}`,
        ],
        ...(r.undecidable > 0
          ? [
              [
                'not replayable',
                tone(`${formatCount(r.undecidable)} (candidates omitted from the record)`, 'warn'),
              ] as const,
            ]
          : []),
        [
          'near-tie rate',
          `${formatPercent(r.before.nearTieRate)} → ${formatPercent(r.after.nearTieRate)} (${formatCount(r.before.nearTies)} → ${formatCount(r.after.nearTies)})`,
        ],
        ['menu rate', `${formatPercent(r.before.menuRate)} → ${formatPercent(r.after.menuRate)}`],
        [
          'verdicts changed',
          r.flipped === 0
            ? tone('none', 'good')
            : tone(`${formatCount(r.flipped)} of ${formatCount(r.after.decisions)}`, 'warn'),
        ],
        ['move → menu', formatCount(r.moveToMenu)],
        ['menu → move', formatCount(r.menuToMove)],
        ['menu changed', formatCount(r.menuChanged)],
      ],
    },
    { kind: 'heading', text: 'Flip matrix (recorded → replayed)', half: true },
    {
      kind: 'paragraph',
      only: 'html',
      text: 'Recorded verdict (rows) → replayed verdict (columns). The diagonal kept its verdict.',
    },
    {
      kind: 'chart',
      chart: {
        type: 'heatmap',
        rows: VERDICT_KINDS,
        cols: VERDICT_KINDS,
        cells: VERDICT_KINDS.map((from) => VERDICT_KINDS.map((to) => r.flips[from][to])),
        options: {
          title: 'Flip matrix',
          width: 560,
          hue: 218,
          rowTitle: 'rows: recorded',
          colTitle: 'columns: replayed',
        },
      },
    },
    {
      kind: 'table',
      columns: [
        { title: 'recorded \\ replayed' },
        ...VERDICT_KINDS.map((k) => ({ title: k, align: 'right' as const })),
        { title: 'total', align: 'right' },
      ],
      rows: VERDICT_KINDS.map((from) => [
        from,
        ...VERDICT_KINDS.map((to) => {
          const n = formatCount(r.flips[from][to]);
          return from === to || r.flips[from][to] === 0 ? n : tone(n, 'warn');
        }),
        formatCount(r.before.verdicts[from]),
      ]),
      legend: [
        ['rows, columns', 'the recorded verdict, and the verdict under the thresholds above'],
        ['off the diagonal', 'decisions whose verdict would change'],
      ],
    },
    ...chartSection(
      'Verdicts before and after',
      'Each verdict, recorded and replayed.',
      {
        type: 'bars',
        data: VERDICT_KINDS.flatMap((k) => [
          { label: `${k} · recorded`, value: r.before.verdicts[k], color: fadeColor(VERDICT_COLORS[k]) },
          { label: `${k} · replayed`, value: r.after.verdicts[k], color: VERDICT_COLORS[k] },
        ]),
        options: { title: 'Verdicts before and after', width: 560 },
      },
      { half: true },
    ),
    ...(v.digest === undefined
      ? []
      : gapHistogramBlocks(v.digest, {
          ...(r.thresholds.nearTieMargin === undefined ? {} : { newMargin: r.thresholds.nearTieMargin }),
          half: false,
        })),
    { kind: 'heading', text: 'Floors per scorer' },
  ];
  if (r.unmatchedNowReachable.length > 0) {
    blocks.push({
      kind: 'paragraph',
      text: [
        'unmatched becomes reachable for: ',
        tone(
          r.unmatchedNowReachable.map((s) => `${formatName(s.router)} / ${formatName(s.scorer)}`).join(', '),
          'strong',
        ),
      ],
    });
  }
  blocks.push({
    kind: 'table',
    columns: [
      { title: 'router' },
      { title: 'scorer' },
      { title: 'decisions', align: 'right' },
      { title: 'with floor before', align: 'right' },
      { title: 'after', align: 'right' },
      { title: 'unmatched before', align: 'right' },
      { title: 'after', align: 'right' },
    ],
    rows: r.scorers.map((s) => [
      formatName(s.router),
      formatName(s.scorer),
      formatCount(s.decisions),
      formatCount(s.flooredBefore),
      formatCount(s.flooredAfter),
      formatCount(s.unmatchedBefore),
      formatCount(s.unmatchedAfter),
    ]),
    legend: [
      ['with floor', 'decisions judged with a floor (unmatched reachable), recorded, then replayed'],
      ['unmatched', 'decisions that ended unmatched, recorded, then replayed'],
    ],
  });
  blocks.push({ kind: 'heading', text: 'Consistency audit (recorded thresholds)' });
  blocks.push(...auditBlocks(r));
  blocks.push(...policyBlocks(r.policy.choice, r.policy.services));
  if (r.list.length > 0) {
    blocks.push({
      kind: 'heading',
      text: `Flipped decisions (${formatCount(r.list.length)} of ${formatCount(r.flipped)})`,
    });
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'time' },
        { title: 'trace' },
        { title: 'conversation' },
        { title: 'router / scorer' },
        { title: 'from' },
        { title: 'to' },
        { title: 'gap', align: 'right' },
      ],
      rows: r.list.map((f) => [
        formatTime(f.timeUnixMs),
        traceIdInline(f.traceId, f.syntheticTraceId === true),
        f.conversationId === undefined ? '—' : look(f.conversationId, 'id'),
        `${formatName(f.router)} / ${formatName(f.scorer)}`,
        f.fromDetail === undefined
          ? look(f.from, 'verdict')
          : [look(f.from, 'verdict'), ' ', look(f.fromDetail, 'code')],
        f.toDetail === undefined
          ? look(f.to, 'verdict')
          : [look(f.to, 'verdict'), ' ', look(f.toDetail, 'code')],
        formatScore(f.gap),
      ]),
      legend: [['gap', 'the runner-up gap the margins were compared with']],
    });
  } else if (r.flipped > 0) {
    blocks.push({ kind: 'paragraph', text: tone('Add --list to list the flipped decisions.', 'dim') });
  }
  if (v.input !== undefined) blocks.push(...inputBlocks(v.input));
  return blocks;
}

/** The page's headline figures. */
function figureBlock(r: ReplayReport): Block {
  const { before, after } = r;
  return {
    kind: 'figures',
    only: 'html',
    items: [
      { label: 'decisions replayed', value: formatCount(after.decisions) },
      { label: 'verdicts changed', value: formatCount(r.flipped), tone: r.flipped > 0 ? 'warn' : 'good' },
      {
        label: 'near-tie rate',
        value: `${formatPercent(before.nearTieRate)} → ${formatPercent(after.nearTieRate)}`,
      },
      { label: 'menu rate', value: `${formatPercent(before.menuRate)} → ${formatPercent(after.menuRate)}` },
      {
        label: 'move → menu / menu → move',
        value: `${formatCount(r.moveToMenu)} / ${formatCount(r.menuToMove)}`,
      },
      {
        label: 'inconsistent',
        value: formatCount(r.consistency.inconsistent),
        tone: r.consistency.inconsistent > 0 ? 'bad' : 'good',
      },
    ],
  };
}

/** The consistency audit's verdict, in a terminal's words and a page's, and its examples. */
function auditBlocks(r: ReplayReport): Block[] {
  const c = r.consistency;
  if (c.inconsistent === 0) {
    return [
      {
        kind: 'paragraph',
        only: 'text',
        text: tone(`All ${countOf(c.audited, 'decision')} reproduce their recorded verdict.`, 'good'),
      },
      {
        kind: 'paragraph',
        only: 'html',
        text: tone(
          `Replayed under its recorded thresholds, every one of ${countOf(c.audited, 'decision')} reproduces its recorded verdict.`,
          'good',
        ),
      },
    ];
  }
  return [
    {
      kind: 'paragraph',
      only: 'text',
      text: tone(
        `${formatCount(c.inconsistent)} of ${countOf(c.audited, 'decision')} do not reproduce their recorded verdict under their own thresholds: version skew or a bug, not a what-if result.`,
        'bad',
      ),
    },
    {
      kind: 'paragraph',
      only: 'html',
      text: tone(
        `${formatCount(c.inconsistent)} of ${countOf(c.audited, 'decision')} do NOT reproduce their recorded verdict under their own thresholds (version skew or a bug) — not a what-if result.`,
        'bad',
      ),
    },
    {
      kind: 'list',
      items: c.examples.map((e) => [
        ...traceIdInline(e.at.traceId, e.at.syntheticTraceId === true),
        ` ${e.at.file}:${e.at.line} (judged as ${e.semantics}): ${e.differences.join('; ')}`,
      ]),
    },
  ];
}
