// bench/run.js — run every bench/*.bench.js in name order, each in its own `node` process, output forwarded.
// Benchmarks import the built package from ../dist: run through `npm run bench`, which builds first.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((name) => name.endsWith('.bench.js'))
  .sort();

// Each bench appends its targets (bench/targets.js) to one file; they are printed together at the end.
const scratch = mkdtempSync(join(tmpdir(), 'routescope-bench-'));
const targetsFile = join(scratch, 'targets.jsonl');
const failed = [];
for (const name of benches) {
  console.log(`\n# ${name}`);
  // A fresh process per bench: no JIT state or global OpenTelemetry registration carries over.
  const result = spawnSync(process.execPath, [join(here, name)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_TARGETS: targetsFile },
  });
  if (result.status !== 0) failed.push(`${name} (${result.signal ?? `exit ${result.status}`})`);
}
if (benches.length === 0) console.log('no bench/*.bench.js files found');
printTargets();
rmSync(scratch, { recursive: true, force: true });
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}

/** Every target the benches stated, as one table: what it asks, what this run measured, whether it holds. */
function printTargets() {
  let lines = [];
  try {
    lines = readFileSync(targetsFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return;
  }
  const rows = lines.map((line) => JSON.parse(line));
  const width = Math.max(...rows.map((r) => r.target.length), 'target'.length);
  const measuredWidth = Math.max(...rows.map((r) => r.measured.length), 'measured'.length);
  console.log(`\n# targets: ${rows.filter((r) => r.holds).length} of ${rows.length} hold in this run`);
  console.log(`${'target'.padEnd(width)}  ${'measured'.padEnd(measuredWidth)}  holds`);
  for (const r of rows) {
    console.log(`${r.target.padEnd(width)}  ${r.measured.padEnd(measuredWidth)}  ${r.holds ? 'yes' : 'NO'}`);
  }
}
