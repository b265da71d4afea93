/**
 * browseQueries — what the lists and the search of serve's live page ask of the window index.
 *
 * A filter is read from the URL's query (unknown values are errors that name the parameter, never ignored);
 * a list is the matching positions newest first, a page of them taken; a search looks for an exact id or name
 * first, then for those that start with what was typed, and says where each match leads (explain for a
 * conversation, trace or span; the filtered decision list for a skill, router or scorer). Each is one scan of
 * the index's arrays. Pure. No I/O.
 */
import type { Tier2VerdictKind } from '../../policy/types.js';
import {
  FLOORLESS,
  INCONSISTENT,
  MISROUTED,
  NEAR_TIE,
  VERDICTS,
  type StringTable,
  type WindowIndex,
} from './windowIndex.js';

/** Rows one page of a list shows. */
export const LIST_PAGE_SIZE = 50;

/** Matches a search lists at most (the rest are counted). */
export const MAX_SEARCH_MATCHES = 50;

/** The longest query taken (a trace id is 32 characters; longer names are cut at --max-string anyway). */
export const MAX_QUERY_LENGTH = 1024;

/** Which decisions a list shows; every field narrows it. */
export interface DecisionFilter {
  readonly router?: string;
  readonly scorer?: string;
  readonly verdict?: Tier2VerdictKind;
  readonly skill?: string;
  readonly conversation?: string;
  readonly nearTie: boolean;
  readonly misrouted: boolean;
  readonly floorless: boolean;
  readonly inconsistent: boolean;
}

/** The flags of a filter, by their query parameter. */
export const FILTER_FLAGS = [
  ['near', 'nearTie', 'near-ties only', NEAR_TIE],
  ['misrouted', 'misrouted', 'misroute marks only', MISROUTED],
  ['floorless', 'floorless', 'floorless only', FLOORLESS],
  ['inconsistent', 'inconsistent', 'inconsistent only', INCONSISTENT],
] as const;

/** The filter in `params`, or what is wrong with it. */
export function readDecisionFilter(params: URLSearchParams): DecisionFilter | { readonly error: string } {
  const text = (name: string): string | undefined => {
    const v = params.get(name);
    return v === null || v === '' ? undefined : v.slice(0, MAX_QUERY_LENGTH);
  };
  const verdict = text('verdict');
  if (verdict !== undefined && !VERDICTS.includes(verdict as Tier2VerdictKind))
    return { error: `verdict must be one of ${VERDICTS.join(', ')} (got '${verdict.slice(0, 40)}')` };
  const flags: Record<string, boolean> = {};
  for (const [param, field] of FILTER_FLAGS) {
    const v = params.get(param);
    if (v !== null && v !== '' && v !== '1' && v !== 'true' && v !== 'on' && v !== '0' && v !== 'false')
      return { error: `${param} is a flag: 1 or 0 (got '${v.slice(0, 40)}')` };
    flags[field] = v === '1' || v === 'true' || v === 'on';
  }
  const router = text('router');
  const scorer = text('scorer');
  const skill = text('skill');
  const conversation = text('conversation');
  return {
    ...(router === undefined ? {} : { router }),
    ...(scorer === undefined ? {} : { scorer }),
    ...(verdict === undefined ? {} : { verdict: verdict as Tier2VerdictKind }),
    ...(skill === undefined ? {} : { skill }),
    ...(conversation === undefined ? {} : { conversation }),
    nearTie: flags.nearTie!,
    misrouted: flags.misrouted!,
    floorless: flags.floorless!,
    inconsistent: flags.inconsistent!,
  };
}

/** The query string that asks for `filter` (and `page` past the first), to link a page of it. */
export function filterQuery(filter: DecisionFilter, page = 1): string {
  const params = new URLSearchParams();
  for (const name of ['router', 'scorer', 'verdict', 'skill', 'conversation'] as const) {
    const v = filter[name];
    if (v !== undefined) params.set(name, v);
  }
  for (const [param, field] of FILTER_FLAGS) if (filter[field]) params.set(param, '1');
  if (page > 1) params.set('page', String(page));
  const q = params.toString();
  return q === '' ? '' : `?${q}`;
}

/** Positions of the decisions `filter` keeps, newest first. */
export function filterDecisionPositions(index: WindowIndex, filter: DecisionFilter): number[] {
  // A name the window does not hold matches nothing (-2 is no table index).
  const want = (table: StringTable, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const at = table.find(v);
    return at === -1 ? -2 : at;
  };
  const router = want(index.routers, filter.router);
  const scorer = want(index.scorers, filter.scorer);
  const skill = want(index.skills, filter.skill);
  const conversation = want(index.conversations, filter.conversation);
  const verdict = filter.verdict === undefined ? undefined : VERDICTS.indexOf(filter.verdict);
  let mask = 0;
  for (const [, field, , bit] of FILTER_FLAGS) if (filter[field]) mask |= bit;
  const out: number[] = [];
  for (const i of index.newestFirst) {
    if (router !== undefined && index.router[i] !== router) continue;
    if (scorer !== undefined && index.scorer[i] !== scorer) continue;
    if (verdict !== undefined && index.verdict[i] !== verdict) continue;
    if (conversation !== undefined && index.conversation[i] !== conversation) continue;
    if (skill !== undefined && index.skill[i] !== skill && index.runnerUp[i] !== skill) continue;
    if ((index.flags[i]! & mask) !== mask) continue;
    out.push(i);
  }
  return out;
}

/** One page of a list: its rows and where it stands. */
export interface ListPage<T> {
  readonly rows: readonly T[];
  /** 1-based; past the last asks for the last. */
  readonly number: number;
  readonly pages: number;
  readonly entries: number;
}

/** Page `asked` (1-based) of `all`. */
export function pageOf<T>(all: readonly T[], asked: number): ListPage<T> {
  const pages = Math.max(1, Math.ceil(all.length / LIST_PAGE_SIZE));
  const number = Math.min(Math.max(1, Number.isFinite(asked) ? Math.floor(asked) : 1), pages);
  const from = (number - 1) * LIST_PAGE_SIZE;
  return { rows: all.slice(from, from + LIST_PAGE_SIZE), number, pages, entries: all.length };
}

/** What a search match is. */
export type MatchKind = 'conversation' | 'trace' | 'span' | 'skill' | 'router' | 'scorer';

/** One match of a search, and the page it leads to. */
export interface SearchMatch {
  readonly kind: MatchKind;
  readonly value: string;
  readonly href: string;
}

/** What a search found: exact matches when there are any, else those that start with the query. */
export interface SearchResult {
  readonly query: string;
  readonly exact: boolean;
  readonly matches: readonly SearchMatch[];
  /** Matches past MAX_SEARCH_MATCHES, counted. */
  readonly more: number;
}

/** The explain page of a trace or conversation id. */
export function explainHref(id: string): string {
  return `/explain/${encodeURIComponent(id)}`;
}

/** Search the window for `query` (trimmed; ids compared as typed, then case-blind by prefix). */
export function searchWindow(index: WindowIndex, query: string): SearchResult {
  const q = query.trim().slice(0, MAX_QUERY_LENGTH);
  const named: readonly [MatchKind, StringTable][] = [
    ['conversation', index.conversations],
    ['skill', index.skills],
    ['router', index.routers],
    ['scorer', index.scorers],
  ];
  const hrefOf = (kind: MatchKind, value: string): string | undefined => {
    switch (kind) {
      case 'conversation':
      case 'trace':
        return explainHref(value);
      case 'span': {
        const trace = traceOfSpan(index, value);
        return trace === undefined ? undefined : explainHref(trace);
      }
      default:
        return `/decisions?${new URLSearchParams({ [kind]: value }).toString()}`;
    }
  };
  const matches: SearchMatch[] = [];
  const seen = new Set<string>();
  let more = 0;
  const keep = (kind: MatchKind, value: string): void => {
    // A trace holds several decisions: one match each.
    const key = `${kind} ${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    const href = hrefOf(kind, value);
    if (href === undefined) return;
    if (matches.length < MAX_SEARCH_MATCHES) matches.push({ kind, value, href });
    else more++;
  };
  if (q === '') return { query: q, exact: false, matches, more };
  // Trace and span ids: the decisions' and the misroute marks' (hex, stored lower-case; one pasted from a log in
  // capitals is the same id).
  const ids = (kind: 'trace' | 'span', test: (id: string) => boolean): void => {
    for (const id of kind === 'trace' ? index.traceIds : index.spanIds) if (test(id)) keep(kind, id);
    for (const m of index.marks) {
      const id = kind === 'trace' ? m.traceId : m.spanId;
      if (test(id)) keep(kind, id);
    }
  };
  const hex = /^[0-9a-fA-F]+$/.test(q) ? q.toLowerCase() : undefined;
  if (index.conversations.find(q) !== -1) keep('conversation', q);
  if (hex !== undefined) {
    ids('trace', (id) => id === hex);
    ids('span', (id) => id === hex);
  }
  for (const [kind, table] of named) if (kind !== 'conversation' && table.find(q) !== -1) keep(kind, q);
  if (matches.length > 0) return { query: q, exact: true, matches, more };
  const lower = q.toLowerCase();
  for (const [kind, table] of named)
    for (const value of table.values) if (value.toLowerCase().startsWith(lower)) keep(kind, value);
  if (hex !== undefined) {
    ids('trace', (id) => id.startsWith(hex));
    ids('span', (id) => id.startsWith(hex));
  }
  return { query: q, exact: false, matches, more };
}

/** The trace of a span in the window (a decision's, else a misroute mark's). */
function traceOfSpan(index: WindowIndex, spanId: string): string | undefined {
  const at = index.spanIds.indexOf(spanId);
  if (at !== -1) return index.traceIds[at];
  return index.marks.find((m) => m.spanId === spanId)?.traceId;
}
