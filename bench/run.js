// bench/run.js — run every bench/*.bench.js in name order, each in its own `node` process, output forwarded.
// Benchmarks import the built package from ../dist: run through `npm run bench`, which builds first.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((name) => name.endsWith('.bench.js'))
  .sort();

const failed = [];
for (const name of benches) {
  console.log(`\n# ${name}`);
  // A fresh process per bench: no JIT state or global OpenTelemetry registration carries over.
  const result = spawnSync(process.execPath, [join(here, name)], { stdio: 'inherit' });
  if (result.status !== 0) failed.push(`${name} (${result.signal ?? `exit ${result.status}`})`);
}
if (benches.length === 0) console.log('no bench/*.bench.js files found');
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
