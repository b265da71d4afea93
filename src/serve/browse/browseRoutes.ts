/**
 * browseRoutes — the live page's lists and search, as answers: `/decisions`, `/conversations`, `/misroutes`,
 * `/search?q=`, each also as JSON (`.json` before the query).
 *
 * Every answer is made from the window index of the current view (kept per revision with the overview): one
 * scan of its arrays and one page of at most LIST_PAGE_SIZE rows rendered, whatever the window holds. A search
 * that finds exactly one thing sends the browser there (303); several are a list to pick from; none is 404, as
 * is a filter that names something malformed (400, saying which parameter). Pure. No I/O.
 */
import { renderHtml } from '../../report/html/renderHtml.js';
import type { ReportDocument } from '../../report/document.js';
import {
  conversationsDocument,
  conversationsJson,
  decisionsDocument,
  decisionsJson,
  misroutesDocument,
  misroutesJson,
  serveNav,
} from './browsePages.js';
import { searchDocument, searchJson } from './searchPage.js';
import { filterDecisionPositions, pageOf, readDecisionFilter, searchWindow } from './browseQueries.js';
import type { WindowIndex } from './windowIndex.js';

/** The paths answered here, without `.json`. */
export const BROWSE_PATHS: readonly string[] = ['/decisions', '/conversations', '/misroutes', '/search'];

/** An answer: a page or a JSON document with its status, or a redirect. */
export type BrowseAnswer =
  | { readonly kind: 'page'; readonly status: number; readonly json: boolean; readonly body: string }
  | { readonly kind: 'redirect'; readonly location: string };

/** What the routes read: the index of the view being shown, and how many decisions the window evicted. */
export interface BrowseSource {
  readonly index: WindowIndex;
  readonly evicted: number;
  readonly revision: number;
  readonly schemaVersion: number;
}

/** The base path of a browse route (`/decisions.json` → `/decisions`), or undefined when it is not one. */
export function browsePath(path: string): { readonly base: string; readonly json: boolean } | undefined {
  const json = path.endsWith('.json');
  const base = json ? path.slice(0, -'.json'.length) : path;
  return BROWSE_PATHS.includes(base) ? { base, json } : undefined;
}

/** Answer `base` (a BROWSE_PATHS entry) for the query `params`. */
export function answerBrowse(
  base: string,
  json: boolean,
  params: URLSearchParams,
  source: BrowseSource,
): BrowseAnswer {
  const { index, schemaVersion } = source;
  const asked = Number(params.get('page') ?? 1);
  const page = (
    status: number,
    doc: () => ReportDocument,
    data: () => unknown,
    query?: string,
  ): BrowseAnswer => ({
    kind: 'page',
    status,
    json,
    body: json
      ? `${JSON.stringify(data(), null, 2)}\n`
      : renderHtml(doc(), { live: { script: '/live.js', revision: source.revision }, nav: serveNav(query) }),
  });
  switch (base) {
    case '/decisions': {
      const filter = readDecisionFilter(params);
      if ('error' in filter) return errorPage(json, filter.error, schemaVersion);
      const rows = pageOf(filterDecisionPositions(index, filter), asked);
      return page(
        200,
        () => decisionsDocument(index, filter, rows),
        () => decisionsJson(index, filter, rows, schemaVersion),
      );
    }
    case '/conversations': {
      const rows = pageOf(index.conversationRows, asked);
      return page(
        200,
        () => conversationsDocument(index, rows),
        () => conversationsJson(index, rows, schemaVersion),
      );
    }
    case '/misroutes': {
      const rows = pageOf(index.marks, asked);
      return page(
        200,
        () => misroutesDocument(rows),
        () => misroutesJson(rows, schemaVersion),
      );
    }
    default: {
      const result = searchWindow(index, params.get('q') ?? '');
      if (!json && result.matches.length === 1 && result.more === 0)
        return { kind: 'redirect', location: result.matches[0]!.href };
      const status = result.query !== '' && result.matches.length === 0 ? 404 : 200;
      return page(
        status,
        () => searchDocument(result, source.evicted),
        () => searchJson(result, schemaVersion),
        result.query,
      );
    }
  }
}

/** A request the lists cannot answer: 400 with what was wrong. */
function errorPage(json: boolean, message: string, schemaVersion: number): BrowseAnswer {
  return {
    kind: 'page',
    status: 400,
    json,
    body: json
      ? `${JSON.stringify({ schemaVersion, command: 'serve', error: message }, null, 2)}\n`
      : renderHtml(
          [
            { kind: 'title', text: 'routescope serve — a list could not be made' },
            { kind: 'heading', text: 'The request' },
            { kind: 'paragraph', text: message },
          ],
          { live: { script: '/live.js' }, nav: serveNav() },
        ),
  };
}
