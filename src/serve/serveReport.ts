/**
 * serveReport — what `serve` shows: the analyze report of the window, `explain` for one id, and the empty
 * state, each as the one report document the CLI's pages render.
 *
 * The page is not a second report: the window's records are replayed through the very analyses of `routescope
 * analyze` and `explain`, and their documents are those commands' documents, with one section in front that
 * says what `serve` received, what its window holds and what it evicted (so a figure over the window is never
 * mistaken for one over everything). Before anything arrived the page says exactly how to send it something.
 * Pure. No I/O.
 */
import { createChartDigest } from '../analyze/chartDigest.js';
import { createExplainAnalysis, type ExplainAnalysis } from '../analyze/explainDecisions.js';
import { createFloorlessAnalysis } from '../analyze/findFloorlessScorers.js';
import { createHotspotAnalysis } from '../analyze/findNearTieHotspots.js';
import { countRecordKind, createRecordKindCounts } from '../analyze/recordKindCounts.js';
import { createSummaryAnalysis } from '../analyze/summarizeDecisions.js';
import { look, tone, type Block, type Inline, type ReportDocument, type Span } from '../report/document.js';
import { countOf, formatCount } from '../report/formatValues.js';
import { analyzeToDocument, analyzeToJson, type AnalyzeView } from '../report/presentAnalyze.js';
import { explainToDocument, explainToJson, type ExplainView } from '../report/presentExplain.js';
import type { InputSummary } from '../report/presentInput.js';
import type { TraceRecord } from '../record/types.js';
import type { ServeState } from './receiverCounts.js';
import { NEVER_PAUSE, type Slicer } from './sliceWork.js';

/** Nothing has arrived yet (no request taken, nothing in the window). */
export function isEmptyState(state: ServeState): boolean {
  return state.counts.requests.accepted === 0 && state.window.size === 0;
}

/** Every record of the window through `sinks`, oldest first, a slice at a time (`slicer`). */
async function replayWindow(
  state: ServeState,
  sinks: readonly { add(r: TraceRecord): void }[],
  slicer: Slicer,
): Promise<InputSummary['records']> {
  const records = createRecordKindCounts();
  for (const r of state.window.records()) {
    for (const sink of sinks) sink.add(r);
    countRecordKind(records, r);
    const pause = slicer.pause();
    if (pause !== undefined) await pause;
  }
  return records;
}

/**
 * The analyze view of the window, replayed a slice at a time (records that arrive meanwhile wait for the next
 * view; records evicted meanwhile are skipped).
 */
export async function buildAnalyzeView(
  state: ServeState,
  slicer: Slicer = NEVER_PAUSE,
): Promise<AnalyzeView> {
  const summary = createSummaryAnalysis({ policy: state.policy });
  const hotspots = createHotspotAnalysis({});
  const floorless = createFloorlessAnalysis({});
  const digest = createChartDigest();
  const records = await replayWindow(state, [summary, hotspots, floorless, digest], slicer);
  return {
    summary: summary.finish(),
    hotspots: hotspots.finish(),
    floorless: floorless.finish(),
    input: inputOf(state, records),
    gates: [],
    digest: digest.finish(),
  };
}

/** The live page's document: the empty state, or the receiver section and the analyze report. */
export function serveToDocument(state: ServeState, view: AnalyzeView): ReportDocument {
  if (isEmptyState(state)) return emptyStateDocument(state);
  const report = analyzeToDocument(view);
  const [, ...rest] = report;
  const [live, ...receiver] = receiverBlocks(state);
  // The live line joins analyze's subtitle; the receiver's own section closes the page.
  return [
    {
      kind: 'title',
      text: `routescope serve — ${countOf(state.window.decisions, 'routing decision')} in the window`,
    },
    live!,
    ...rest,
    ...receiver,
  ];
}

/** The JSON of the live page (`/report.json`): analyze's document plus what the receiver saw. */
export function serveToJson(
  state: ServeState,
  schemaVersion: number,
  view: AnalyzeView,
): Record<string, unknown> {
  return {
    ...analyzeToJson(view, schemaVersion),
    command: 'serve',
    serve: {
      endpoint: state.endpoint,
      requests: state.counts.requests,
      wireBytes: state.counts.wireBytes,
      decisionsReceived: state.counts.decisionsReceived,
      window: {
        maxDecisions: state.window.config.maxDecisions,
        decisions: state.window.decisions,
        records: state.window.size,
        evicted: state.window.evicted,
        liveBytes: state.window.liveBytes,
        maxBytes: state.window.config.maxBytes,
        stringsCut: state.window.stringsCut,
      },
      ...(state.forwarded === undefined ? {} : { forwarded: { ...state.forwarded } }),
      ...(state.out === undefined ? {} : { out: state.out }),
      ...(state.outStatus === undefined
        ? {}
        : {
            outWritten: { ...state.outStatus.written },
            ...(state.outStatus.failing === undefined ? {} : { outFailing: state.outStatus.failing }),
          }),
      ...(state.forward === undefined ? {} : { forward: state.forward }),
    },
  };
}

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
export function explainPageView(explain: WindowExplain, page: ExplainPage): ExplainView {
  const from = (page.number - 1) * EXPLAIN_PAGE_SIZE;
  return {
    report: explain.analysis.finish({ from, count: EXPLAIN_PAGE_SIZE }),
    links: {},
    input: explain.input,
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
              `serve explains the first ${formatCount(SERVE_EXPLAIN_MAX_RECORDS)} records of one id; ${formatCount(view.report.truncated)} more are in the window${state.out === undefined ? '' : ', and routescope explain over the --out file shows them all'}.`,
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
        `No record of the window has trace id or conversation id ${id}.${evicted > 0 ? ` The window has evicted ${countOf(evicted, 'older decision')}; run routescope explain over the --out file for those.` : ''}`,
        'warn',
      ),
    },
    ...doc.slice(1),
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

function inputOf(state: ServeState, records: InputSummary['records']): InputSummary {
  return {
    inputs: [state.endpoint],
    stats: state.stats,
    records,
    requests: state.counts.requests.accepted + state.counts.requests.ignored,
  };
}

/** Bytes as MiB, one decimal. */
function formatMib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Where `--out` goes, what it took, and, while its writes fail, that they do. */
function outText(state: ServeState): Inline {
  const status = state.outStatus;
  const parts: (string | Span)[] = [look(state.out!, 'code')];
  if (status === undefined) return parts;
  parts.push(` · ${countOf(status.written.requests, 'request')}, ${formatCount(status.written.bytes)} bytes`);
  if (status.failing !== undefined)
    parts.push(
      tone(
        ` · writes are failing (${status.failing}): requests are answered 503 until a write succeeds again`,
        'bad',
      ),
    );
  return parts;
}

function receiverBlocks(state: ServeState): Block[] {
  const { counts, window } = state;
  const forwarded = state.forwarded ?? { ok: 0, failed: 0, dropped: 0 };
  const ev = window.evicted;
  const evicted = ev.decisions + ev.turns + ev.misroutes;
  return [
    {
      kind: 'paragraph',
      only: 'html',
      text: [
        'Live: OTLP/HTTP received at ',
        look(state.endpoint, 'code'),
        `; ${countOf(counts.decisionsReceived, 'decision')} received, the newest ${formatCount(window.config.maxDecisions)} kept.`,
      ],
    },
    { kind: 'heading', text: 'Receiver' },
    {
      kind: 'fields',
      rows: [
        ['endpoint', look(`${state.endpoint}/v1/traces`, 'code')],
        [
          'requests',
          `${formatCount(counts.requests.accepted)} accepted · ${formatCount(counts.requests.invalid)} invalid · ${formatCount(counts.requests.refused)} refused (busy, too large, unauthorized, another site, --out not writing, stopping) · ${formatCount(counts.requests.ignored)} metrics/logs ignored`,
        ],
        ['decisions received', formatCount(counts.decisionsReceived)],
        [
          'spans',
          counts.rejectedItems === 0
            ? `${formatCount(counts.items)} received`
            : [
                `${formatCount(counts.items)} received · `,
                tone(`${formatCount(counts.rejectedItems)} could not be read`, 'bad'),
              ],
        ],
        [
          'window',
          `${countOf(window.decisions, 'decision')} of at most ${formatCount(window.config.maxDecisions)} (--max-decisions), ${countOf(window.size, 'record')} in all, ${formatMib(window.liveBytes)} of ${formatMib(window.config.maxBytes)} (--max-window-mb)`,
        ],
        ...(window.stringsCut === 0
          ? []
          : [
              [
                'strings cut',
                tone(
                  `${formatCount(window.stringsCut)} ids, names or values longer than ${formatCount(window.config.maxString)} characters were stored cut (--max-string), each marked '… [cut from N characters, #hash]'`,
                  'warn',
                ),
              ] as const,
            ]),
        [
          'evicted',
          evicted === 0
            ? tone('none', 'good')
            : tone(
                `${formatCount(ev.decisions)} decisions, ${formatCount(ev.turns)} turn routes, ${formatCount(ev.misroutes)} misroute marks (oldest first; the figures below are over the window)`,
                'warn',
              ),
        ],
        ...(state.out === undefined ? [] : [['written to', outText(state)] as const]),
        ...(state.forward === undefined
          ? []
          : [
              [
                'forwarded to',
                [
                  look(state.forward, 'code'),
                  ` · ${formatCount(forwarded.ok)} delivered`,
                  forwarded.failed + forwarded.dropped === 0
                    ? ''
                    : tone(
                        ` · ${formatCount(forwarded.failed)} failed · ${formatCount(forwarded.dropped)} dropped`,
                        'bad',
                      ),
                ],
              ] as const,
            ]),
      ],
    },
  ];
}

function emptyStateDocument(state: ServeState): ReportDocument {
  const refused = state.counts.requests.invalid + state.counts.requests.refused;
  return [
    { kind: 'title', text: 'routescope serve — waiting for routing spans' },
    { kind: 'paragraph', text: 'Nothing has arrived yet. Point your agent’s OTLP/HTTP exporter here:' },
    { kind: 'paragraph', text: look(`OTEL_EXPORTER_OTLP_ENDPOINT=${state.endpoint}`, 'code') },
    {
      kind: 'list',
      items: [
        [
          'turn the routescope strategy on in your agent (one line; the README has the whole setup): ',
          look('agent.enable.observability({ strategy: routescopeObservability() })', 'code'),
          ', or wrap a hand-written router with ',
          look('instrumentDecideTier2', 'code'),
          ';',
        ],
        [
          'export with ',
          look('new OTLPTraceExporter()', 'code'),
          ' from @opentelemetry/exporter-trace-otlp-http (or -proto), which reads that variable and posts to ',
          look(`${state.endpoint}/v1/traces`, 'code'),
          ';',
        ],
        [
          'or post an agentfootprint event log (JSON lines): ',
          look(
            `curl --data-binary @events.jsonl -H 'content-type: application/x-ndjson' ${state.endpoint}/agentfootprint/events`,
            'code',
          ),
          ';',
        ],
        ['or try it: ', look('routescope demo --serve', 'code'), ' runs the demo agent against a serve.'],
      ],
    },
    ...(refused > 0
      ? [
          {
            kind: 'paragraph' as const,
            text: tone(
              `${countOf(refused, 'request')} arrived but could not be taken (invalid, too large or unauthorized): see the serve process's stderr.`,
              'bad',
            ),
          },
        ]
      : []),
    {
      kind: 'paragraph',
      text: [
        'This page updates by itself as spans arrive. Prometheus scrapes ',
        look(`${state.endpoint}/metrics`, 'code'),
        '.',
      ],
    },
  ];
}
