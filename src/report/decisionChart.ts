/**
 * decisionChart — the page-only pieces of `explain`'s document: each decision's candidates as ranked bars
 * (raw score, share) with the floor and the near-tie zone marked, the colour key of those bars, and the links
 * that open a trace elsewhere.
 *
 * The near-tie zone is the margin drawn on the score axis: a candidate ties with the top when
 * tanh((top − s) / 2) < margin, i.e. when s > top − 2·atanh(margin). A helper of presentExplain. Pure.
 */
import type { ExplainedDecision } from '../analyze/explainDecisions.js';
import { formatScoreValue, formatThreshold } from '../analyze/formatFigures.js';
import type { BarDatum, ChartBand, ChartMarker } from './html/svgCharts.js';
import type { TraceLinks } from './traceLinks.js';
import type { Block, Inline, Span } from './document.js';
import { formatPercent } from './formatValues.js';
import { CHART_COLORS, VERDICT_COLORS } from './palette.js';

/** Decisions drawn; a longer timeline is cut (every decision is still in the text and the tables). */
export const MAX_EXPLAIN_DECISIONS = 200;
/** Candidates drawn per decision. */
const MAX_BARS = 15;

/** What each bar colour of a decision's chart means; every one is in the key above the charts. */
const BAR_COLORS = Object.freeze({
  movedTo: VERDICT_COLORS.move,
  incumbent: VERDICT_COLORS.stay,
  offered: VERDICT_COLORS.menu,
  runnerUp: CHART_COLORS.runnerUp,
  top: CHART_COLORS.top,
  other: CHART_COLORS.other,
});

/** The colour key of the ranked bars, the near-tie zone and the floor (page only). */
export function barKeyBlocks(): Block[] {
  const key: [string, string][] = [
    [BAR_COLORS.movedTo, 'moved to'],
    [BAR_COLORS.incumbent, 'incumbent (kept or not)'],
    [BAR_COLORS.offered, 'offered in a menu'],
    [BAR_COLORS.runnerUp, 'runner-up, not offered'],
    [BAR_COLORS.top, 'ranked first, not taken (the turn stayed or nothing matched)'],
    [BAR_COLORS.other, 'any other candidate'],
    [CHART_COLORS.band, 'near-tie zone: a score here ties with the top'],
    [CHART_COLORS.threshold, 'the floor (dashed line)'],
  ];
  return [
    { kind: 'heading', text: 'How to read the charts', only: 'html' },
    {
      kind: 'paragraph',
      only: 'html',
      text: "Bars are raw scores, with each candidate's share of the scorer's softmax in brackets.",
    },
    {
      kind: 'list',
      only: 'html',
      items: key.map(([color, label]): Inline => [{ text: '', look: 'swatch', color }, label]),
    },
  ];
}

/** One decision's ranked bars (page only). */
export function decisionChartBlock(e: ExplainedDecision, n: number): Block {
  const d = e.record;
  const top = d.ranked[0];
  const topScore = top !== undefined && Number.isFinite(top.score) ? top.score : undefined;
  const shown = d.ranked.slice(0, MAX_BARS);
  const incumbent = d.incumbent?.id;
  const data: BarDatum[] = shown.map((c, i) => {
    const roles: string[] = [];
    if (d.verdict === 'move' && c.id === d.to) roles.push('moved to');
    if (d.runnerUp?.id === c.id) roles.push('runner-up');
    if (c.id === incumbent) roles.push('incumbent');
    if (d.offered?.includes(c.id)) roles.push('offered');
    // The bar says what the verdict did with the candidate: moved to, kept, offered, or merely ranked.
    const color =
      d.verdict === 'move' && c.id === d.to
        ? BAR_COLORS.movedTo
        : c.id === incumbent
          ? BAR_COLORS.incumbent
          : d.offered?.includes(c.id) === true
            ? BAR_COLORS.offered
            : d.runnerUp?.id === c.id
              ? BAR_COLORS.runnerUp
              : i === 0
                ? BAR_COLORS.top
                : BAR_COLORS.other;
    return {
      label: c.id,
      value: Number.isFinite(c.score) ? c.score : NaN,
      color,
      note: `(${formatPercent(c.relevance)})${Number.isFinite(c.score) ? '' : ` score ${String(c.score)}`}${roles.length > 0 ? ` ${roles.join(', ')}` : ''}`,
    };
  });
  const marks: ChartMarker[] =
    d.effectiveFloor !== undefined && Number.isFinite(d.effectiveFloor)
      ? [
          {
            value: d.effectiveFloor,
            label: 'floor',
            valueText: formatThreshold(d.effectiveFloor),
            color: CHART_COLORS.threshold,
          },
        ]
      : [];
  const band = nearTieZone(topScore, d.policy.nearTieMargin, shown);
  return {
    kind: 'chart',
    only: 'html',
    chart: {
      type: 'ranked',
      data,
      options: {
        title: `Decision ${n}: candidates`,
        width: 1100,
        marks,
        valueFormat: formatScoreValue,
        ...(band === undefined ? {} : { band }),
      },
    },
  };
}

/**
 * The near-tie zone on the score axis: a candidate ties with the top when tanh((top − s) / 2) < margin, i.e.
 * s > top − 2·atanh(margin); from margin 1 up every alive candidate ties. Undefined when there is no finite
 * top or the margin cannot tie anything.
 */
export function nearTieZone(
  topScore: number | undefined,
  margin: number,
  shown: readonly { readonly score: number }[],
): ChartBand | undefined {
  if (topScore === undefined || !(margin > 0)) return undefined;
  const label = `near-tie zone (margin ${formatThreshold(margin)})`;
  if (margin >= 1) {
    const lowest = Math.min(...shown.map((c) => (Number.isFinite(c.score) ? c.score : topScore)));
    return { from: lowest, to: topScore, label, title: `${label}: every candidate alive ties with the top` };
  }
  const from = topScore - 2 * Math.atanh(margin);
  return {
    from,
    to: topScore,
    label,
    title: `${label}: a score above ${formatScoreValue(from)} ties with the top`,
  };
}

/** Where to open a trace, as a page shows it: a link for an http(s) address, else the address as text. */
export function traceLinkBlocks(links: TraceLinks | undefined): Block[] {
  if (links === undefined) return [];
  const parts: Span[] = [];
  for (const [label, url] of [
    ['Jaeger', links.jaeger],
    ['Grafana', links.grafana],
  ] as const) {
    if (url === undefined) continue;
    if (parts.length > 0) parts.push({ text: ' · ' });
    parts.push(/^https?:\/\//i.test(url) ? { text: label, href: url } : { text: `${label}: ${url}` });
  }
  return parts.length === 0
    ? []
    : [{ kind: 'paragraph', only: 'html', text: ['Open the trace: ', ...parts] }];
}
