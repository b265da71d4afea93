// bench/serveBrowse.bench.js — what serve's on-call path costs over a full default window: 100,000 decisions.
//
// The decisions are the generated trace file's (bench/generateTraces.js, a routing span in 5), read by the
// shipped readers, then replayed the way serve replays its window: the overview's summary alone, and the
// summary with the window index the lists and search read (the difference is the index's cost per revision).
// Then the index's retained heap (after a forced GC), and per request: the decision list unfiltered and
// filtered (router + near-tie, misrouted), a page of it rendered as HTML, an exact search and a prefix search.
// Each request is timed as the median of 25 runs. Then the live page over the same 100,000 decisions held by a
// real serve runtime (its packed window and the window's slices of accumulators): what taking them costs, the
// slices' retained heap, one view merged from the slices, the page rendered from it as serve sends it, and for
// comparison the window replayed through fresh analyses (what a render cost before the slices). A serve nobody
// watches keeps no analyses: what it takes a decision then, and what the first view's catch-up costs.
// Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { URLSearchParams } from 'node:url';
import { runInNewContext } from 'node:vm';
import { generateTraceFile } from './generateTraces.js';
import { readTraceInputs } from '../dist/trace/readTraceInputs.js';
import { createReadStats } from '../dist/trace/readStats.js';
import { createSummaryAnalysis } from '../dist/analyze/summarizeDecisions.js';
import { createWindowIndex } from '../dist/serve/browse/windowIndex.js';
import {
  filterDecisionPositions,
  pageOf,
  readDecisionFilter,
  searchWindow,
} from '../dist/serve/browse/browseQueries.js';
import { answerBrowse } from '../dist/serve/browse/browseRoutes.js';
import { serveNav } from '../dist/serve/browse/browsePages.js';
import { createServeRuntime } from '../dist/serve/serveRuntime.js';
import { createDecisionWindow } from '../dist/serve/decisionWindow.js';
import { buildWindowView, replayWindowView, serveToDocument } from '../dist/serve/serveReport.js';
import { createSlicer } from '../dist/serve/sliceWork.js';
import { renderHtml } from '../dist/report/html/renderHtml.js';
import { reportTarget } from './targets.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const WANTED = 100_000;

const dir = mkdtempSync(join(tmpdir(), 'routescope-browse-'));
const file = join(dir, 'traces.jsonl');
// 150 MB holds about 24,000 decisions; they are used again, each copy with ids of its own, up to 100,000.
await generateTraceFile(file, 150 * 1024 * 1024, 7, 5);
const read = [];
for await (const r of readTraceInputs([file], createReadStats())) if (r.kind === 'decision') read.push(r);
rmSync(dir, { recursive: true, force: true });
const records = Array.from({ length: WANTED }, (_, i) => {
  const r = read[i % read.length];
  if (i < read.length) return r;
  const copy = Math.floor(i / read.length);
  return {
    ...r,
    traceId: `${copy.toString(16).padStart(2, '0')}${r.traceId.slice(2)}`,
    spanId: `${copy.toString(16).padStart(2, '0')}${r.spanId.slice(2)}`,
    ...(r.conversationId === undefined ? {} : { conversationId: `${r.conversationId}-${copy}` }),
  };
});
console.log(`decisions: ${records.length.toLocaleString('en-US')}`);

function replay(withIndex) {
  const index = withIndex ? createWindowIndex() : undefined;
  const summary = createSummaryAnalysis({}, index?.observe);
  const started = performance.now();
  for (const r of records) {
    summary.add(r);
    index?.add(r);
  }
  summary.finish();
  const built = index?.finish(summary);
  return { ms: performance.now() - started, index: built };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timed = (fn, runs = 25) =>
  median(
    Array.from({ length: runs }, () => {
      const t = performance.now();
      fn();
      return performance.now() - t;
    }),
  );

replay(false); // warm-up
const alone = median(Array.from({ length: 3 }, () => replay(false).ms));
const withIndex = median(Array.from({ length: 3 }, () => replay(true).ms));
gc();
const before = process.memoryUsage().heapUsed;
let { index } = replay(true);
gc();
const retained = process.memoryUsage().heapUsed - before;
console.log(`replay, summary alone:        ${alone.toFixed(0)} ms`);
console.log(
  `replay, summary + index:      ${withIndex.toFixed(0)} ms (+${(withIndex - alone).toFixed(0)} ms)`,
);
console.log(`index retained heap:          ${(retained / 1024 / 1024).toFixed(1)} MiB`);

const router = index.routers.values[0];
const params = (q) => new URLSearchParams(q);
const source = { index, evicted: 0, revision: 1, schemaVersion: 1 };
const rows = [
  ['list, unfiltered', () => pageOf(filterDecisionPositions(index, readDecisionFilter(params(''))), 1)],
  [
    'list, router + near-tie',
    () => pageOf(filterDecisionPositions(index, readDecisionFilter(params(`router=${router}&near=1`))), 1),
  ],
  [
    'list, misrouted',
    () => pageOf(filterDecisionPositions(index, readDecisionFilter(params('misrouted=1'))), 1),
  ],
  ['page as HTML (50 rows)', () => answerBrowse('/decisions', false, params('near=1'), source)],
  ['search, exact trace id', () => searchWindow(index, index.traceIds[4242])],
  ['search, prefix of 3', () => searchWindow(index, index.traceIds[4242].slice(0, 3))],
];
for (const [name, fn] of rows) console.log(`${`${name}:`.padEnd(30)}${timed(fn).toFixed(1)} ms`);
index = undefined;

// The live page: a real runtime holding the same decisions, taken in requests of 512 (an exporter's batch).
// First as a serve nobody watches (the slices only count), then the first view's catch-up, then a runtime whose
// page is open (every record analysed as it arrives).
gc();
const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const takeAll = (rt) => {
  const started = performance.now();
  for (let i = 0; i < records.length; i += 512) rt.take(records.slice(i, i + 512));
  return performance.now() - started;
};
let heapBefore = used();
let idle = createServeRuntime({ endpoint: 'http://127.0.0.1:4318' });
const takeIdleMs = takeAll(idle);
gc();
const heldIdle = used() - heapBefore;
const catchUpStarted = performance.now();
let longestStep = 0;
let stepStarted = performance.now();
const measuringSlicer = createSlicer();
await idle.state.slices.catchUp(idle.state.window, {
  pause() {
    const pause = measuringSlicer.pause();
    if (pause === undefined) return undefined;
    longestStep = Math.max(longestStep, performance.now() - stepStarted);
    return pause.then(() => {
      stepStarted = performance.now();
    });
  },
});
longestStep = Math.max(longestStep, performance.now() - stepStarted);
const catchUpMs = performance.now() - catchUpStarted;
idle = undefined;
gc();
heapBefore = used();
const runtime = createServeRuntime({ endpoint: 'http://127.0.0.1:4318' });
buildWindowView(runtime.state); // a page is open: analyse at arrival
const takeMs = takeAll(runtime);
gc();
const held = used() - heapBefore;
// The window alone (packing, eviction), for what the slices' analyses add to each record's arrival.
let windowAlone = createDecisionWindow();
const packStarted = performance.now();
for (const r of records) windowAlone.add(r);
const packMs = performance.now() - packStarted;
windowAlone = undefined;
const state = runtime.state;
const pageOfView = (view) =>
  renderHtml(serveToDocument(state, view.view), {
    live: { script: '/live.js', revision: 1 },
    nav: serveNav(),
  });
buildWindowView(state); // warm-up
const viewMs = timed(() => buildWindowView(state), 15);
const pageMs = timed(() => pageOfView(buildWindowView(state)), 15);
const indexMs = timed(() => buildWindowView(state).index, 15);
const replayMs = median(
  await Promise.all(
    [0, 1, 2].map(async () => {
      const t = performance.now();
      await replayWindowView(state);
      return performance.now() - t;
    }),
  ),
);
console.log(
  `live page, decisions held:    ${state.window.decisions.toLocaleString('en-US')} in ${state.slices.size} slices`,
);
console.log(
  `live page, take, nobody watching: ${((takeIdleMs * 1000) / records.length).toFixed(1)} µs a decision, window ${(heldIdle / 1024 / 1024).toFixed(1)} MiB (heap and buffers)`,
);
console.log(
  `live page, first view's catch-up: ${catchUpMs.toFixed(0)} ms in steps of at most ${longestStep.toFixed(0)} ms`,
);
console.log(
  `live page, take, page open:   ${((takeMs * 1000) / records.length).toFixed(1)} µs a decision (the window alone ${((packMs * 1000) / records.length).toFixed(1)} µs)`,
);
console.log(`live page, window + slices (heap and buffers): ${(held / 1024 / 1024).toFixed(1)} MiB`);
console.log(
  `live page, view + lists index: ${indexMs.toFixed(1)} ms (made when a list or search first asks)`,
);
console.log(`live page, view merged:       ${viewMs.toFixed(1)} ms`);
console.log(`live page, view + HTML page:  ${pageMs.toFixed(1)} ms`);
console.log(`live page, window replayed:   ${replayMs.toFixed(0)} ms (the render before slices)`);
// A full window that keeps evicting (spans keep arriving): one record of the oldest slice is gone, so each view
// also replays what that slice still holds, all but one of its records (the worst case).
const more = records.slice(0, 1).map((r) => ({ ...r, spanId: `ff${r.spanId.slice(2)}` }));
runtime.take(more);
const evictingMs = timed(() => pageOfView(buildWindowView(state)), 15);
console.log(
  `live page, view + HTML page while evicting: ${evictingMs.toFixed(1)} ms (${state.window.evicted.decisions} evicted, the oldest slice replayed)`,
);
const worst = Math.max(pageMs, evictingMs);
reportTarget(
  'live page render at a full default window (view + HTML, evicting or not): at most 50 ms',
  `${pageMs.toFixed(1)} ms full, ${evictingMs.toFixed(1)} ms evicting`,
  worst <= 50,
);
