/**
 * serveExplain — `explain` of one id over serve's window, a page at a time.
 *
 * The window is replayed once per id through explain's own analysis, which keeps the matched records; a page
 * explains only its 100 (the replay and counterfactuals are the costly part). The page links its ids (the
 * conversation's other decisions, the trace in explain and, when configured, in Jaeger or Grafana) and the
 * lists, and says so when the id is not, or no longer, in the window. Pure. No I/O.
 */
import { createExplainAnalysis, type ExplainAnalysis } from '../analyze/explainDecisions.js';
import { plainText, tone, type Block, type ReportDocument, type Span } from '../report/document.js';
import { countOf, formatCount } from '../report/formatValues.js';
import { explainToDocument, explainToJson, type ExplainView } from '../report/presentExplain.js';
import type { InputSummary } from '../report/presentInput.js';
import { buildTraceLinksFor, type TraceLinkConfig } from '../report/traceLinks.js';
import { explainHref } from './browse/browseQueries.js';
import type { ServeState } from './receiverCounts.js';
import { inputOf, replayWindow } from './serveReport.js';
import { NEVER_PAUSE, type Slicer } from './sliceWork.js';

/** Explained records one explain page shows (a conversation of 10,000 decisions is 100 pages, not one). */
export const EXPLAIN_PAGE_SIZE = 100;

/** Records of one id an explain over the window keeps, as `routescope explain` does (past it, counted). */
export const SERVE_EXPLAIN_MAX_RECORDS = 10_000;

/**
 * The window replayed through explain for one id: its matched records, kept, and explained a page at a time
 * when a page is asked for (explaining a decision, its replay and counterfactuals, is the costly part).
 */
export interface WindowExplain {
  readonly analysis: ExplainAnalysis;
  /** Matched records kept: what the pages hold together. */
  readonly records: number;
  readonly input: InputSummary;
}

/** `explain` of one id over the window, replayed a slice at a time; no decision explained yet. */
export async function buildWindowExplain(
  state: ServeState,
  id: string,
  slicer: Slicer = NEVER_PAUSE,
): Promise<WindowExplain> {
  const analysis = createExplainAnalysis(id, { policy: state.policy, maxRecords: SERVE_EXPLAIN_MAX_RECORDS });
  const kinds = await replayWindow(state, [analysis], slicer);
  const records = analysis.finish({ from: 0, count: 0 }).records;
  return { analysis, records, input: inputOf(state, kinds) };
}

/** Which page of an explain, of how many. */
export interface ExplainPage {
  /** 1-based. */
  readonly number: number;
  readonly pages: number;
  /** Where the other pages are: the path this page was asked on. */
  readonly path: string;
}

/** The pages of `explain` and the one asked for (past the last: the last). */
export function explainPageOf(explain: WindowExplain, asked: number, path: string): ExplainPage {
  const pages = Math.max(1, Math.ceil(explain.records / EXPLAIN_PAGE_SIZE));
  return { number: Math.min(Math.max(1, asked), pages), pages, path };
}

/** The explain view of one page: only its records explained. */
export function explainPageView(
  explain: WindowExplain,
  page: ExplainPage,
  traceLinks: TraceLinkConfig = {},
): ExplainView {
  const from = (page.number - 1) * EXPLAIN_PAGE_SIZE;
  const report = explain.analysis.finish({ from, count: EXPLAIN_PAGE_SIZE });
  // The page's own traces, in the order they first appear on it.
  const records = report.entries.map((e) => e.record);
  const traceIds = [...new Set(records.map((r) => r.traceId))];
  const links = buildTraceLinksFor(traceIds, records, report.syntheticTraceIds, traceLinks);
  return {
    report,
    links,
    input: explain.input,
    idHref: (_kind, id) => explainHref(id),
  };
}

/** The explain page's document (`view` one page of it), saying so when the id is not (or no longer) in the window. */
export function explainPageDocument(
  state: ServeState,
  id: string,
  view: ExplainView,
  page: ExplainPage,
): ReportDocument {
  const full = explainToDocument(view);
  const doc: ReportDocument =
    view.report.truncated === 0
      ? full
      : [
          ...full.slice(0, 2),
          {
            kind: 'paragraph',
            text: tone(
              `serve explains the first ${countOf(SERVE_EXPLAIN_MAX_RECORDS, 'record')} of one id; ${formatCount(view.report.truncated)} more are in the window${state.out === undefined ? '' : ', and routescope explain over the --out file shows them all'}.`,
              'warn',
            ),
          },
          ...full.slice(2),
        ];
  if (view.report.records > 0) {
    if (page.pages === 1) return doc;
    const from = (page.number - 1) * EXPLAIN_PAGE_SIZE;
    const to = Math.min(view.report.records, from + EXPLAIN_PAGE_SIZE);
    const link = (n: number, text: string): Span => ({ text, href: `${page.path}?page=${n}` });
    const nav: Block = {
      kind: 'paragraph',
      text: [
        `Page ${formatCount(page.number)} of ${formatCount(page.pages)}: records ${formatCount(from + 1)}–${formatCount(to)} of ${formatCount(view.report.records)}. `,
        ...[
          ...(page.number > 1 ? [link(1, '« first'), link(page.number - 1, '‹ previous')] : []),
          ...(page.number < page.pages ? [link(page.number + 1, 'next ›'), link(page.pages, 'last »')] : []),
        ].flatMap((l, i) => (i === 0 ? [l] : [' · ', l])),
      ],
    };
    // A card of its own before the first section (the paragraphs under the title are the page's plain-text
    // header, where a link would be text), and again at the end.
    const first = doc.findIndex((b) => b.kind === 'heading');
    const at = first === -1 ? doc.length : first;
    return [...doc.slice(0, at), nav, ...doc.slice(at), nav];
  }
  const evicted = state.window.evicted.decisions;
  return [
    ...doc.slice(0, 1),
    {
      kind: 'paragraph',
      text: tone(
        `No record of the window has trace id or conversation id ${id}.${evicted > 0 ? ` The window has evicted ${countOf(evicted, 'older decision')}; run routescope explain over the --out file for those.` : ''} Search the window for the start of it with the box below, or walk the conversations.`,
        'warn',
      ),
    },
    // explain's own sentence of the same would say it twice.
    ...doc
      .slice(1)
      .filter((b) => !(b.kind === 'paragraph' && plainText(b.text).startsWith('No routing record has'))),
  ];
}

/** The JSON of one explain page (`/explain/<id>.json`): the CLI's document of one page (`view`) of its entries. */
export function explainPageJson(
  view: ExplainView,
  page: ExplainPage,
  schemaVersion: number,
): Record<string, unknown> {
  return {
    ...explainToJson(view, schemaVersion),
    page: {
      number: page.number,
      pages: page.pages,
      size: EXPLAIN_PAGE_SIZE,
      entries: view.report.records,
    },
  };
}
