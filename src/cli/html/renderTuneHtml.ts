/**
 * renderTuneHtml — the tune report as a page: the curve (margin → near-tie, menu and move rates) with the
 * recommendation marked, the caveat that it tunes rates and not accuracy, misroutes caught, and the floor
 * sweep of floorless scorers. Pure.
 */
import type { ChartDigest } from '../../analyze/chartDigest.js';
import type { TunePoint, TuneReport } from '../../analyze/tune.js';
import type { ReadStats } from '../../trace/types.js';
import { gapHistogramSection, inputNotes } from './digestSections.js';
import { policySection } from './policySection.js';
import { htmlParagraph, htmlTable, renderHtmlPage, type HtmlSection, type HtmlStat } from './htmlPage.js';
import { drawLineChart, formatNumber, formatPercent, type LineSeries } from './svgCharts.js';
import { countOf, createSweepFormat, formatScoreValue } from '../../analyze/formatFigures.js';

/** Most curve rows the table shows; a longer curve is thinned, keeping the recommendation. */
const MAX_TABLE_ROWS = 26;

/** The tune page. */
export function renderTuneHtml(report: TuneReport, digest?: ChartDigest, stats?: ReadStats): string {
  const rec = report.recommendation;
  const margin = createSweepFormat(report.sweep);
  const hasMarks = report.misroutes !== undefined && report.misroutes.known > 0;
  const series: LineSeries[] = [
    {
      name: 'near-tie rate',
      color: '#e3a21a',
      points: report.curve.map((p) => ({ x: p.margin, y: p.nearTieRate })),
    },
    {
      name: 'menu rate',
      color: '#8a5cc7',
      points: report.curve.map((p) => ({ x: p.margin, y: p.menuRate })),
    },
    {
      name: 'move rate',
      color: '#3b6fd8',
      points: report.curve.map((p) => ({ x: p.margin, y: p.moveRate })),
    },
  ];
  if (hasMarks) {
    const known = report.misroutes!.known;
    series.push({
      name: 'known misroutes caught',
      color: '#c8463d',
      points: report.curve.map((p) => ({ x: p.margin, y: (p.misroutesCaught ?? 0) / known })),
    });
  }
  const recorded = report.recorded.margins[0]?.margin;
  const marker =
    rec !== undefined
      ? { value: rec.margin, label: 'recommended', color: '#2f8a50' }
      : recorded !== undefined
        ? { value: recorded, label: 'recorded', color: '#c8463d' }
        : undefined;
  const sections: HtmlSection[] = [
    {
      title: 'What this tunes',
      body:
        htmlParagraph(report.caveat) +
        (rec === undefined ? '' : htmlParagraph(`Recommendation: ${rec.reason}.`)) +
        (report.recorded.margins.length > 1
          ? htmlParagraph(
              `These decisions were judged under ${report.recorded.margins.length} margins; the sweep applies one margin to all of them. Tune one router at a time with --where router=NAME.`,
            )
          : ''),
    },
    {
      title: 'Margin sweep',
      intro: `Each swept margin applied to all ${formatNumber(report.decisions)} decisions.`,
      body: drawLineChart(series, {
        title: 'Margin sweep',
        width: 1100,
        height: 320,
        yDomain: [0, 1],
        yFormat: formatPercent,
        xFormat: formatNumber,
        ...(marker === undefined ? {} : { marker }),
      }),
    },
  ];
  if (digest !== undefined) {
    sections.push(
      gapHistogramSection(digest, { ...(rec === undefined ? {} : { newMargin: rec.margin }), half: true }),
    );
  }
  if (report.misroutes !== undefined) {
    const m = report.misroutes;
    sections.push({
      title: 'Known misroutes',
      intro: 'Turns marked misrouted after the fact, and how many each margin would have turned into a menu.',
      half: digest !== undefined,
      body:
        htmlTable(
          ['', 'caught as a menu', 'share'],
          [
            ['recorded', formatNumber(m.caughtRecorded), formatPercent(m.shareRecorded)],
            ...(m.caughtRecommended === undefined
              ? []
              : [
                  [
                    `recommended (${rec?.margin})`,
                    formatNumber(m.caughtRecommended),
                    formatPercent(m.shareRecommended ?? 0),
                  ],
                ]),
          ],
          [1, 2],
        ) +
        htmlParagraph(
          `${countOf(m.known, 'known misroute')}` +
            (m.unjoined > 0 ? `; ${countOf(m.unjoined, 'mark')} matched no decision in the input.` : '.'),
        ),
    });
  }
  sections.push({
    title: 'Curve',
    body: htmlTable(
      [
        'margin',
        'near-tie rate',
        'menu rate',
        'move rate',
        'stay rate',
        ...(hasMarks ? ['misroutes caught'] : []),
      ],
      thin(report.curve, rec?.margin).map((p) => [
        rec !== undefined && p.margin === rec.margin
          ? { html: `<b>${margin(p.margin)}</b> ◀` }
          : margin(p.margin),
        formatPercent(p.nearTieRate),
        formatPercent(p.menuRate),
        formatPercent(p.moveRate),
        formatPercent(p.stayRate),
        ...(hasMarks ? [formatNumber(p.misroutesCaught ?? 0)] : []),
      ]),
      [0, 1, 2, 3, 4, 5],
      [
        ['margin', 'one margin applied to every decision (◀ the recommendation)'],
        ['rates', 'shares of the decisions replayed under that margin'],
        ...(hasMarks
          ? [['misroutes caught', 'decisions marked misrouted that the margin turns into a menu'] as const]
          : []),
      ],
    ),
  });
  for (const f of report.floors) {
    sections.push({
      title: `Floor sweep — ${f.router ?? '(no router)'} / ${f.scorer ?? '(no scorer)'}`,
      intro:
        `This scorer judged ${formatNumber(f.decisions)} decisions with no floor; each floor below is replayed on ${f.sampled === f.decisions ? 'all of them' : `a sample of ${formatNumber(f.sampled)}`}.` +
        (f.recommended === undefined
          ? ''
          : ` Recommended floor ${formatScoreValue(f.recommended.floor)}: unmatched ${formatPercent(f.recommended.unmatchedRate)}.`),
      half: true,
      body:
        drawLineChart(
          [
            {
              name: 'unmatched rate',
              color: '#c8463d',
              points: f.rows.map((r) => ({ x: r.floor, y: r.unmatchedRate })),
            },
            {
              name: 'near-tie rate',
              color: '#e3a21a',
              points: f.rows.map((r) => ({ x: r.floor, y: r.nearTieRate })),
            },
          ],
          { title: 'Floor sweep', width: 560, height: 220, yDomain: [0, 1], yFormat: formatPercent },
        ) +
        htmlTable(
          ['floor', 'unmatched', 'near-tie', 'menu'],
          f.rows.map((r) => [
            formatScoreValue(r.floor),
            formatPercent(r.unmatchedRate),
            formatPercent(r.nearTieRate),
            formatPercent(r.menuRate),
          ]),
          [0, 1, 2, 3],
        ),
    });
  }
  const statsRow: HtmlStat[] = [
    { label: 'decisions swept', value: formatNumber(report.decisions) },
    {
      label: 'recorded margin',
      value:
        recorded === undefined
          ? '–'
          : `${formatNumber(recorded)}${report.recorded.margins.length > 1 ? ` (+${report.recorded.margins.length - 1} more)` : ''}`,
    },
    {
      label: 'recorded near-tie / menu rate',
      value: `${formatPercent(report.recorded.nearTieRate)} / ${formatPercent(report.recorded.menuRate)}`,
    },
  ];
  if (rec !== undefined) {
    statsRow.push(
      { label: 'recommended margin', value: margin(rec.margin), tone: rec.meets ? 'good' : 'bad' },
      {
        label: 'near-tie / menu rate there',
        value: `${formatPercent(rec.point.nearTieRate)} / ${formatPercent(rec.point.menuRate)}`,
      },
    );
  }
  if (report.misroutes?.shareRecommended !== undefined) {
    statsRow.push({
      label: 'known misroutes caught',
      value: formatPercent(report.misroutes.shareRecommended),
    });
  }
  sections.push(...policySection(report.policy.choice, report.policy.services));
  const targets = [
    report.targets.menuRate === undefined ? undefined : `menu rate <= ${report.targets.menuRate}`,
    report.targets.nearTieRate === undefined ? undefined : `near-tie rate <= ${report.targets.nearTieRate}`,
  ].filter((x) => x !== undefined);
  return renderHtmlPage({
    title: 'routescope tune',
    subtitle:
      `Margin swept ${report.sweep.from}…${report.sweep.to} by ${report.sweep.step}` +
      (targets.length > 0 ? `; target: ${targets.join(' and ')}.` : '; no target given.'),
    stats: statsRow,
    sections,
    notes: [
      `Selection: ${report.selection}; ${formatNumber(report.excluded)} excluded, ${formatNumber(report.undecidable)} not replayable.`,
      ...inputNotes(stats),
    ],
  });
}

function thin(curve: readonly TunePoint[], keep: number | undefined): TunePoint[] {
  if (curve.length <= MAX_TABLE_ROWS) return [...curve];
  const every = Math.ceil(curve.length / MAX_TABLE_ROWS);
  return curve.filter((p, i) => i % every === 0 || p.margin === keep || i === curve.length - 1);
}
