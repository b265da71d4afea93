/**
 * findNearTieHotspots — which pairs of skills keep tying, and where.
 *
 * A near-tie is always between the top candidate and the runner-up, so the unordered pair {top, runner-up}
 * names the overlap in the skill graph that caused it. Pairs are grouped per router and scorer by default
 * (two routers are two graphs; two scorers disagree differently), or by any of service / router / scorer, or
 * by the pair alone. Each group counts how often the pair met as the top two and how often that meeting was
 * a tie, so a pair that meets rarely but always ties stands out next to one that ties often only because it
 * meets often. Bounded state: per group a few counters, a reservoir of gaps (median), a capped set of
 * conversations and a few example trace ids; groups beyond `maxGroups` are counted, not kept. Pure. No I/O.
 */
import { ExampleTraceIds } from './exampleTraceIds.js';
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { createReservoir, nearestRank, sampleKey, type Reservoir } from './createReservoir.js';
import { compareNames } from './summarizeDecisions.js';
import {
  addVerdictCounts,
  createVerdictCounts,
  isRecordedNearTie,
  rateOf,
  type VerdictCounts,
} from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';
import { keyPart } from './groupKey.js';

/** A dimension hot spots can be grouped by, besides the pair itself. */
export type HotspotDimension = 'service' | 'router' | 'scorer';

/** Options of the hot-spot analysis. */
export interface HotspotConfig {
  /** Dimensions to group by besides the pair; empty = by pair alone. @default ['router', 'scorer'] */
  readonly by: readonly HotspotDimension[];
  /** Groups listed, most near-ties first. @default 10 */
  readonly top: number;
  /** Least near-ties a group needs to be listed. @default 1 */
  readonly minCount: number;
  /** Example trace ids kept per group. @default 3 */
  readonly maxExamples: number;
  /** Gaps kept per group for the median (exact up to this many). @default 256 */
  readonly gapSample: number;
  /** Distinct conversations counted exactly per group; past it the count is a lower bound. @default 10000 */
  readonly maxConversations: number;
  /** Conversation ids held over all groups together; past it every further count is a lower bound. @default 500000 */
  readonly maxConversationsTotal: number;
  /** Groups kept; decisions of further groups are counted in `droppedNearTies`. @default 20000 */
  readonly maxGroups: number;
}

/** The defaults `findNearTieHotspots` uses. */
export const DEFAULT_HOTSPOT_CONFIG: HotspotConfig = Object.freeze({
  by: Object.freeze(['router', 'scorer'] as HotspotDimension[]),
  top: 10,
  minCount: 1,
  maxExamples: 3,
  gapSample: 256,
  maxConversations: 10_000,
  maxConversationsTotal: 500_000,
  maxGroups: 20_000,
});

/** One hot spot: a skill pair (sorted) within its group. Dimension keys appear only when grouped by. */
export interface NearTieHotspot {
  /** null = the spans did not carry it. */
  readonly service?: string | null;
  readonly router?: string | null;
  readonly scorer?: string | null;
  readonly pair: readonly [string, string];
  /** Decisions where this pair was the top two. */
  readonly meetings: number;
  readonly nearTies: number;
  /** nearTies / all near-ties. */
  readonly share: number;
  /** nearTies / meetings: how often the pair ties when it meets. */
  readonly tieRate: number;
  /** Median runner-up gap over this group's near-ties; null with none. */
  readonly medianGap: number | null;
  /** Verdicts of this group's near-ties (menu or stay under a consistent policy). */
  readonly verdicts: VerdictCounts;
  /** Distinct conversations (else traces) with a near-tie of this pair. */
  readonly conversations: number;
  /** True when `conversations` hit a cap (per group or in all) and is a lower bound. */
  readonly conversationsCapped: boolean;
  readonly exampleTraceIds: readonly string[];
  /** Of `exampleTraceIds`, those routescope synthesized for event-log records: no trace store holds them. */
  readonly syntheticTraceIds: readonly string[];
}

/** The hot-spot report. */
export interface HotspotReport {
  readonly kind: 'hotspots';
  readonly by: readonly HotspotDimension[];
  readonly decisions: number;
  readonly nearTies: number;
  /** Groups with at least one meeting (listed or not). */
  readonly groups: number;
  /** The listed groups: at least `minCount` near-ties, at most `top`. */
  readonly hotspots: readonly NearTieHotspot[];
  /** Near-ties whose pair is unknown (no runner-up or top on the record). */
  readonly unpairedNearTies: number;
  /** Near-ties of groups beyond `maxGroups`. */
  readonly droppedNearTies: number;
}

/** A streaming hot-spot analysis: feed records (or merge other analyses), then `finish()` once. */
export interface HotspotAnalysis {
  add(record: TraceRecord): void;
  /**
   * Count everything `other` counted, as if its records had been added here after these (`other` is left as it
   * was; both must have the same config). Exact while neither met a cap (`maxGroups`, the conversation caps).
   */
  merge(other: HotspotAnalysis): void;
  finish(): HotspotReport;
}

/** What merge reads of another analysis, known only here. */
interface HotspotState {
  readonly groups: Map<string, Group>;
  readonly counts: { decisions: number; nearTies: number; unpaired: number; dropped: number };
}
const stateOf = new WeakMap<HotspotAnalysis, HotspotState>();

interface Group {
  readonly dims: Partial<Record<HotspotDimension, string | null>>;
  readonly pair: [string, string];
  meetings: number;
  nearTies: number;
  readonly verdicts: VerdictCounts;
  readonly gaps: Reservoir;
  readonly conversations: Set<string>;
  conversationsCapped: boolean;
  readonly examples: ExampleTraceIds;
}

/** Start a hot-spot analysis. */
export function createHotspotAnalysis(config: Partial<HotspotConfig> = {}): HotspotAnalysis {
  const cfg: HotspotConfig = resolveConfig(DEFAULT_HOTSPOT_CONFIG, config);
  const dims: HotspotDimension[] = (['service', 'router', 'scorer'] as const).filter((d) =>
    cfg.by.includes(d),
  );
  const groups = new Map<string, Group>();
  const counts = { decisions: 0, nearTies: 0, unpaired: 0, dropped: 0 };
  let conversationsHeld = 0;

  const newGroup = (dimValues: Group['dims'], pair: [string, string]): Group => ({
    dims: dimValues,
    pair,
    meetings: 0,
    nearTies: 0,
    verdicts: createVerdictCounts(),
    gaps: createReservoir(cfg.gapSample),
    conversations: new Set(),
    conversationsCapped: false,
    examples: new ExampleTraceIds(cfg.maxExamples),
  });
  const countConversation = (g: Group, conv: string): void => {
    if (g.conversations.has(conv)) return;
    if (g.conversations.size < cfg.maxConversations && conversationsHeld < cfg.maxConversationsTotal) {
      g.conversations.add(conv);
      conversationsHeld++;
    } else g.conversationsCapped = true;
  };

  const add = (d: DecisionRecord): void => {
    counts.decisions++;
    const tie = isRecordedNearTie(d);
    if (tie) counts.nearTies++;
    const top = d.ranked[0]?.id;
    const second = d.runnerUp?.id;
    if (top === undefined || second === undefined) {
      if (tie) counts.unpaired++;
      return;
    }
    const low = top <= second ? top : second;
    const high = top <= second ? second : top;
    let key = keyPart(low) + keyPart(high);
    for (const dim of dims) key += keyPart(d[dim]);
    let g = groups.get(key);
    if (g === undefined) {
      if (groups.size >= cfg.maxGroups) {
        if (tie) counts.dropped++;
        return;
      }
      const dimValues: Partial<Record<HotspotDimension, string | null>> = {};
      for (const dim of dims) dimValues[dim] = d[dim] ?? null;
      g = newGroup(dimValues, [low, high]);
      groups.set(key, g);
    }
    g.meetings++;
    if (!tie) return;
    g.nearTies++;
    g.verdicts[d.verdict]++;
    g.gaps.add(d.runnerUp!.gap, sampleKey(d.traceId, d.spanId));
    countConversation(g, d.conversationId ?? d.traceId);
    g.examples.add(d);
  };

  const mergeGroup = (key: string, o: Group): void => {
    let g = groups.get(key);
    if (g === undefined) {
      if (groups.size >= cfg.maxGroups) {
        counts.dropped += o.nearTies;
        return;
      }
      g = newGroup(o.dims, o.pair);
      groups.set(key, g);
    }
    g.meetings += o.meetings;
    g.nearTies += o.nearTies;
    addVerdictCounts(g.verdicts, o.verdicts);
    g.gaps.merge(o.gaps);
    for (const conv of o.conversations) countConversation(g, conv);
    if (o.conversationsCapped) g.conversationsCapped = true;
    g.examples.merge(o.examples);
  };

  const analysis: HotspotAnalysis = {
    add(record: TraceRecord): void {
      if (record.kind === 'decision') add(record);
    },
    merge(other: HotspotAnalysis): void {
      const o = stateOf.get(other);
      if (o === undefined) throw new TypeError('merge takes an analysis made by createHotspotAnalysis');
      counts.decisions += o.counts.decisions;
      counts.nearTies += o.counts.nearTies;
      counts.unpaired += o.counts.unpaired;
      counts.dropped += o.counts.dropped;
      for (const [key, g] of o.groups) mergeGroup(key, g);
    },
    finish(): HotspotReport {
      const all = [...groups.values()];
      const listed = all
        .filter((g) => g.nearTies >= cfg.minCount && g.nearTies > 0)
        .map((g) => toHotspot(g, counts.nearTies))
        .sort(compareHotspots)
        .slice(0, Math.max(0, cfg.top));
      return {
        kind: 'hotspots',
        by: dims,
        decisions: counts.decisions,
        nearTies: counts.nearTies,
        groups: all.length,
        hotspots: listed,
        unpairedNearTies: counts.unpaired,
        droppedNearTies: counts.dropped,
      };
    },
  };
  stateOf.set(analysis, { groups, counts });
  return analysis;
}

/** The hot spots of a finite list of records (tests, small inputs). */
export function findNearTieHotspots(
  records: Iterable<TraceRecord>,
  config: Partial<HotspotConfig> = {},
): HotspotReport {
  const analysis = createHotspotAnalysis(config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

function toHotspot(g: Group, allNearTies: number): NearTieHotspot {
  const median = nearestRank(g.gaps.sorted(), 0.5);
  return {
    ...g.dims,
    pair: g.pair,
    meetings: g.meetings,
    nearTies: g.nearTies,
    share: rateOf(g.nearTies, allNearTies),
    tieRate: rateOf(g.nearTies, g.meetings),
    medianGap: median ?? null,
    verdicts: { ...g.verdicts },
    conversations: g.conversations.size,
    conversationsCapped: g.conversationsCapped,
    exampleTraceIds: g.examples.traceIds(),
    syntheticTraceIds: g.examples.syntheticTraceIds(),
  };
}

function compareHotspots(a: NearTieHotspot, b: NearTieHotspot): number {
  return (
    b.nearTies - a.nearTies ||
    b.tieRate - a.tieRate ||
    b.meetings - a.meetings ||
    compareNames(a.service, b.service) ||
    compareNames(a.router, b.router) ||
    compareNames(a.scorer, b.scorer) ||
    compareNames(a.pair[0], b.pair[0]) ||
    compareNames(a.pair[1], b.pair[1])
  );
}
