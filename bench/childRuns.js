// bench/childRuns.js — what the analyzer benches share: the cached generated trace files and a timed child run.
//
// Files are generated once into bench/data/ (git ignores it) and reused while their size matches the
// generator's totals. A child is timed by wall clock; its peak RSS is its own high-water mark from
// `/usr/bin/time -v` (undefined without it).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { generateTraceFile } from './generateTraces.js';

const here = dirname(fileURLToPath(import.meta.url));
export const root = dirname(here);
export const dataDir = join(here, 'data');
export const MiB = 1024 * 1024;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Where peak RSS comes from, for the header line. */
export const rssSource = TIME === undefined ? 'nothing (no /usr/bin/time)' : '/usr/bin/time -v';

/** The cached file of about `mb` MiB (one routing span per `routingEvery` spans) and the generator's totals. */
export async function traceFile(mb, seed, routingEvery = 20) {
  mkdirSync(dataDir, { recursive: true });
  const share = routingEvery === 20 ? '' : `-1in${routingEvery}`;
  const file = join(dataDir, `agent-traces-${mb}mb-seed${seed}${share}.jsonl`);
  const totalsFile = `${file}.totals.json`;
  if (existsSync(file) && existsSync(totalsFile)) {
    const totals = JSON.parse(readFileSync(totalsFile, 'utf8'));
    if (statSync(file).size === totals.bytes) return { file, totals };
  }
  process.stdout.write(`generating ${mb} MiB of traces into ${file} … `);
  const t0 = performance.now();
  const totals = await generateTraceFile(file, mb * MiB, seed, routingEvery);
  writeFileSync(totalsFile, JSON.stringify(totals));
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { file, totals };
}

/** Run one command; wall seconds, peak RSS (MiB) and stdout. Throws with its stderr when it fails. */
export function runChild(command, args) {
  const argv = TIME === undefined ? [command, ...args] : ['-v', command, ...args];
  const t0 = performance.now();
  const result = spawnSync(TIME ?? command, argv, { cwd: root, maxBuffer: 256 * MiB, encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  }
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr ?? '');
  return { seconds, rssMiB: rss === null ? undefined : Number(rss[1]) / 1024, stdout: result.stdout };
}
