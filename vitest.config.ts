import { defineConfig } from 'vitest/config';
import { readRunsMultiplier } from './test/helpers/propertyRuns.js';

// FC_RUNS_MULTIPLIER scales every property test's runs, and with them the time a test may take.
const runsMultiplier = readRunsMultiplier();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000 * runsMultiplier,
    hookTimeout: 60_000,
    reporters: ['default', './test/setup/closingLine.ts'],
    setupFiles: ['./test/setup/propertyRuns.ts'],
  },
});
