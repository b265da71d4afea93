/**
 * explainCache — the explain pages of serve, each id's replay made once and kept while it is young.
 *
 * Explaining an id replays the whole window (sliced); a hundred tabs on one conversation must cost one replay,
 * and a flood of made-up ids must not cost a replay each at once. So at most MAX_EXPLAIN_RENDERS replays run
 * together (a further id is 'busy': 503 with Retry-After), at most MAX_KEPT_EXPLAINS ids are kept holding
 * MAX_KEPT_EXPLAIN_ENTRIES records together, least recently asked going first, and each keeps its last
 * MAX_KEPT_PAGES rendered pages. A page of an id the window does not hold is made like any other, and answered
 * 404 by its route.
 */
import { renderHtml } from '../report/html/renderHtml.js';
import type { TraceLinkConfig } from '../report/traceLinks.js';
import { serveNav } from './browse/browsePages.js';
import {
  buildWindowExplain,
  explainPageDocument,
  explainPageJson,
  explainPageOf,
  explainPageView,
  type WindowExplain,
} from './serveExplain.js';
import type { ServeRuntime } from './serveRuntime.js';
import { createSlicer } from './sliceWork.js';

/** Explain views made at once; a further one (of an id not kept) is 503 with Retry-After. */
export const MAX_EXPLAIN_RENDERS = 2;

/** Explain views kept, the most recently asked. */
export const MAX_KEPT_EXPLAINS = 16;

/** Matched records the kept explains may hold together (one conversation of 10,000, or many small ones). */
export const MAX_KEPT_EXPLAIN_ENTRIES = 10_000;

/** Rendered pages kept per explain. */
const MAX_KEPT_PAGES = 8;

/** One id's explain and its pages as rendered (`h3`, `j3`: page 3 as HTML, as JSON), the most recent few. */
interface KeptExplain {
  readonly revision: number;
  readonly view: WindowExplain;
  readonly at: number;
  readonly pages: Map<string, string>;
}

/** One explain page as answered: found (200) or not in the window (404), HTML or JSON. */
export interface ExplainAnswer {
  readonly found: boolean;
  readonly body: string;
}

/** How the cache runs. */
export interface ExplainCacheOptions {
  readonly runtime: ServeRuntime;
  readonly schemaVersion: number;
  /** How long a kept view may be served after the window moved, in ms (the live page's rule). */
  readonly minAge: () => number;
  readonly traceLinks?: TraceLinkConfig;
}

/** The explain pages: `page` is one id's page (`asked`, 1-based) as HTML or JSON, or 'busy'. */
export interface ExplainCache {
  page(id: string, asked: number, path: string, asJson: boolean): Promise<ExplainAnswer | 'busy'>;
}

/** Create the cache. */
export function createExplainCache(options: ExplainCacheOptions): ExplainCache {
  const { runtime } = options;
  const explains = new Map<string, KeptExplain | Promise<KeptExplain>>();
  let explaining = 0;

  const explainView = async (id: string): Promise<KeptExplain | 'busy'> => {
    const found = explains.get(id);
    if (found !== undefined) {
      explains.delete(id);
      explains.set(id, found);
      if (found instanceof Promise) return found;
      if (found.revision === runtime.revision || Date.now() - found.at < options.minAge()) return found;
    }
    if (explaining >= MAX_EXPLAIN_RENDERS)
      return found instanceof Promise || found === undefined ? 'busy' : found;
    explaining++;
    const revision = runtime.revision;
    const made = buildWindowExplain(runtime.state, id, createSlicer())
      .then((view): KeptExplain => ({ revision, view, at: Date.now(), pages: new Map() }))
      .finally(() => explaining--);
    explains.set(id, made);
    while (explains.size > MAX_KEPT_EXPLAINS) explains.delete(explains.keys().next().value!);
    try {
      const k = await made;
      if (explains.get(id) === made) explains.set(id, k);
      // The least recently asked go until what is kept holds at most MAX_KEPT_EXPLAIN_ENTRIES records.
      let entries = 0;
      for (const kept of explains.values()) if (!(kept instanceof Promise)) entries += kept.view.records;
      for (const [other, kept] of explains) {
        if (entries <= MAX_KEPT_EXPLAIN_ENTRIES) break;
        if (other === id || kept instanceof Promise) continue;
        entries -= kept.view.records;
        explains.delete(other);
      }
      return k;
    } catch (error) {
      if (explains.get(id) === made) explains.delete(id);
      throw error;
    }
  };

  return {
    async page(id, asked, path, asJson) {
      const k = await explainView(id);
      if (k === 'busy') return 'busy';
      const found = k.view.records > 0;
      const page = explainPageOf(k.view, asked, path);
      const key = `${asJson ? 'j' : 'h'}${page.number}`;
      let body = k.pages.get(key);
      if (body === undefined) {
        // Requests that waited for the same replay take turns here, each page made once.
        await new Promise<void>((resolve) => setImmediate(resolve));
        body = k.pages.get(key);
      }
      if (body === undefined) {
        // Only this page's records are explained (100 at most).
        const view = explainPageView(k.view, page, options.traceLinks);
        body = asJson
          ? `${JSON.stringify(explainPageJson(view, page, options.schemaVersion), null, 2)}\n`
          : renderHtml(explainPageDocument(runtime.state, id, view, page), {
              // The revision it was made at: the page script fetches it again only when the window moved.
              live: { script: '/live.js', revision: k.revision },
              nav: serveNav(id),
            });
        k.pages.set(key, body);
        if (k.pages.size > MAX_KEPT_PAGES) k.pages.delete(k.pages.keys().next().value!);
      }
      return { found, body };
    },
  };
}
