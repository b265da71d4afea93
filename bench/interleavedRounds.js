// bench/interleavedRounds.js — what the in-process benches share: timed rounds of a chunked loop, the median,
// and a span exporter that discards what it is given (counting it), so only recording is measured.
import { setImmediate as yieldTurn } from 'node:timers/promises';

/**
 * ns per call of `loop(inputs)` — which makes `chunk` calls — over chunks until `ms` of measured time has passed,
 * yielding between chunks so a batch processor exports as it would in a server.
 */
export async function round(loop, inputs, ms, chunk) {
  let ns = 0n;
  let calls = 0;
  while (ns < BigInt(ms) * 1_000_000n) {
    const t0 = process.hrtime.bigint();
    loop(inputs);
    ns += process.hrtime.bigint() - t0;
    calls += chunk;
    await yieldTurn();
  }
  return Number(ns) / calls;
}

/** The median of a list of figures. */
export const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** An exporter that drops everything, counting the spans it was given. */
export function discardingExporter() {
  const exporter = {
    spans: 0,
    export(spans, done) {
      exporter.spans += spans.length;
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  return exporter;
}
