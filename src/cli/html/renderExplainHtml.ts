/**
 * renderExplainHtml — the post-mortem of one trace or conversation as a page: every decision in order with
 * its candidates as ranked bars (raw score, share), the floor and the near-tie zone marked, the verdict and
 * why, and the smallest threshold change that would have changed it.
 *
 * The near-tie zone is the margin drawn on the score axis: a candidate ties with the top when
 * tanh((top − s) / 2) < margin, i.e. when s > top − 2·atanh(margin). Pure.
 */
import type { Counterfactual, NoCounterfactual } from '../../analyze/findCounterfactuals.js';
import type { ExplainedDecision, ExplainReport } from '../../analyze/explainDecisions.js';
import type { VerdictSummary } from '../../analyze/replayDecision.js';
import type { ReadStats } from '../../trace/types.js';
import { inputNotes } from './digestSections.js';
import { escapeHtml, htmlId } from './escapeHtml.js';
import { htmlVerdict, renderHtmlPage, type HtmlSection } from './htmlPage.js';
import {
  drawRankedBars,
  formatNumber,
  formatPercent,
  type BarDatum,
  type ChartBand,
  type ChartMarker,
} from './svgCharts.js';
import { VERDICT_COLORS } from '../format/palette.js';
import { countOf, formatScoreValue, formatThreshold } from '../../analyze/formatFigures.js';

/** What each bar colour of a decision's chart means; every one is in the legend above the charts. */
const BAR_COLORS = Object.freeze({
  movedTo: VERDICT_COLORS.move,
  incumbent: VERDICT_COLORS.stay,
  offered: VERDICT_COLORS.menu,
  runnerUp: '#f0c36a',
  top: '#7f93c4',
  other: '#b3bac8',
});

const BAR_LEGEND: readonly (readonly [color: string, label: string])[] = [
  [BAR_COLORS.movedTo, 'moved to'],
  [BAR_COLORS.incumbent, 'incumbent (kept or not)'],
  [BAR_COLORS.offered, 'offered in a menu'],
  [BAR_COLORS.runnerUp, 'runner-up, not offered'],
  [BAR_COLORS.top, 'ranked first, not taken (the turn stayed or nothing matched)'],
  [BAR_COLORS.other, 'any other candidate'],
];

/** The colour key of the ranked bars, with the near-tie zone and the floor. */
function barLegend(): string {
  const swatch = (style: string) =>
    `<span style="display:inline-block;width:12px;height:12px;vertical-align:-2px;margin-right:4px;${style}"></span>`;
  const items = [
    ...BAR_LEGEND.map(
      ([color, label]) => `${swatch(`background:${color};border-radius:2px`)}${escapeHtml(label)}`,
    ),
    `${swatch('background:#fbe7b5')}${escapeHtml('near-tie zone: a score here ties with the top')}`,
    `${swatch('border-left:2px dashed #c8463d;width:0')}${escapeHtml('the floor')}`,
  ];
  return `<p class="legend" style="margin:0 0 10px">${items.map((i) => `<span style="margin-right:14px;white-space:nowrap">${i}</span>`).join(' ')}</p>`;
}

/** Decisions drawn; a longer timeline is cut (the text formats list them all). */
export const MAX_EXPLAIN_DECISIONS = 200;
/** Candidates drawn per decision. */
const MAX_BARS = 15;

/** Links to open a trace elsewhere, by trace id. */
export type TraceLinkLookup = (traceId: string) => { readonly jaeger?: string; readonly grafana?: string };

/** The explain page. */
export function renderExplainHtml(report: ExplainReport, stats?: ReadStats, links?: TraceLinkLookup): string {
  const sections: HtmlSection[] = [];
  let drawn = 0;
  let body = '';
  for (const entry of report.entries) {
    if (entry.kind === 'decision') {
      if (drawn >= MAX_EXPLAIN_DECISIONS) continue;
      drawn++;
      body += renderDecision(entry, drawn, links);
    } else if (entry.kind === 'turn') {
      const r = entry.record;
      body += `<p class="intro">${escapeHtml(`${time(r.timeUnixMs)} · turn routed by ${r.by}${r.from === undefined ? '' : ` from ${r.from}`}${r.to === undefined ? '' : ` to ${r.to}`}${r.offered === undefined ? '' : ` (offered ${r.offered.join(', ')})`}`)}</p>`;
    } else {
      const m = entry.record.mark;
      body += `<p><b style="color:#b8382f">${escapeHtml(`${time(entry.record.timeUnixMs)} · marked misrouted`)}</b>${escapeHtml(`${m.expected === undefined ? '' : ` — expected ${m.expected}`}${m.reason === undefined ? '' : ` (${m.reason})`}${m.source === undefined ? '' : ` by ${m.source}`}`)}</p>`;
    }
  }
  sections.push({
    title: 'Decisions in order',
    intro:
      report.decisions === 0
        ? 'No routing decision matched this id.'
        : `Bars are raw scores, with each candidate's share of the scorer's softmax in brackets.` +
          (report.decisions > drawn ? ` The first ${drawn} of ${report.decisions} decisions are drawn.` : ''),
    body: (report.decisions === 0 ? '' : barLegend()) + body,
  });
  // Marks arrive as events on the decision span or as feedback spans; count both.
  const misroutes = report.entries.reduce(
    (n, e) => n + (e.kind === 'misroute' ? 1 : e.kind === 'decision' ? e.record.misroutes.length : 0),
    0,
  );
  return renderHtmlPage({
    title: `routescope explain`,
    subtitle: `${report.target} — matched by ${report.matchedBy.length === 0 ? 'nothing' : report.matchedBy.join(' and ')}`,
    stats: [
      { label: 'decisions', value: formatNumber(report.decisions) },
      { label: 'traces', value: formatNumber(report.traceIds.length) },
      { label: 'conversations', value: formatNumber(report.conversationIds.length) },
      { label: 'misroute marks', value: formatNumber(misroutes), tone: misroutes > 0 ? 'bad' : 'good' },
    ],
    sections,
    notes: [
      ...(report.truncated > 0
        ? [`${countOf(report.truncated, 'matching record')} beyond the limit were not kept.`]
        : []),
      ...inputNotes(stats),
    ],
  });
}

function renderDecision(e: ExplainedDecision, n: number, links: TraceLinkLookup | undefined): string {
  const d = e.record;
  const top = d.ranked[0];
  const topScore = top !== undefined && Number.isFinite(top.score) ? top.score : undefined;
  const margin = d.policy.nearTieMargin;
  const incumbent = d.incumbent?.id;
  const shown = d.ranked.slice(0, MAX_BARS);
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
  const marks: ChartMarker[] = [];
  if (d.effectiveFloor !== undefined && Number.isFinite(d.effectiveFloor)) {
    marks.push({
      value: d.effectiveFloor,
      label: 'floor',
      valueText: formatThreshold(d.effectiveFloor),
      color: '#c8463d',
    });
  }
  const band = nearTieZone(topScore, margin, shown);
  const chart = drawRankedBars(data, {
    title: `Decision ${n}: candidates`,
    width: 1100,
    marks,
    valueFormat: formatScoreValue,
    ...(band === undefined ? {} : { band }),
  });
  const l = links?.(d.traceId);
  const linkHtml = [
    l?.jaeger === undefined ? '' : safeLink(l.jaeger, 'Jaeger'),
    l?.grafana === undefined ? '' : safeLink(l.grafana, 'Grafana'),
  ]
    .filter((x) => x !== '')
    .join(' · ');
  const cf = [
    describeCounterfactual(e.counterfactuals.margin),
    ...e.counterfactuals.floor.map(describeCounterfactual),
  ];
  if (e.counterfactuals.noFloor !== undefined) cf.push(describeCounterfactual(e.counterfactuals.noFloor));
  const problems = [
    ...e.anomalies.map((a) =>
      a.kind === 'inconsistent' ? `inconsistent: ${a.differences.join('; ')}` : a.kind,
    ),
    ...(e.replay.kind === 'undecidable' ? [`not replayable: ${e.replay.reason}`] : []),
  ];
  const omitted =
    d.omitted > 0 || d.ranked.length > shown.length ? d.omitted + d.ranked.length - shown.length : 0;
  return (
    `<div class="decision"><h3 style="margin:0 0 4px;font-size:15px">${escapeHtml(`${n}. ${time(d.timeUnixMs)}`)} ${htmlVerdict(d.verdict).html} ` +
    `<span style="color:#6b7385;font-weight:normal">${escapeHtml(`${d.router ?? '(no router)'} / ${d.scorer ?? '(no scorer)'}`)} · trace <code class="id">${escapeHtml(d.traceId)}</code>` +
    `${d.conversationId === undefined ? '' : ` · conversation ${htmlId(d.conversationId, 32)}`}</span></h3>` +
    `<p style="margin:2px 0 8px">${escapeHtml(e.why)} <span style="color:#6b7385">${escapeHtml(`(judged as ${e.semantics})`)}</span></p>${chart}` +
    (omitted > 0
      ? `<p class="intro">${escapeHtml(`${countOf(omitted, 'lower-ranked candidate')} not drawn.`)}</p>`
      : '') +
    `<p style="margin:6px 0 0"><b>What would have changed it:</b></p><ul style="margin:2px 0">${cf.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>` +
    (d.misroutes.length > 0
      ? `<p style="color:#b8382f"><b>Marked misrouted</b>${escapeHtml(d.misroutes.map((m) => (m.expected === undefined ? '' : ` — expected ${m.expected}`)).join(''))}</p>`
      : '') +
    (problems.length > 0 ? `<p style="color:#b8382f">${escapeHtml(problems.join(' · '))}</p>` : '') +
    (linkHtml === '' ? '' : `<p>Open the trace: ${linkHtml}</p>`) +
    '</div>'
  );
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

/** One counterfactual as a sentence. */
export function describeCounterfactual(c: Counterfactual | NoCounterfactual): string {
  if (c.kind === 'none') return `${c.parameter}: ${c.reason}`;
  const result = describeResult(c.result);
  if (c.kind === 'margin') {
    const to = c.bound === 'above' ? `just above ${formatScoreValue(c.gap)}` : formatScoreValue(c.to);
    return `${c.direction === 'raise' ? 'Raise' : 'Lower'} the margin from ${formatThreshold(c.from)} to ${to} (the gap is ${formatScoreValue(c.gap)}) → ${result}.`;
  }
  const at = c.bound === 'below' ? `just below ${formatScoreValue(c.pivot.score)}` : formatScoreValue(c.to);
  const verb =
    c.direction === 'declare'
      ? `Declare a floor ${at}`
      : `${c.direction === 'raise' ? 'Raise' : 'Lower'} the floor from ${c.from === null ? 'none' : formatThreshold(c.from)} to ${at}`;
  return `${verb} (${c.pivot.id} scores ${formatScoreValue(c.pivot.score)}) → ${result}.`;
}

function describeResult(v: VerdictSummary): string {
  if (v.verdict === 'move') return `move to ${v.to ?? '?'}`;
  if (v.verdict === 'menu') return `menu [${(v.offered ?? []).join(', ')}]`;
  return v.verdict;
}

function time(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace('T', ' ').slice(0, 23) : '?';
}

/** A link only for http(s) URLs; anything else is shown as text. */
function safeLink(url: string, label: string): string {
  if (!/^https?:\/\//i.test(url)) return escapeHtml(`${label}: ${url}`);
  return `<a href="${escapeHtml(url)}" rel="noreferrer noopener" target="_blank">${escapeHtml(label)}</a>`;
}
