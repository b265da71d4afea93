/**
 * seededIdGenerator — reproducible trace and span ids for the demo, from a seeded PRNG.
 *
 * The demo's trace file is meant to be read, diffed and pinned by golden tests, so its ids must come out the
 * same on every run: the SDK's `IdGenerator` is fed from mulberry32 (a small, well-known 32-bit generator)
 * instead of crypto randomness. Never use this outside demos and tests: real ids must be random.
 * Pure apart from the generator's own state.
 */
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

/** A seeded PRNG: each call returns the next 32-bit unsigned integer (mulberry32). */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** An `IdGenerator` whose ids follow from `seed` alone; never all zeros (an invalid id). */
export function createSeededIdGenerator(seed: number): IdGenerator {
  const next = createSeededRandom(seed);
  const hex = (words: number): string => {
    for (;;) {
      let out = '';
      for (let i = 0; i < words; i++) out += next().toString(16).padStart(8, '0');
      if (!/^0+$/.test(out)) return out;
    }
  };
  return { generateTraceId: () => hex(4), generateSpanId: () => hex(2) };
}
