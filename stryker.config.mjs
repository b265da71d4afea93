// stryker.config.mjs — mutation testing (StrykerJS): each folder of src/ is mutated against the tests of its own
// folder in test/. Run it with `npm run mutate` (every core folder, one after another) or
// `npm run mutate -- src/policy` (one folder); test/setup/mutate.mjs sets MUTATE_FOLDER and MUTATE_FILES.
// docs/testing.md has the last scores and how to read them. Not part of test:all or CI: a folder takes minutes.

import { existsSync, mkdirSync, symlinkSync } from 'node:fs';

// Some tests read the shared agentfootprint capture at ../shared beside the repository; from a sandbox
// (.stryker-tmp/sandbox-…/) that path is .stryker-tmp/shared, so it is linked there.
if (!existsSync('.stryker-tmp/shared')) {
  mkdirSync('.stryker-tmp', { recursive: true });
  symlinkSync('../../shared', '.stryker-tmp/shared');
}

const folder = process.env.MUTATE_FOLDER ?? 'policy';
// trace/ is mostly I/O (streams, files, stores); its core is the decoders and the readers' record builders.
const CORE_OF = {
  trace: [
    'src/trace/decodeRoutingAttributes.ts',
    'src/trace/formats/flattenOtlpAttributes.ts',
    'src/trace/buildTraceRecords.ts',
    'src/trace/normalizeSpanFields.ts',
    'src/trace/formats/readAgentfootprintEvent.ts',
    'src/trace/formats/fastPath/skipToRoutingSpans.ts',
  ],
};
const files = process.env.MUTATE_FILES
  ? process.env.MUTATE_FILES.split(',')
  : (CORE_OF[folder] ?? [`src/${folder}/**/*.ts`]);

function concurrencyOf(value) {
  if (value === undefined || value === '') return 2;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`MUTATE_CONCURRENCY must be a whole number >= 1, not '${value}'`);
  return n;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // Only the tests of the mutated folder judge it, so a module's score says how well its own tests watch it.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  mutate: [
    ...files,
    // Types, names and constants: nothing a test could tell apart.
    '!src/**/types.ts',
    '!src/**/internal-types.ts',
    '!src/semconv/**',
    '!src/record/**',
  ],
  coverageAnalysis: 'perTest',
  // Two cores: one test process per core. On a machine shared with others, MUTATE_CONCURRENCY=1 keeps a run to
  // one test process.
  concurrency: concurrencyOf(process.env.MUTATE_CONCURRENCY),
  timeoutMS: 5_000,
  ignoreStatic: false,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${folder}.html` },
  jsonReporter: { fileName: `reports/mutation/${folder}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  incremental: false,
  thresholds: { high: 90, low: 80, break: null },
};
