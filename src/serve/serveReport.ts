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
import { createFloorlessAnalysis } from '../analyze/findFloorlessScorers.js';
import { createHotspotAnalysis } from '../analyze/findNearTieHotspots.js';
import { countRecordKind, createRecordKindCounts } from '../analyze/recordKindCounts.js';
import { createSummaryAnalysis } from '../analyze/summarizeDecisions.js';
import type { Block, Figure, ReportDocument } from '../report/document.js';
import { countOf } from '../report/formatValues.js';
import { analyzeToDocument, analyzeToJson, type AnalyzeView } from '../report/presentAnalyze.js';
import type { InputSummary } from '../report/presentInput.js';
import type { TraceRecord } from '../record/types.js';
import { createWindowIndex, type WindowIndex } from './browse/windowIndex.js';
import type { ServeState } from './receiverCounts.js';
import { emptyStateDocument, receiverBlocks } from './receiverBlocks.js';
import { NEVER_PAUSE, type Slicer } from './sliceWork.js';

/** Nothing has arrived yet (no request taken, nothing in the window). */
export function isEmptyState(state: ServeState): boolean {
  return state.counts.requests.accepted === 0 && state.window.size === 0;
}

/** Every record of the window through `sinks`, oldest first, a slice at a time (`slicer`). */
export async function replayWindow(
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

/** What one view of the window makes: analyze's view of it, and the index its lists and search read. */
export interface WindowView {
  readonly view: AnalyzeView;
  readonly index: WindowIndex;
}

/**
 * The analyze view and the index of the window: its slices' analyses merged (windowSlices), made in one go
 * of the records held at that moment, in milliseconds at any window size.
 */
export function buildWindowView(state: ServeState): WindowView {
  const merged = state.slices.view(state.window);
  return {
    view: { ...merged.view, input: inputOf(state, merged.records) },
    // Made when a list or a search first reads it.
    get index() {
      return merged.index;
    },
  };
}

/**
 * The same view made by replaying every record of the window through fresh analyses, a slice of time at a
 * time: what the merged slices must equal (the tests' oracle, and a check of a running serve).
 */
export async function replayWindowView(state: ServeState, slicer: Slicer = NEVER_PAUSE): Promise<WindowView> {
  const index = createWindowIndex();
  const summary = createSummaryAnalysis({ policy: state.policy }, index.observe);
  const hotspots = createHotspotAnalysis({});
  const floorless = createFloorlessAnalysis({});
  const digest = createChartDigest();
  const records = await replayWindow(state, [summary, index, hotspots, floorless, digest], slicer);
  const view: AnalyzeView = {
    summary: summary.finish(),
    hotspots: hotspots.finish(),
    floorless: floorless.finish(),
    input: inputOf(state, records),
    gates: [],
    digest: digest.finish(),
  };
  return { view, index: index.finish(summary) };
}

/** Where each counting tile of the overview leads: the list of what it counts. */
const TILE_LINKS: Readonly<Record<string, string>> = {
  decisions: '/decisions',
  'near-tie rate': '/decisions?near=1',
  'menu rate': '/decisions?verdict=menu',
  'floorless decisions': '/decisions?floorless=1',
  inconsistent: '/decisions?inconsistent=1',
  'misroute marks': '/misroutes',
};

/** The overview's figures, each linked to its list. */
function linkTiles(block: Block): Block {
  if (block.kind !== 'figures') return block;
  return {
    ...block,
    items: block.items.map((f): Figure => {
      const href = TILE_LINKS[f.label];
      return href === undefined ? f : { ...f, href };
    }),
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
    ...rest.map(linkTiles),
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
/** What serve read, as the input section of its reports says it. */
export function inputOf(state: ServeState, records: InputSummary['records']): InputSummary {
  return {
    inputs: [state.endpoint],
    stats: state.stats,
    records,
    requests: state.counts.requests.accepted + state.counts.requests.ignored,
  };
}
