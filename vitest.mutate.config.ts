// vitest.mutate.config.ts — the test config StrykerJS runs (stryker.config.mjs): the usual one, narrowed to the
// tests of the folder being mutated (MUTATE_FOLDER), so each module is judged by its own folder's tests.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const folder = process.env.MUTATE_FOLDER ?? 'policy';

// trace/'s core (the decoders and record builders) is judged by its own modules' tests: every reader test in
// test/trace covers the decoder too, and running those (files, streams, stores) per mutant takes hours.
const TESTS_OF: Record<string, string[]> = {
  trace: [
    'decodeRoutingAttributes',
    'formats/flattenOtlpAttributes',
    'buildTraceRecords',
    'normalizeSpanFields',
    'formats/readAgentfootprintEvent',
    'formats/fastPath/skipToRoutingSpans',
  ].map((name) => `test/trace/${name}*.test.ts`),
};

// Spread rather than mergeConfig: mergeConfig would add to `include`, not replace it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: TESTS_OF[folder] ?? [`test/${folder}/**/*.test.ts`],
    reporters: ['default'],
  },
});
