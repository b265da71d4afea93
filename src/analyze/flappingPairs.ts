/**
 * flappingPairs — skill pairs across conversations: how often each unordered pair bounced, kept the other out
 * by a near-tie stay or kept a run going, and in how many conversations.
 *
 * A pair is counted per router, because skills of two routers are different graphs, and a conversation counts
 * once per pair however often the pair flapped in it. To know that, each conversation remembers the pairs it
 * touched by their index: a few small integers, the cheapest per-conversation memory. Pure.
 */
import { groupKey } from './groupKey.js';
import { comparePairs, type FlappingPair } from './flappingReport.js';

/** One skill pair's running counts. */
export interface PairTally {
  /** The order the pair was first seen in; what a conversation's `pairsSeen` holds. */
  readonly index: number;
  readonly router: string | undefined;
  readonly pair: readonly [string, string];
  bounces: number;
  nearTieStays: number;
  stayRuns: number;
  conversations: number;
}

/** Counts per unordered skill pair and router. */
export class PairTallies {
  private readonly tallies = new Map<string, PairTally>();

  /** The tally of {a, b} under `router`, counting the conversation whose `pairsSeen` is given once. */
  tally(router: string | undefined, pairsSeen: number[], a: string, b: string): PairTally {
    // Stryker disable next-line EqualityOperator: equivalent — the two skills of a pair always differ.
    const sorted: [string, string] = a < b ? [a, b] : [b, a];
    const key = groupKey(router, sorted[0], sorted[1]);
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      tally = {
        index: this.tallies.size,
        router,
        pair: sorted,
        bounces: 0,
        nearTieStays: 0,
        stayRuns: 0,
        conversations: 0,
      };
      this.tallies.set(key, tally);
    }
    if (!pairsSeen.includes(tally.index)) {
      pairsSeen.push(tally.index);
      tally.conversations++;
    }
    return tally;
  }

  /** The pairs that flapped or tied, most flapping first, at most `limit`. */
  top(limit: number): FlappingPair[] {
    return [...this.tallies.values()]
      .map((p) => ({
        ...(p.router === undefined ? {} : { router: p.router }),
        pair: p.pair,
        bounces: p.bounces,
        nearTieStays: p.nearTieStays,
        stayRuns: p.stayRuns,
        flaps: p.bounces + p.stayRuns,
        conversations: p.conversations,
      }))
      .filter((p) => p.flaps > 0 || p.nearTieStays > 0)
      .sort(comparePairs)
      .slice(0, limit);
  }
}
