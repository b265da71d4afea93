// bench/routingShare.bench.js — how `analyze --jobs 1` grows with the share of routing spans in the input.
//
// The same generator as the analyzer bench (bench/generateTraces.js), at one routing span in 5, in 20 (the
// default file) and in 200 spans, each file about the same size. Only routing spans are parsed and decoded, so
// the cost per byte should fall as they get rarer, and the cost per decision should rise (more bytes walked
// per decision). Each run is a child process timed by wall clock (including process start), the median of
// BENCH_REPEAT runs (default 3) kept; its verdict counts and decision count are checked against the
// generator's. Env: BENCH_SHARE_MB (default 100). Prints figures, asserts nothing but the counts.
import { join } from 'node:path';
import { MiB, root, rssSource, runChild, traceFile } from './childRuns.js';

const MB = Number(process.env.BENCH_SHARE_MB ?? 100);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const SHARES = [5, 20, 200];
const SEED = 1;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const col = (value, width) => String(value).padStart(width);
console.log(
  `node ${process.version}; analyze --jobs 1 --format json, median of ${REPEAT} runs (wall time, process start included); peak RSS from ${rssSource}`,
);
console.log(
  `${'routing spans'.padEnd(15)}${col('MiB', 6)}${col('spans', 10)}${col('decisions', 11)}${col('seconds', 9)}` +
    `${col('MB/s', 7)}${col('µs/decision', 13)}${col('ns/span', 9)}${col('peak RSS MiB', 14)}`,
);
for (const every of SHARES) {
  const { file, totals } = await traceFile(MB, SEED, every);
  runChild('sh', ['-c', 'cat "$0" > /dev/null', file]); // warm the page cache
  const runs = [];
  for (let i = 0; i < REPEAT; i++) {
    const r = runChild(process.execPath, [
      join(root, 'dist/bin/routescope.js'),
      'analyze',
      file,
      '--format',
      'json',
      '--jobs',
      '1',
    ]);
    const report = JSON.parse(r.stdout);
    const { unmatched, ...verdicts } = report.verdicts;
    for (const k of new Set([...Object.keys(verdicts), ...Object.keys(totals.verdicts)])) {
      if ((verdicts[k] ?? 0) !== (totals.verdicts[k] ?? 0) || unmatched !== 0) {
        throw new Error(
          `1 in ${every}: verdicts ${JSON.stringify(report.verdicts)}, expected ${JSON.stringify(totals.verdicts)}`,
        );
      }
    }
    if (report.decisions !== totals.routingSpans) {
      throw new Error(`1 in ${every}: ${report.decisions} decisions, expected ${totals.routingSpans}`);
    }
    runs.push(r);
  }
  const seconds = median(runs.map((r) => r.seconds));
  const rss = Math.max(...runs.map((r) => r.rssMiB ?? 0));
  const size = totals.bytes / MiB;
  console.log(
    `${`1 in ${every}`.padEnd(15)}${col(size.toFixed(0), 6)}${col(totals.spans, 10)}${col(totals.routingSpans, 11)}` +
      `${col(seconds.toFixed(2), 9)}${col((size / seconds).toFixed(0), 7)}` +
      `${col(((seconds * 1e6) / totals.routingSpans).toFixed(1), 13)}${col(((seconds * 1e9) / totals.spans).toFixed(0), 9)}` +
      `${col(rss === 0 ? 'n/a' : rss.toFixed(0), 14)}`,
  );
}
