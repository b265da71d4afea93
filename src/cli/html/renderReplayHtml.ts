/**
 * renderReplayHtml — the replay report as a page: the flip matrix, rates before and after, the gap
 * histogram with the recorded and the new margin, floors per scorer, the consistency audit and flipped
 * decisions. Pure.
 */
import type { ReplayReport } from '../../analyze/replay.js';
import type { ChartDigest } from '../../analyze/chartDigest.js';
import type { ReadStats } from '../../trace/types.js';
import { gapHistogramSection, inputNotes } from './digestSections.js';
import {
  htmlCode,
  htmlIdList,
  htmlTable,
  htmlVerdict,
  renderHtmlPage,
  type HtmlSection,
} from './htmlPage.js';
import { htmlId } from './escapeHtml.js';
import { policySection } from './policySection.js';
import { drawBarChart, drawHeatmap, formatNumber, formatPercent } from './svgCharts.js';
import { VERDICT_COLORS } from '../format/palette.js';
import { countOf, formatScoreValue } from '../../analyze/formatFigures.js';

const KINDS = ['move', 'stay', 'menu', 'unmatched'] as const;

/** Describe the replay's thresholds: `margin 0.2, floor kept, menu size kept`. */
export function describeThresholds(t: ReplayReport['thresholds']): string {
  const parts = [
    t.nearTieMargin === undefined ? 'margin as recorded' : `margin ${t.nearTieMargin}`,
    t.floor === undefined ? 'floor as recorded' : t.floor === null ? 'no floor' : `floor ${t.floor}`,
    t.menuSize === undefined ? 'menu size as recorded' : `menu size ${t.menuSize}`,
  ];
  return parts.join(', ');
}

/** The replay page. */
export function renderReplayHtml(report: ReplayReport, digest?: ChartDigest, stats?: ReadStats): string {
  const { before, after } = report;
  const sections: HtmlSection[] = [
    {
      title: 'Flip matrix',
      intro: 'Recorded verdict (rows) → replayed verdict (columns). The diagonal kept its verdict.',
      half: true,
      body: drawHeatmap(
        KINDS,
        KINDS,
        KINDS.map((from) => KINDS.map((to) => report.flips[from][to])),
        {
          title: 'Flip matrix',
          width: 560,
          hue: 218,
          rowTitle: 'rows: recorded',
          colTitle: 'columns: replayed',
        },
      ),
    },
    {
      title: 'Verdicts before and after',
      intro: 'Each verdict, recorded and replayed.',
      half: true,
      body: drawBarChart(
        KINDS.flatMap((k) => [
          { label: `${k} · recorded`, value: before.verdicts[k], color: fade(VERDICT_COLORS[k]) },
          { label: `${k} · replayed`, value: after.verdicts[k], color: VERDICT_COLORS[k] },
        ]),
        { title: 'Verdicts before and after', width: 560 },
      ),
    },
  ];
  if (digest !== undefined) {
    sections.push(
      gapHistogramSection(digest, {
        ...(report.thresholds.nearTieMargin === undefined
          ? {}
          : { newMargin: report.thresholds.nearTieMargin }),
        half: false,
      }),
    );
  }
  sections.push({
    title: 'Floors per scorer',
    intro:
      report.unmatchedNowReachable.length > 0
        ? `unmatched becomes reachable for: ${report.unmatchedNowReachable.map((s) => `${s.router ?? '(no router)'} / ${s.scorer ?? '(no scorer)'}`).join(', ')}.`
        : 'Decisions judged with a floor (unmatched reachable), recorded and replayed.',
    body: htmlTable(
      [
        'router',
        'scorer',
        'decisions',
        'with floor · recorded',
        'with floor · replayed',
        'unmatched · recorded',
        'unmatched · replayed',
      ],
      report.scorers.map((s) => [
        s.router ?? '(none)',
        s.scorer ?? '(none)',
        formatNumber(s.decisions),
        formatNumber(s.flooredBefore),
        formatNumber(s.flooredAfter),
        formatNumber(s.unmatchedBefore),
        formatNumber(s.unmatchedAfter),
      ]),
      [2, 3, 4, 5, 6],
      [
        ['with floor', 'decisions judged with a floor (unmatched reachable)'],
        ['recorded · replayed', 'as the traces say, and under the thresholds above'],
      ],
    ),
  });
  sections.push({
    title: 'Consistency audit',
    intro:
      report.consistency.inconsistent === 0
        ? `Replayed under its recorded thresholds, every one of ${formatNumber(report.consistency.audited)} decisions reproduces its recorded verdict.`
        : `${formatNumber(report.consistency.inconsistent)} of ${formatNumber(report.consistency.audited)} decisions do NOT reproduce their recorded verdict under their own thresholds (version skew or a bug) — not a what-if result.`,
    body:
      report.consistency.examples.length === 0
        ? ''
        : htmlTable(
            ['trace', 'span', 'where', 'differences'],
            report.consistency.examples.map((e) => [
              { html: htmlId(e.at.traceId) },
              { html: htmlId(e.at.spanId) },
              `${e.at.file}:${e.at.line}`,
              e.differences.join('; '),
            ]),
          ),
  });
  sections.push(...policySection(report.policy.choice, report.policy.services));
  if (report.list.length > 0 || report.flipped > 0) {
    sections.push({
      title: 'Flipped decisions',
      intro:
        report.list.length === 0
          ? 'Run with --list to list them.'
          : `${formatNumber(report.list.length)} of ${formatNumber(report.flipped)} listed, in input order.`,
      body:
        report.list.length === 0
          ? ''
          : htmlTable(
              ['time (UTC)', 'trace', 'conversation', 'router / scorer', 'recorded', 'replayed', 'gap'],
              report.list.map((f) => [
                new Date(f.timeUnixMs).toISOString().replace('T', ' ').slice(0, 19),
                htmlIdList([f.traceId], 1),
                { html: f.conversationId === undefined ? '' : htmlId(f.conversationId, 24) },
                `${f.router ?? ''} / ${f.scorer ?? ''}`,
                {
                  html: `${htmlVerdict(f.from).html} ${f.fromDetail === undefined ? '' : htmlCode(f.fromDetail).html}`,
                },
                {
                  html: `${htmlVerdict(f.to).html} ${f.toDetail === undefined ? '' : htmlCode(f.toDetail).html}`,
                },
                f.gap === undefined ? '' : formatScoreValue(f.gap),
              ]),
              [6],
              [['gap', 'the runner-up gap the margins were compared with']],
            ),
    });
  }
  const notes = [
    `Selection: ${report.selection}; ${countOf(report.excluded, 'decision')} excluded.`,
    ...(report.undecidable > 0
      ? [
          `${countOf(report.undecidable, 'decision')} could not be replayed (candidates omitted from the record).`,
        ]
      : []),
    ...inputNotes(stats),
  ];
  return renderHtmlPage({
    title: 'routescope replay',
    subtitle: `What the recorded decisions would have been under: ${describeThresholds(report.thresholds)}.`,
    stats: [
      { label: 'decisions replayed', value: formatNumber(after.decisions) },
      {
        label: 'verdicts changed',
        value: formatNumber(report.flipped),
        tone: report.flipped > 0 ? 'warn' : 'good',
      },
      {
        label: 'near-tie rate',
        value: `${formatPercent(before.nearTieRate)} → ${formatPercent(after.nearTieRate)}`,
      },
      { label: 'menu rate', value: `${formatPercent(before.menuRate)} → ${formatPercent(after.menuRate)}` },
      {
        label: 'move → menu / menu → move',
        value: `${formatNumber(report.moveToMenu)} / ${formatNumber(report.menuToMove)}`,
      },
      {
        label: 'inconsistent',
        value: formatNumber(report.consistency.inconsistent),
        tone: report.consistency.inconsistent > 0 ? 'bad' : 'good',
      },
    ],
    sections,
    notes,
  });
}

/** A lighter shade of a #rrggbb colour (the "before" bars). */
function fade(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(c + (255 - c) * 0.55);
  const r = mix((n >> 16) & 255);
  const g = mix((n >> 8) & 255);
  const b = mix(n & 255);
  return `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;
}
