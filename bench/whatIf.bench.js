// bench/whatIf.bench.js — replay, tune, flapping and the chart digest over a stream of decisions: throughput
// and heap (after a full collection) as the stream grows.
//
// Decisions are made on the fly by the real policy (12 candidates, clustered scores, 20,000 conversations, a
// quarter floorless) and fed to each analysis alone, in its own pass, so the figures do not mix. Heap is read
// at every quarter of the stream: bounded state shows as a flat line, not one that grows with decisions
// (flapping holds up to 8 decisions per conversation to restore time order, so its line levels off once each
// of the 20,000 conversations has filled its buffer; tune fills its 50,000-decision join window first). Env:
// WHATIF_DECISIONS (default 400,000). Prints figures, asserts nothing.
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { decideTier2, effectiveFloor, isNearTie } from '../dist/index.js';
import { createReplayAnalysis } from '../dist/analyze/replay.js';
import { createTuneAnalysis } from '../dist/analyze/tune.js';
import { createFlappingAnalysis } from '../dist/analyze/flapping.js';
import { createChartDigest } from '../dist/analyze/chartDigest.js';
import { createRandom } from './createRandom.js';

const N = Number(process.env.WHATIF_DECISIONS ?? 400_000);
const SKILLS = Array.from({ length: 12 }, (_, i) => `skill-${i}`);
const MiB = 1024 * 1024;
// A collected heap makes the quarter readings comparable; run.js starts node without --expose-gc.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

/** The records a reader would yield, made lazily (mulberry32, fixed seed). */
function* decisions(n) {
  const random = createRandom(42);
  const policy = { nearTieMargin: 0.15, menuSize: 3 };
  for (let i = 0; i < n; i++) {
    const base = random();
    const scores = SKILLS.map((id) => ({ id, score: base + (random() - 0.5) * 0.8 }));
    const traits = i % 4 === 0 ? {} : { floor: 0 };
    const incumbent = random() < 0.6 ? SKILLS[Math.floor(random() * SKILLS.length)] : undefined;
    const v = decideTier2(scores, incumbent, policy, traits);
    const floor = effectiveFloor(policy, traits);
    yield {
      kind: 'decision',
      traceId: i.toString(16).padStart(32, '0'),
      spanId: i.toString(16).padStart(16, '0'),
      router: 'desk',
      scorer: i % 4 === 0 ? 'embedding' : 'keyword',
      conversationId: `conv-${i % 20_000}`,
      timeUnixMs: 1.7e12 + i * 50,
      error: false,
      misroutes: i % 997 === 0 ? [{ expected: SKILLS[0] }] : [],
      source: { file: 'bench', line: i },
      verdict: v.kind,
      ...(v.kind === 'move' ? { to: v.to } : {}),
      ...(v.kind === 'menu' ? { offered: v.offered } : {}),
      decisive: v.decisive,
      nearTie: isNearTie(v),
      ranked: v.ranked,
      candidateCount: scores.length,
      omitted: 0,
      ...(v.runnerUp === undefined ? {} : { runnerUp: v.runnerUp }),
      ...(incumbent === undefined ? {} : { incumbent: { id: incumbent, scored: true } }),
      policy,
      scorerTraits: traits,
      ...(floor === undefined ? {} : { effectiveFloor: floor }),
      floorDeclared: floor !== undefined,
    };
  }
}

const analyses = {
  'replay --margin 0.25': () => createReplayAnalysis({ thresholds: { nearTieMargin: 0.25 }, listLimit: 50 }),
  'tune --target-menu-rate 0.1': () => createTuneAnalysis({ targetMenuRate: 0.1 }),
  flapping: () => createFlappingAnalysis(),
  'chart digest': () => createChartDigest(),
};

// The cost of making the decisions, to subtract.
{
  const t0 = performance.now();
  let n = 0;
  for (const _ of decisions(N)) n++;
  const ms = performance.now() - t0;
  console.log(`making ${n.toLocaleString('en-US')} decisions: ${(ms / 1000).toFixed(2)} s (included below)`);
}
for (const [name, create] of Object.entries(analyses)) {
  gc();
  const analysis = create();
  const heap = [];
  const t0 = performance.now();
  let i = 0;
  for (const d of decisions(N)) {
    analysis.add(d);
    if (++i % (N / 4) === 0) {
      gc();
      heap.push((process.memoryUsage().heapUsed / MiB).toFixed(1));
    }
  }
  analysis.finish();
  const s = (performance.now() - t0) / 1000;
  console.log(
    `${name.padEnd(28)} ${Math.round(N / s)
      .toLocaleString('en-US')
      .padStart(9)} decisions/s   heap MiB at 1/4, 2/4, 3/4, 4/4: ${heap.join(', ')}`,
  );
}
