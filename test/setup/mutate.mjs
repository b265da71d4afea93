// mutate — run StrykerJS one folder at a time, each folder's modules against that folder's tests.
//
//   npm run mutate                               every core folder, one after another
//   npm run mutate -- src/analyze                one folder
//   npm run mutate -- src/policy --mutate src/policy/routingPolicy.ts   one file of a folder
//   npm run mutate -- src/analyze --concurrency 1                       one test process (a shared machine)
//
// One folder at a time because a run takes both cores for minutes; the reports land in reports/mutation/.
// docs/testing.md says how to read them.
import { spawnSync } from 'node:child_process';

const CORE_FOLDERS = ['policy', 'instrument', 'trace', 'analyze'];

function parseArgs(argv) {
  const folders = [];
  let files;
  let concurrency;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--mutate') {
      files = argv[++i];
      if (files === undefined) fail('--mutate needs a file (or a comma-separated list of files)');
    } else if (arg === '--concurrency') {
      concurrency = argv[++i];
      if (concurrency === undefined || !/^[1-9][0-9]*$/.test(concurrency))
        fail('--concurrency needs a whole number of test processes from 1');
    } else if (arg.startsWith('--')) {
      fail(`unknown option ${arg}`);
    } else {
      const folder = arg.replace(/^\.?\/?src\//, '').replace(/\/+$/, '');
      if (!/^[a-z]+$/.test(folder)) fail(`'${arg}' is not a folder of src/ (e.g. src/analyze)`);
      folders.push(folder);
    }
  }
  if (files !== undefined && folders.length !== 1)
    fail('--mutate needs exactly one folder, the one its tests are in');
  return { folders: folders.length > 0 ? folders : CORE_FOLDERS, files, concurrency };
}

function fail(message) {
  console.error(
    `mutate: ${message}\nusage: npm run mutate [-- src/<folder> [--mutate <file>[,<file>…]] [--concurrency <n>]]`,
  );
  process.exit(2);
}

const { folders, files, concurrency } = parseArgs(process.argv.slice(2));
let exitCode = 0;
for (const folder of folders) {
  console.log(`\nmutate: src/${folder} against test/${folder}`);
  const env = { ...process.env, MUTATE_FOLDER: folder };
  if (files !== undefined) env.MUTATE_FILES = files;
  else delete env.MUTATE_FILES;
  // stryker.config.mjs reads it (default 2, one per core).
  if (concurrency !== undefined) env.MUTATE_CONCURRENCY = concurrency;
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], { stdio: 'inherit', env });
  if (run.status !== 0) exitCode = run.status ?? 1;
}
process.exitCode = exitCode;
