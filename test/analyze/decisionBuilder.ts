// decisionBuilder — tiny builders for DecisionRecords: the real policy decides, the real encoder and decoder
// turn the verdict into the record a reader would yield, so a built record is consistent unless a test
// overrides a field on purpose.
import { createDecideTier2, resolveRoutingPolicy } from '../../src/policy/routingPolicy.js';
import type { IntentScore, PolicySemantics, RoutingPolicy, ScorerTraits } from '../../src/policy/types.js';
import { encodeRoutingAttributes } from '../../src/instrument/encodeRoutingAttributes.js';
import { decodeRoutingAttributes } from '../../src/trace/decodeRoutingAttributes.js';
import { type AttributeValue } from '../../src/trace/internal-types.js';
import type { DecisionRecord, MisrouteRecord, TurnRecord } from '../../src/record/types.js';

/** One candidate score. */
export const s = (id: string, score: number): IntentScore => ({ id, score });

export interface DecisionSpec {
  readonly scores: readonly IntentScore[];
  readonly incumbent?: string;
  readonly policy?: Partial<RoutingPolicy>;
  readonly scorer?: ScorerTraits;
  /** Record limit of the instrumentation. @default 50 */
  readonly maxCandidates?: number;
  readonly router?: string;
  readonly scorerName?: string;
  readonly service?: string;
  readonly conversationId?: string;
  readonly traceId?: string;
  readonly timeUnixMs?: number;
  /** The behaviour that decides (not recorded on the record: use `override.semantics`). @default 'contract' */
  readonly behaviour?: PolicySemantics;
  /** Fields forced onto the record after decoding (to make it inconsistent, say). */
  readonly override?: Partial<DecisionRecord>;
}

let seq = 0;

/** A trace id from a short label (hex-padded, lower case). */
export function tid(label: string | number): string {
  const hex = Buffer.from(String(label)).toString('hex');
  return hex.padStart(32, '0').slice(-32);
}

/** A decision record as a reader would yield it. */
export function decision(spec: DecisionSpec): DecisionRecord {
  seq++;
  const policy = resolveRoutingPolicy(spec.policy);
  const decide = createDecideTier2(spec.behaviour ?? 'contract');
  const verdict = decide(spec.scores, spec.incumbent, policy, spec.scorer ?? {});
  const attrs = encodeRoutingAttributes(
    {
      scores: spec.scores,
      incumbentId: spec.incumbent,
      policy,
      ...(spec.scorer ? { scorer: spec.scorer } : {}),
    },
    verdict,
    spec.maxCandidates ?? 50,
  );
  const map = new Map<string, AttributeValue>(Object.entries(attrs) as [string, AttributeValue][]);
  const decoded = decodeRoutingAttributes(map);
  if (decoded.kind !== 'ok') throw new Error(`builder: ${decoded.reason}`);
  return {
    kind: 'decision',
    ...decoded.value,
    traceId: spec.traceId ?? tid(`trace-${seq}`),
    spanId: seq.toString(16).padStart(16, '0'),
    ...(spec.router === undefined ? { router: 'desk' } : { router: spec.router }),
    ...(spec.scorerName === undefined ? { scorer: 'embedding' } : { scorer: spec.scorerName }),
    ...(spec.service === undefined ? {} : { service: spec.service }),
    ...(spec.conversationId === undefined ? {} : { conversationId: spec.conversationId }),
    timeUnixMs: spec.timeUnixMs ?? 1_700_000_000_000 + seq,
    error: false,
    misroutes: [],
    source: { file: 'mem', line: seq },
    ...spec.override,
  };
}

/** A turn record. */
export function turn(fields: Partial<TurnRecord> & { traceId: string }): TurnRecord {
  seq++;
  return {
    kind: 'turn',
    by: 'intent',
    spanId: seq.toString(16).padStart(16, '0'),
    timeUnixMs: 1_700_000_000_000 + seq,
    error: false,
    misroutes: [],
    source: { file: 'mem', line: seq },
    ...fields,
  };
}

/** A misroute (feedback span) record. */
export function misroute(fields: Partial<MisrouteRecord> & { traceId: string }): MisrouteRecord {
  seq++;
  return {
    kind: 'misroute',
    mark: { expected: 'billing', reason: 'user corrected' },
    spanId: seq.toString(16).padStart(16, '0'),
    timeUnixMs: 1_700_000_000_000 + seq,
    error: false,
    misroutes: [],
    source: { file: 'mem', line: seq },
    ...fields,
  };
}

/**
 * The clause case of the two behaviours (a near-tie between c and i, incumbent f scored at the floor 0), decided
 * by `behaviour`: the contract offers a menu, 9.62 stays.
 */
export function clauseCase(behaviour: PolicySemantics, extra: Partial<DecisionSpec> = {}): DecisionRecord {
  return decision({
    scores: [s('f', 0), s('c', 1), s('i', 1)],
    incumbent: 'f',
    policy: { nearTieMargin: 1, floor: 0 },
    behaviour,
    ...extra,
  });
}

/** A decision both behaviours judge alike (a decisive move). */
export function plainMove(extra: Partial<DecisionSpec> = {}): DecisionRecord {
  return decision({ scores: [s('a', 2), s('b', 0)], incumbent: 'b', policy: { floor: 0 }, ...extra });
}
