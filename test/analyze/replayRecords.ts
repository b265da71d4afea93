/**
 * replayRecords — decision records made by the real policy, for the replay, tune and HTML tests.
 *
 * A record here is what a reader would rebuild from a span the instrumentation wrote: the verdict of
 * `decideTier2` with its inputs and thresholds. The fast-check arbitrary keeps scores within ±5 so every gap
 * stays below 1 in floating point (tanh saturates to exactly 1 only for differences beyond ~38).
 */
import fc from 'fast-check';
import { createSeededRandom } from '../../src/demo/seededIdGenerator.js';
import { decideTier2, effectiveFloor, isNearTie } from '../../src/policy/routingPolicy.js';
import type { IntentScore, RoutingPolicy, ScorerTraits } from '../../src/policy/types.js';
import type { DecisionRecord, MisrouteMark } from '../../src/record/types.js';

let seq = 0;

/** Extra fields of a built record. */
export interface RecordExtras {
  readonly router?: string;
  readonly scorer?: string;
  readonly service?: string;
  readonly conversationId?: string;
  readonly traceId?: string;
  readonly timeUnixMs?: number;
  readonly misroutes?: readonly MisrouteMark[];
}

/** The record a reader would produce for this call of the real policy. */
export function recordOf(
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  traits: ScorerTraits = {},
  extra: RecordExtras = {},
): DecisionRecord {
  seq++;
  const v = decideTier2(scores, incumbentId, policy, traits);
  const floor = effectiveFloor(policy, traits);
  const alive = scores.filter(
    (s) => Number.isFinite(s.score) && (floor === undefined || s.score > floor),
  ).length;
  return {
    kind: 'decision',
    traceId: extra.traceId ?? seq.toString(16).padStart(32, '0'),
    spanId: seq.toString(16).padStart(16, '0'),
    ...(extra.router === undefined ? {} : { router: extra.router }),
    ...(extra.scorer === undefined ? {} : { scorer: extra.scorer }),
    ...(extra.service === undefined ? {} : { service: extra.service }),
    ...(extra.conversationId === undefined ? {} : { conversationId: extra.conversationId }),
    timeUnixMs: extra.timeUnixMs ?? 1_700_000_000_000 + seq * 1000,
    error: false,
    misroutes: extra.misroutes ?? [],
    source: { file: 'generated', line: seq },
    verdict: v.kind,
    ...(v.kind === 'move' ? { to: v.to } : {}),
    ...(v.kind === 'menu' ? { offered: v.offered } : {}),
    decisive: v.decisive,
    nearTie: isNearTie(v),
    ranked: v.ranked,
    candidateCount: scores.length,
    omitted: 0,
    aliveCount: alive,
    ...(v.runnerUp === undefined ? {} : { runnerUp: v.runnerUp }),
    ...(incumbentId === undefined
      ? {}
      : { incumbent: { id: incumbentId, scored: scores.some((s) => s.id === incumbentId) } }),
    policy,
    scorerTraits: traits,
    ...(floor === undefined ? {} : { effectiveFloor: floor }),
    floorDeclared: floor !== undefined,
  };
}

const IDS = ['billing', 'refunds', 'shipping', 'returns', 'account', 'greeting'];

/** One generated decision: 1–6 distinct candidates, an incumbent sometimes, varied thresholds and traits. */
export const decisionArbitrary: fc.Arbitrary<DecisionRecord> = fc
  .record({
    ids: fc.shuffledSubarray(IDS, { minLength: 1, maxLength: IDS.length }),
    scores: fc.array(
      fc.oneof(
        { weight: 12, arbitrary: fc.double({ min: -5, max: 5, noNaN: true }) },
        { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
      ),
      { minLength: IDS.length, maxLength: IDS.length },
    ),
    incumbent: fc.option(fc.constantFrom(...IDS, 'unscored'), { nil: undefined }),
    margin: fc.double({ min: 0.01, max: 0.6, noNaN: true }),
    menuSize: fc.integer({ min: 1, max: 5 }),
    policyFloor: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
    scorerFloor: fc.option(fc.constantFrom(0, -0.5, 0.2), { nil: undefined }),
    categorical: fc.option(fc.boolean(), { nil: undefined }),
    scorer: fc.constantFrom('keyword', 'embedding', 'classifier'),
  })
  .map((g) =>
    recordOf(
      g.ids.map((id, i) => ({ id, score: g.scores[i]! })),
      g.incumbent,
      {
        nearTieMargin: g.margin,
        menuSize: g.menuSize,
        ...(g.policyFloor === undefined ? {} : { floor: g.policyFloor }),
      },
      {
        ...(g.scorerFloor === undefined ? {} : { floor: g.scorerFloor }),
        ...(g.categorical === undefined ? {} : { categorical: g.categorical }),
      },
      { router: 'desk', scorer: g.scorer },
    ),
  );

/** Deterministic pseudo-random numbers in [0, 1) for generated workloads: the demo's mulberry32, scaled. */
export function seededRandom(seed: number): () => number {
  const next = createSeededRandom(seed);
  return () => next() / 4294967296;
}

/** `n` plausible decisions of a few scorers: clustered scores, conversations with incumbents. */
export function generateWorkload(n: number, seed = 7): DecisionRecord[] {
  const rnd = seededRandom(seed);
  const out: DecisionRecord[] = [];
  for (let i = 0; i < n; i++) {
    const k = 2 + Math.floor(rnd() * 4);
    const ids = IDS.slice(0, k);
    const base = rnd();
    const scores = ids.map((id) => ({ id, score: base + (rnd() - 0.5) * (0.2 + rnd()) }));
    const floorless = i % 3 === 0;
    const incumbent = rnd() < 0.6 ? ids[Math.floor(rnd() * k)] : undefined;
    out.push(
      recordOf(scores, incumbent, { nearTieMargin: 0.15, menuSize: 3 }, floorless ? {} : { floor: 0 }, {
        router: 'desk',
        scorer: floorless ? 'embedding' : 'keyword',
        conversationId: `c${Math.floor(i / 5)}`,
      }),
    );
  }
  return out;
}
