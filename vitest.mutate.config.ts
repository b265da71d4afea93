// vitest.mutate.config.ts — the test config StrykerJS runs (stryker.config.mjs): the usual one, narrowed to the
// tests of the folder being mutated (MUTATE_FOLDER), so each module is judged by its own folder's tests.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const folder = process.env.MUTATE_FOLDER ?? 'policy';

// Spread rather than mergeConfig: mergeConfig would add to `include`, not replace it.
export default defineConfig({
  ...base,
  test: { ...base.test, include: [`test/${folder}/**/*.test.ts`], reporters: ['default'] },
});
