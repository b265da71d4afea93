// bench/serveBrowse.bench.js — what serve's on-call path costs over a full default window: 100,000 decisions.
//
// The decisions are the generated trace file's (bench/generateTraces.js, a routing span in 5), read by the
// shipped readers, then replayed the way serve replays its window: the overview's summary alone, and the
// summary with the window index the lists and search read (the difference is the index's cost per revision).
// Then the index's retained heap (after a forced GC), and per request: the decision list unfiltered and
// filtered (router + near-tie, misrouted), a page of it rendered as HTML, an exact search and a prefix search.
// Each request is timed as the median of 25 runs. Prints figures; asserts nothing.
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
