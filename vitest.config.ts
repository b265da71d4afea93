import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { readRunsMultiplier } from './test/helpers/propertyRuns.js';

// FC_RUNS_MULTIPLIER scales every property test's runs, and with them the time a test may take.
const runsMultiplier = readRunsMultiplier();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000 * runsMultiplier,
    // Vitest's default is one worker less than the CPUs: one on the project's 2-core machines, which ran the
    // files one at a time (443 s) although many of them mostly wait on child processes (engines, npm, a
    // browser). Two at a time: 238 s, measured on one such machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
    reporters: ['default', './test/setup/closingLine.ts'],
    setupFiles: ['./test/setup/propertyRuns.ts'],
  },
});
