/**
 * filterDecisions — the `--where router=X` / `scorer=Y` / `service=Z` selection shared by replay and tune.
 *
 * What-if questions are usually about one router or one scorer: its thresholds are declared where it is, so a
 * replay over everything would mix decisions judged by different policies. Clauses on the same key are
 * alternatives (router=a, router=b: either); clauses on different keys must all hold. Pure.
 */
import type { DecisionRecord } from '../trace/types.js';

/** The keys a clause may name. */
export const WHERE_KEYS = ['router', 'scorer', 'service'] as const;

/** Allowed values per key; an absent key matches everything. */
export interface DecisionFilter {
  readonly router?: readonly string[];
  readonly scorer?: readonly string[];
  readonly service?: readonly string[];
}

/** Parse `key=value` clauses; throws RangeError naming the bad clause and the keys allowed. */
export function parseWhereClauses(clauses: readonly string[]): DecisionFilter {
  const out: Record<string, string[]> = {};
  for (const clause of clauses) {
    const at = clause.indexOf('=');
    const key = at < 0 ? '' : clause.slice(0, at).trim();
    if (at < 0 || !(WHERE_KEYS as readonly string[]).includes(key)) {
      throw new RangeError(
        `--where ${JSON.stringify(clause)}: expected key=value with key one of ${WHERE_KEYS.join(', ')}`,
      );
    }
    (out[key] ??= []).push(clause.slice(at + 1));
  }
  return out;
}

/** Does the decision pass the filter? */
export function matchesFilter(d: DecisionRecord, filter: DecisionFilter): boolean {
  for (const key of WHERE_KEYS) {
    const allowed = filter[key];
    if (allowed === undefined) continue;
    const value = d[key];
    if (value === undefined || !allowed.includes(value)) return false;
  }
  return true;
}

/** The filter as `router=a, scorer=b` text, `everything` when empty. */
export function describeFilter(filter: DecisionFilter): string {
  const parts = WHERE_KEYS.flatMap((k) => (filter[k] ?? []).map((v) => `${k}=${v}`));
  return parts.length === 0 ? 'everything' : parts.join(', ');
}
