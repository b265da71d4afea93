/**
 * filterDecisions — the `--where router=X` / `scorer=Y` / `service=Z` selection shared by replay and tune.
 *
 * What-if questions are usually about one router or one scorer: its thresholds are declared where it is, so a
 * replay over everything would mix decisions judged by different policies. Clauses on the same key are
 * alternatives (router=a, router=b: either); clauses on different keys must all hold. Pure.
 */
import type { DecisionRecord } from '../record/types.js';

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

/** Distinct names kept per key by a where catalog; more are counted, not listed. */
export const MAX_CATALOG_NAMES = 1000;

/** A `--where` value that named no decision, with the names the input does have for that key. */
export interface UnknownWhereValue {
  readonly key: (typeof WHERE_KEYS)[number];
  readonly value: string;
  /** Names seen for `key`, sorted; the first MAX_CATALOG_NAMES seen when there were more. */
  readonly known: readonly string[];
}

/** Feeds on every decision and says, at the end, which `--where` values matched none of them. */
export interface WhereCatalog {
  add(d: DecisionRecord): void;
  unknownValues(): UnknownWhereValue[];
}

/** A catalog of the names each `--where` key takes in the input, for the values `filter` names. */
export function createWhereCatalog(filter: DecisionFilter): WhereCatalog {
  const keys = WHERE_KEYS.filter((k) => filter[k] !== undefined);
  const seen = new Map(keys.map((k) => [k, new Set<string>()]));
  const overflow = new Map(keys.map((k) => [k, new Set<string>()]));
  return {
    add(d) {
      for (const key of keys) {
        const value = d[key];
        if (value === undefined) continue;
        const names = seen.get(key)!;
        if (names.has(value)) continue;
        if (names.size < MAX_CATALOG_NAMES) names.add(value);
        // Beyond the cap only the asked-for values matter; remember those alone.
        else if (filter[key]!.includes(value)) overflow.get(key)!.add(value);
      }
    },
    unknownValues() {
      return keys.flatMap((key) => {
        const names = seen.get(key)!;
        const extra = overflow.get(key)!;
        return filter[key]!.filter((value) => !names.has(value) && !extra.has(value)).map((value) => ({
          key,
          value,
          known: [...names].sort(),
        }));
      });
    },
  };
}
