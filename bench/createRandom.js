// bench/createRandom.js — the one seeded PRNG every benchmark draws from, so runs compare.
import { createSeededRandom } from '../dist/demo/seededIdGenerator.js';

/** The demo's mulberry32 (createSeededRandom), scaled to [0, 1). */
export function createRandom(seed) {
  const next = createSeededRandom(seed);
  return () => next() / 4294967296;
}
