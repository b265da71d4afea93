/**
 * presentTune — the tune report as JSON and as the report document text, Markdown and HTML render (the curve
 * as a table, the caveat first).
 *
 * The page adds the key figures, the margin sweep as lines with the recommendation marked, the gap
 * histogram under the recommended margin when a chart digest was read, and each floor sweep as lines. Pure.
 */
import type { ChartDigest } from '../analyze/chartDigest.js';
import type { TuneReport } from '../analyze/tune.js';
import { createSweepFormat, formatThreshold } from '../analyze/formatFigures.js';
import type { LineSeries } from './html/svgCharts.js';
import { chartSection, gapHistogramBlocks } from './digestBlocks.js';
import { policyBlocks } from './presentPolicy.js';
import { tone, type Block, type Figure, type ReportDocument } from './document.js';
import { CHART_COLORS } from './palette.js';
import {
  countOf,
  formatCount,
  formatName,
  formatPercent,
  formatScore,
  formatSetting,
} from './formatValues.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';

/** What `routescope tune` prints. */
export interface TuneView {
  readonly report: TuneReport;
  /** What was read; absent for a report built from records in memory. */
  readonly input?: InputSummary;
  /** The page's chart digest, read in the same pass (HTML only). */
  readonly digest?: ChartDigest;
}

/** Curve rows text and Markdown show; a longer curve is thinned (JSON has every point). */
const MAX_ROWS = 30;

/** The JSON document of `routescope tune`. */
export function tuneToJson(v: TuneView, schemaVersion: number): Record<string, unknown> {
  const r = v.report;
  return {
    schemaVersion,
    command: 'tune',
    caveat: r.caveat,
    targets: r.targets,
    where: r.where,
    excluded: r.excluded,
    undecidable: r.undecidable,
    decisions: r.decisions,
    recorded: r.recorded,
    sweep: r.sweep,
    recommendation: r.recommendation ?? null,
    misroutes: r.misroutes ?? null,
    curve: r.curve,
    floors: r.floors,
    policy: r.policy,
    ...(v.input ? { input: inputToJson(v.input) } : {}),
  };
}

/** The document of `routescope tune`. */
export function tuneToDocument(v: TuneView): ReportDocument {
  const r = v.report;
  const rec = r.recommendation;
  const hasMarks = r.misroutes !== undefined;
  const sweptMargin = createSweepFormat(r.sweep);
  const blocks: Block[] = [
    { kind: 'title', text: 'routescope tune — the near-tie margin against a target rate' },
    { kind: 'paragraph', text: tone(r.caveat, 'strong') },
    { kind: 'paragraph', only: 'html', text: describeSweep(r) },
    { kind: 'figures', only: 'html', items: tuneFigures(r) },
    {
      kind: 'fields',
      rows: [
        [
          'selection',
          `${r.selection} (${formatCount(r.excluded)} excluded, ${formatCount(r.undecidable)} not replayable)`,
        ],
        ['decisions', formatCount(r.decisions)],
        [
          'recorded',
          `margin ${r.recorded.margins.map((m) => `${formatSetting(m.margin)} (${countOf(m.decisions, 'decision')})`).join(', ') || '—'}; near-tie rate ${formatPercent(r.recorded.nearTieRate)}, menu rate ${formatPercent(r.recorded.menuRate)}`,
        ],
        [
          'sweep',
          `${formatSetting(r.sweep.from)} … ${formatSetting(r.sweep.to)} by ${formatSetting(r.sweep.step)}`,
        ],
        [
          'target',
          [
            r.targets.menuRate === undefined
              ? undefined
              : `menu rate <= ${formatPercent(r.targets.menuRate)}`,
            r.targets.nearTieRate === undefined
              ? undefined
              : `near-tie rate <= ${formatPercent(r.targets.nearTieRate)}`,
            r.targets.unmatchedRate === undefined
              ? undefined
              : `unmatched rate <= ${formatPercent(r.targets.unmatchedRate)} (floorless scorers)`,
          ]
            .filter((x) => x !== undefined)
            .join(' and ') || 'none (give --target-menu-rate or --target-near-tie-rate)',
        ],
      ],
    },
  ];
  if (r.recorded.margins.length > 1) {
    blocks.push({
      kind: 'paragraph',
      text: tone(
        `These decisions were judged under ${r.recorded.margins.length} margins; the sweep applies one margin to all of them. Tune one router at a time with --where router=NAME.`,
        'warn',
      ),
    });
  }
  if (rec !== undefined) {
    blocks.push({ kind: 'heading', text: 'Recommendation' });
    blocks.push({
      kind: 'fields',
      rows: [
        ['margin', tone(sweptMargin(rec.margin), rec.meets ? 'good' : 'bad')],
        ['why', rec.reason],
        [
          'rates there',
          `near-tie ${formatPercent(rec.point.nearTieRate)}, menu ${formatPercent(rec.point.menuRate)}, move ${formatPercent(rec.point.moveRate)}, stay ${formatPercent(rec.point.stayRate)}`,
        ],
      ],
    });
  }
  blocks.push(...sweepChartBlocks(r));
  if (v.digest !== undefined)
    // Half width beside the known misroutes when there are any, else the whole row.
    blocks.push(
      ...gapHistogramBlocks(v.digest, {
        ...(rec === undefined ? {} : { newMargin: rec.margin }),
        half: r.misroutes !== undefined,
      }),
    );
  if (r.misroutes !== undefined) {
    const m = r.misroutes;
    blocks.push({
      kind: 'heading',
      text: 'Known misroutes',
      ...(v.digest === undefined ? {} : { half: true }),
    });
    blocks.push({
      kind: 'fields',
      rows: [
        [
          'marked',
          `${countOf(m.known, 'decision')}${m.unjoined > 0 ? `, ${countOf(m.unjoined, 'mark')} matched no decision` : ''}`,
        ],
        [
          'caught as a menu, recorded',
          `${formatCount(m.caughtRecorded)} (${formatPercent(m.shareRecorded)})`,
        ],
        ...(m.caughtRecommended === undefined
          ? []
          : [
              [
                'caught as a menu, recommended',
                `${formatCount(m.caughtRecommended)} (${formatPercent(m.shareRecommended ?? 0)})`,
              ] as const,
            ]),
      ],
    });
  }
  blocks.push({ kind: 'heading', text: 'Curve' });
  const every = Math.max(1, Math.ceil(r.curve.length / MAX_ROWS));
  const rows = r.curve.filter(
    (p, i) => i % every === 0 || p.margin === rec?.margin || i === r.curve.length - 1,
  );
  blocks.push({
    kind: 'table',
    columns: [
      { title: 'margin', align: 'right' },
      { title: 'near-tie rate', align: 'right' },
      { title: 'menu rate', align: 'right' },
      { title: 'move rate', align: 'right' },
      { title: 'stay rate', align: 'right' },
      ...(hasMarks ? [{ title: 'misroutes caught', align: 'right' as const }] : []),
    ],
    rows: rows.map((p) => [
      p.margin === rec?.margin
        ? [
            { text: `▶ ${sweptMargin(p.margin)}`, tone: 'strong', only: 'text' },
            { text: sweptMargin(p.margin), tone: 'strong', only: 'html' },
            { text: ' ◀', only: 'html' },
          ]
        : sweptMargin(p.margin),
      formatPercent(p.nearTieRate),
      formatPercent(p.menuRate),
      formatPercent(p.moveRate),
      formatPercent(p.stayRate),
      ...(hasMarks ? [formatCount(p.misroutesCaught ?? 0)] : []),
    ]),
    legend: [
      ['margin', 'one margin applied to every decision (▶ the recommendation)', 'text'],
      ['margin', 'one margin applied to every decision (◀ the recommendation)', 'html'],
      ['… rate', 'share of the decisions replayed under that margin that tie, offer a menu, move or stay'],
      ...(hasMarks
        ? [['misroutes caught', 'decisions marked misrouted that the margin turns into a menu'] as const]
        : []),
    ],
  });
  if (every > 1) {
    blocks.push({
      kind: 'paragraph',
      text: tone(`One margin in ${every} shown; --format json has them all.`, 'dim'),
    });
  }
  for (const f of r.floors) {
    blocks.push({
      kind: 'heading',
      only: 'text',
      text: `Floor sweep: ${formatName(f.router)} / ${formatName(f.scorer)} (no floor declared)`,
    });
    blocks.push({
      kind: 'heading',
      only: 'html',
      half: true,
      text: `Floor sweep — ${formatName(f.router)} / ${formatName(f.scorer)} (no floor declared)`,
    });
    blocks.push({
      kind: 'paragraph',
      text: `${countOf(f.decisions, 'decision')}${f.sampled < f.decisions ? `, replayed on a uniform sample of ${formatCount(f.sampled)}` : ''}; a floor F makes a decision unmatched when its top score is at or below F.`,
    });
    blocks.push({
      kind: 'chart',
      chart: {
        type: 'line',
        series: [
          {
            name: 'unmatched rate',
            color: CHART_COLORS.threshold,
            points: f.rows.map((row) => ({ x: row.floor, y: row.unmatchedRate })),
          },
          {
            name: 'near-tie rate',
            color: CHART_COLORS.nearTie,
            points: f.rows.map((row) => ({ x: row.floor, y: row.nearTieRate })),
          },
        ],
        options: { title: 'Floor sweep', width: 560, height: 220, yDomain: [0, 1], yFormat: formatPercent },
      },
    });
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'floor', align: 'right' },
        { title: 'unmatched', align: 'right' },
        { title: 'near-tie rate', align: 'right' },
        { title: 'menu rate', align: 'right' },
      ],
      rows: f.rows.map((row) => [
        formatScore(row.floor),
        formatPercent(row.unmatchedRate),
        formatPercent(row.nearTieRate),
        formatPercent(row.menuRate),
      ]),
      legend: [
        ['floor', 'a recorded top score tried as the floor'],
        ['unmatched … menu rate', 'shares of the decisions replayed under that floor'],
      ],
    });
    if (r.targets.unmatchedRate !== undefined) {
      const rec = f.recommended;
      blocks.push({
        kind: 'paragraph',
        text:
          rec === undefined
            ? `No floor keeps unmatched at or below ${formatPercent(r.targets.unmatchedRate)}: even the weakest top score, as a floor, makes more decisions unmatched.`
            : `Recommended floor ${formatScore(rec.floor)}: unmatched ${formatPercent(rec.unmatchedRate)} (target ${formatPercent(r.targets.unmatchedRate)}), near-tie rate ${formatPercent(rec.nearTieRate)}, menu rate ${formatPercent(rec.menuRate)}.`,
      });
    }
  }
  if (r.policy.choice === 'auto') blocks.push(...policyBlocks(r.policy.choice, r.policy.services));
  else {
    blocks.push({
      kind: 'paragraph',
      text: tone(`Every decision is judged by ${r.policy.choice} (--policy ${r.policy.choice}).`, 'dim'),
    });
  }
  if (v.input !== undefined) blocks.push(...inputBlocks(v.input));
  return blocks;
}

/** The sweep and the targets in one sentence (the page's subtitle). */
function describeSweep(r: TuneReport): string {
  const targets = [
    r.targets.menuRate === undefined ? undefined : `menu rate <= ${formatThreshold(r.targets.menuRate)}`,
    r.targets.nearTieRate === undefined
      ? undefined
      : `near-tie rate <= ${formatThreshold(r.targets.nearTieRate)}`,
  ].filter((x) => x !== undefined);
  return (
    `Margin swept ${formatSetting(r.sweep.from)}…${formatSetting(r.sweep.to)} by ${formatSetting(r.sweep.step)}` +
    (targets.length > 0 ? `; target: ${targets.join(' and ')}.` : '; no target given.')
  );
}

/** The page's headline figures. */
function tuneFigures(r: TuneReport): Figure[] {
  const rec = r.recommendation;
  const recorded = r.recorded.margins[0]?.margin;
  const more = r.recorded.margins.length > 1 ? ` (+${r.recorded.margins.length - 1} more)` : '';
  return [
    { label: 'decisions swept', value: formatCount(r.decisions) },
    { label: 'recorded margin', value: recorded === undefined ? '—' : `${formatSetting(recorded)}${more}` },
    {
      label: 'recorded near-tie / menu rate',
      value: `${formatPercent(r.recorded.nearTieRate)} / ${formatPercent(r.recorded.menuRate)}`,
    },
    ...(rec === undefined
      ? []
      : [
          {
            label: 'recommended margin',
            value: createSweepFormat(r.sweep)(rec.margin),
            tone: rec.meets ? ('good' as const) : ('bad' as const),
          },
          {
            label: 'near-tie / menu rate there',
            value: `${formatPercent(rec.point.nearTieRate)} / ${formatPercent(rec.point.menuRate)}`,
          },
        ]),
    ...(r.misroutes?.shareRecommended === undefined
      ? []
      : [{ label: 'known misroutes caught', value: formatPercent(r.misroutes.shareRecommended) }]),
  ];
}

/** The margin sweep as lines, the recommendation (else the recorded margin) marked (page only). */
function sweepChartBlocks(r: TuneReport): Block[] {
  const rec = r.recommendation;
  const line = (name: string, color: string, y: (p: TuneReport['curve'][number]) => number): LineSeries => ({
    name,
    color,
    points: r.curve.map((p) => ({ x: p.margin, y: y(p) })),
  });
  const series = [
    line('near-tie rate', CHART_COLORS.nearTie, (p) => p.nearTieRate),
    line('menu rate', CHART_COLORS.menuRate, (p) => p.menuRate),
    line('move rate', CHART_COLORS.decisive, (p) => p.moveRate),
  ];
  const known = r.misroutes?.known ?? 0;
  if (known > 0)
    series.push(
      line('known misroutes caught', CHART_COLORS.threshold, (p) => (p.misroutesCaught ?? 0) / known),
    );
  const recorded = r.recorded.margins[0]?.margin;
  const marker =
    rec !== undefined
      ? { value: rec.margin, label: 'recommended', color: CHART_COLORS.recommended }
      : recorded !== undefined
        ? { value: recorded, label: 'recorded', color: CHART_COLORS.threshold }
        : undefined;
  return chartSection(
    'Margin sweep',
    `Each swept margin applied to all ${countOf(r.decisions, 'decision')}.`,
    {
      type: 'line',
      series,
      options: {
        title: 'Margin sweep',
        width: 1100,
        height: 320,
        yDomain: [0, 1],
        yFormat: formatPercent,
        xFormat: formatThreshold,
        ...(marker === undefined ? {} : { marker }),
      },
    },
  );
}
