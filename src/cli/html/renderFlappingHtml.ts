/**
 * renderFlappingHtml — the flapping report as a page: skill pairs and conversations ranked, with example
 * bounces and near-tie stay runs. Pure.
 */
import type { FlappingEvent, FlappingReport } from '../../analyze/flapping.js';
import { countOf } from '../../analyze/formatFigures.js';
import type { ChartDigest } from '../../analyze/chartDigest.js';
import type { ReadStats } from '../../trace/types.js';
import { flappingLegend } from '../format/presentFlapping.js';
import { inputNotes, tiedPairsSection } from './digestSections.js';
import { htmlId } from './escapeHtml.js';
import { htmlIdList, htmlTable, renderHtmlPage, type HtmlSection } from './htmlPage.js';
import { drawBarChart, formatNumber } from './svgCharts.js';

/** One event as a sentence. */
export function describeFlappingEvent(e: FlappingEvent): string {
  if (e.kind === 'bounce') return `${e.skill} → ${e.via} → ${e.skill} (turns ${e.fromTurn}–${e.toTurn})`;
  const against = e.challengers.length > 0 ? ` against ${e.challengers.join(', ')}` : '';
  return `${e.length} near-tie stays on ${e.incumbent}${against} (from turn ${e.fromTurn})`;
}

/** The flapping page. */
export function renderFlappingHtml(report: FlappingReport, digest?: ChartDigest, stats?: ReadStats): string {
  const c = report.config;
  const pairLabel = (p: FlappingReport['topPairs'][number]) => `${p.pair[0]} ↔ ${p.pair[1]}`;
  const sections: HtmlSection[] = [
    {
      title: 'Skill pairs',
      intro:
        'Turns that flapped per pair of skills: bounces (A → B → A) plus near-tie stays, whether or not they made a run.',
      half: true,
      body: drawBarChart(
        report.topPairs.map((p) => ({
          label: pairLabel(p),
          value: p.bounces + p.nearTieStays,
          color: '#e3a21a',
          note: `(${formatNumber(p.bounces)} bounces, ${formatNumber(p.nearTieStays)} stays)`,
        })),
        { title: 'Skill pairs', width: 560 },
      ),
    },
    {
      title: 'Conversations',
      intro: 'Conversations that flapped most: bounces plus near-tie stays, out of their turns.',
      half: true,
      body: drawBarChart(
        report.topConversations.map((c) => ({
          label: c.id,
          value: c.bounces + c.nearTieStays,
          color: '#3b6fd8',
          note: `of ${formatNumber(c.decisions)} turns`,
        })),
        { title: 'Conversations', width: 560 },
      ),
    },
  ];
  if (digest !== undefined) sections.push(tiedPairsSection(digest, false));
  sections.push({
    title: 'Examples',
    body: htmlTable(
      ['conversation', 'router', 'turns', 'bounces', 'near-tie stays', 'longest run', 'examples', 'traces'],
      report.topConversations.map((c) => [
        { html: `${htmlId(c.id, 40)}${c.keyedBy === 'trace' ? ' (trace)' : ''}` },
        c.router ?? '',
        formatNumber(c.decisions),
        formatNumber(c.bounces),
        formatNumber(c.nearTieStays),
        formatNumber(c.longestStayRun),
        c.examples.map(describeFlappingEvent).join('; '),
        htmlIdList([...new Set(c.examples.flatMap((e) => e.traceIds))], 1),
      ]),
      [2, 3, 4, 5],
      [...flappingLegend(c), ['longest run', 'most near-tie stays in a row']],
    ),
  });
  sections.push({
    title: 'Pairs',
    body: htmlTable(
      ['router', 'pair', 'bounces', 'stay runs', 'near-tie stays', 'conversations'],
      report.topPairs.map((p) => [
        p.router ?? '',
        pairLabel(p),
        formatNumber(p.bounces),
        formatNumber(p.stayRuns),
        formatNumber(p.nearTieStays),
        formatNumber(p.conversations),
      ]),
      [2, 3, 4, 5],
      flappingLegend(c),
    ),
  });
  return renderHtmlPage({
    title: 'routescope flapping',
    subtitle: `A → B → A within ${c.window} turns; runs of at least ${c.minStayRun} near-tie stays on one incumbent.`,
    stats: [
      { label: 'conversations', value: formatNumber(report.conversations) },
      {
        label: 'flapping',
        value: formatNumber(report.conversationsFlapping),
        tone: report.conversationsFlapping > 0 ? 'warn' : 'good',
      },
      { label: 'bounces', value: formatNumber(report.bounces) },
      { label: 'near-tie stays', value: formatNumber(report.nearTieStays) },
      { label: 'stay runs', value: formatNumber(report.stayRuns) },
    ],
    sections,
    notes: [
      `${countOf(report.decisions, 'decision')}; ${countOf(report.conversationsKeyedByTrace, 'conversation')} had no conversation id and were keyed by trace.`,
      ...(report.outOfOrder > 0
        ? [`${countOf(report.outOfOrder, 'decision')} arrived too far out of time order.`]
        : []),
      ...inputNotes(stats),
    ],
  });
}
