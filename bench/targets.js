// bench/targets.js — each bench states its targets here; `npm run bench` (bench/run.js) prints all of them as
// one table at the end. A bench run on its own prints nothing extra: the file is named by run.js.
import { appendFileSync } from 'node:fs';

/**
 * Record one target: what it asks, what was measured (already formatted) and whether it holds. Written as a
 * JSON line to the file in BENCH_TARGETS, when run.js set one.
 */
export function reportTarget(target, measured, holds) {
  const file = process.env.BENCH_TARGETS;
  if (file === undefined || file === '') return;
  appendFileSync(file, JSON.stringify({ target, measured, holds }) + '\n');
}
