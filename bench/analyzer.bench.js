// bench/analyzer.bench.js — how fast `routescope analyze` reads exported traces, beside what a user would run.
//
// Generates (once, cached in bench/data/, which git ignores) JSON-lines files of realistic agent traces with
// bench/generateTraces.js, then on each file, in one run: `cat file > /dev/null` (the I/O floor, page cache
// warm), bench/naiveVerdicts.js (split lines, JSON.parse every one, count verdicts: the naive floor), `jq`
// computing the same verdict counts (what a user would script), and `node dist/bin/routescope.js analyze FILE
// --format json` with --jobs 1 and --jobs 2 (threads forced with --jobs-min-mib 0). Every tool is a child
// process timed by wall clock; peak RSS is the child's own high-water mark from `/usr/bin/time -v` (or 'n/a'
// without it). Every tool's verdict counts are checked against the generator's. Prints MB/s, decisions/s, peak RSS and the ratios analyzer ÷ jq,
// ÷ naive, ÷ cat (as speed-ups: how many times faster the analyzer is). Asserts nothing but the counts.
// Env: BENCH_SIZES (MB, comma-separated; default 100,1000), BENCH_REPEAT (runs per tool, best kept; default 1),
// BENCH_JOBS (the --jobs values; default 1,2).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { generateTraceFile } from './generateTraces.js';
import { reportTarget } from './targets.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const dataDir = join(here, 'data');
const SIZES = (process.env.BENCH_SIZES ?? '100,1000').split(',').map(Number);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
const JOBS = (process.env.BENCH_JOBS ?? '1,2').split(',').map(Number);
const SEED = 1;
const MiB = 1024 * 1024;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const JQ_PROGRAM =
  'reduce (inputs | .resourceSpans[]?.scopeSpans[]?.spans[]?.attributes[]? | ' +
  'select(.key == "agentfootprint.routing.verdict") | .value.stringValue) as $v ({}; .[$v] += 1)';

/** The cached file of about `mb` MiB and the generator's totals for it. */
async function traceFile(mb) {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, `agent-traces-${mb}mb-seed${SEED}.jsonl`);
  const totalsFile = `${file}.totals.json`;
  if (existsSync(file) && existsSync(totalsFile)) {
    const totals = JSON.parse(readFileSync(totalsFile, 'utf8'));
    if (statSync(file).size === totals.bytes) return { file, totals };
  }
  process.stdout.write(`generating ${mb} MiB of traces into ${file} … `);
  const t0 = performance.now();
  const totals = await generateTraceFile(file, mb * MiB, SEED);
  writeFileSync(totalsFile, JSON.stringify(totals));
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { file, totals };
}

/** Run one command; wall seconds, peak RSS (MiB) and stdout. */
function run(command, args) {
  const argv = TIME === undefined ? [command, ...args] : ['-v', command, ...args];
  const t0 = performance.now();
  const result = spawnSync(TIME ?? command, argv, {
    cwd: root,
    maxBuffer: 256 * MiB,
    encoding: 'utf8',
  });
  const seconds = (performance.now() - t0) / 1000;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  }
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr ?? '');
  return { seconds, rssMiB: rss === null ? undefined : Number(rss[1]) / 1024, stdout: result.stdout };
}

function best(command, args) {
  let kept;
  for (let i = 0; i < REPEAT; i++) {
    const r = run(command, args);
    if (kept === undefined || r.seconds < kept.seconds)
      kept = { ...r, rssMiB: Math.max(r.rssMiB ?? 0, kept?.rssMiB ?? 0) || undefined };
  }
  return kept;
}

function sameCounts(found, expected) {
  const keys = new Set([...Object.keys(found), ...Object.keys(expected)]);
  for (const k of keys) if ((found[k] ?? 0) !== (expected[k] ?? 0)) return false;
  return true;
}

function check(tool, found, expected) {
  if (!sameCounts(found, expected)) {
    throw new Error(`${tool}: verdict counts ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`);
  }
}

const col = (value, width) => String(value).padStart(width);
const rows = [];
// One plain span: the smallest input that is a trace (an empty file is an input error, exit 2).
const TINY_TRACE = '{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"tiny"}]}]}]}\n';
// The fixed cost of every run (loading the CLI), measured on that: it weighs on small inputs only.
mkdirSync(dataDir, { recursive: true });
const tinyFile = join(dataDir, 'one-span.jsonl');
writeFileSync(tinyFile, TINY_TRACE);
const startup = best(process.execPath, [
  join(root, 'dist/bin/routescope.js'),
  'analyze',
  tinyFile,
  '--format',
  'json',
]);
console.log(
  `node ${process.version}; ${REPEAT} run(s) per tool, best wall time kept; peak RSS from ${TIME === undefined ? 'nothing (no /usr/bin/time)' : '/usr/bin/time -v'}`,
);
for (const mb of SIZES) {
  const { file, totals } = await traceFile(mb);
  const decisions = totals.routingSpans;
  const expected = totals.verdicts;
  const size = totals.bytes / MiB;
  run('sh', ['-c', 'cat "$0" > /dev/null', file]); // warm the page cache
  const results = [];
  const cat = best('sh', ['-c', 'cat "$0" > /dev/null', file]);
  results.push({ tool: 'cat > /dev/null', ...cat });
  const naive = best(process.execPath, [join(here, 'naiveVerdicts.js'), file]);
  check('naive', JSON.parse(naive.stdout).verdicts, expected);
  results.push({ tool: 'naive JSON.parse', ...naive });
  const jq = best('jq', ['-n', '-c', JQ_PROGRAM, file]);
  check('jq', JSON.parse(jq.stdout), expected);
  results.push({ tool: 'jq', ...jq });
  const analyzers = [];
  for (const jobs of JOBS) {
    const a = best(process.execPath, [
      join(root, 'dist/bin/routescope.js'),
      'analyze',
      file,
      '--format',
      'json',
      // --jobs-min-mib 0: the threads themselves are measured, also where analyze would not start them.
      ...(jobs === 1 ? [] : ['--jobs', String(jobs), '--jobs-min-mib', '0']),
    ]);
    const report = JSON.parse(a.stdout);
    const { unmatched, ...verdicts } = report.verdicts;
    check(`analyze --jobs ${jobs}`, verdicts, expected);
    if (report.decisions !== decisions || unmatched !== 0) {
      throw new Error(`analyze --jobs ${jobs}: ${report.decisions} decisions, expected ${decisions}`);
    }
    const row = { tool: `analyze --jobs ${jobs}`, ...a };
    results.push(row);
    analyzers.push(row);
  }
  console.log(
    `\n${size.toFixed(0)} MiB (analyze of a one-span file: ${startup.seconds.toFixed(2)} s, ${startup.rssMiB?.toFixed(0) ?? 'n/a'} MiB), ${totals.lines} lines, ${totals.spans} spans, ${decisions} routing spans (1 per ${(totals.spans / decisions).toFixed(1)})`,
  );
  console.log(
    `${'tool'.padEnd(20)}${col('seconds', 9)}${col('MB/s', 8)}${col('decisions/s', 13)}${col('peak RSS MiB', 14)}`,
  );
  for (const r of results) {
    console.log(
      `${r.tool.padEnd(20)}${col(r.seconds.toFixed(2), 9)}${col((size / r.seconds).toFixed(0), 8)}` +
        `${col(r.tool === 'cat > /dev/null' ? '-' : Math.round(decisions / r.seconds), 13)}` +
        `${col(r.rssMiB === undefined ? 'n/a' : r.rssMiB.toFixed(0), 14)}`,
    );
  }
  for (const a of analyzers) {
    const overJq = jq.seconds / a.seconds;
    const overNaive = naive.seconds / a.seconds;
    console.log(
      `${a.tool}: ${overJq.toFixed(2)}× jq's speed (target >= 3), ` +
        `${overNaive.toFixed(2)}× naive's (target > 1), ` +
        `${(cat.seconds / a.seconds).toFixed(3)}× cat's`,
    );
    reportTarget(`${mb} MiB, ${a.tool}: at least 3× jq`, `${overJq.toFixed(2)}×`, overJq >= 3);
    reportTarget(`${mb} MiB, ${a.tool}: faster than naive parse`, `${overNaive.toFixed(2)}×`, overNaive > 1);
  }
  if (analyzers.length > 1) {
    const speedUp = analyzers[0].seconds / analyzers.at(-1).seconds;
    console.log(
      `--jobs ${JOBS.at(-1)} speed-up over --jobs 1: ${speedUp.toFixed(2)}× (target >= 1.7 on 2 cores)`,
    );
    reportTarget(
      `${mb} MiB, --jobs ${JOBS.at(-1)} ÷ --jobs 1: at least 1.7×`,
      `${speedUp.toFixed(2)}×`,
      speedUp >= 1.7,
    );
  }
  rows.push({ mb, rss: analyzers.map((a) => a.rssMiB) });
}
// Blank lines: 64 MiB of newlines, then one span (one at a time they cost ~240 ns each: 17 s for this file).
const blankFile = join(dataDir, 'blank-64mb.jsonl');
if (!existsSync(blankFile) || statSync(blankFile).size !== 64 * MiB + TINY_TRACE.length) {
  writeFileSync(blankFile, Buffer.concat([Buffer.alloc(64 * MiB, 0x0a), Buffer.from(TINY_TRACE)]));
}
const blank = best(process.execPath, [
  join(root, 'dist/bin/routescope.js'),
  'analyze',
  blankFile,
  '--format',
  'json',
]);
if (JSON.parse(blank.stdout).input.spans !== 1)
  throw new Error('analyze of the blank-lines file lost its span');
console.log(
  `\n64 MiB of blank lines, then one span: analyze ${blank.seconds.toFixed(2)} s ` +
    `(${(64 / blank.seconds).toFixed(0)} MB/s; ${(blank.seconds - startup.seconds).toFixed(2)} s past start-up), ` +
    `peak RSS ${blank.rssMiB?.toFixed(0) ?? 'n/a'} MiB`,
);
if (rows.length > 1 && rows.every((r) => r.rss[0] !== undefined)) {
  const first = rows[0].rss[0];
  const last = rows.at(-1).rss[0];
  console.log(
    `\npeak RSS of analyze --jobs 1: ${first.toFixed(0)} MiB at ${rows[0].mb} MiB, ${last.toFixed(0)} MiB at ${rows.at(-1).mb} MiB (${(last / first).toFixed(2)}×; target <= 200 MiB and within 1.2×)`,
  );
  const peak = Math.max(...rows.map((r) => r.rss[0]));
  reportTarget(
    'analyze --jobs 1 peak RSS: at most 200 MB, within 1.2× from smallest to largest input',
    `${peak.toFixed(0)} MiB, ${(last / first).toFixed(2)}×`,
    peak * 1.048576 <= 200 && last / first <= 1.2,
  );
}
