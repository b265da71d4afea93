/**
 * searchPage — what serve's search found (`/search?q=`), as a report document and as JSON: the matches to pick
 * from, each leading to its explain or its filtered list, or that nothing in the window matched. Pure. No I/O.
 */
import type { Block, ReportDocument } from '../../report/document.js';
import { tone } from '../../report/document.js';
import { countOf, formatCount } from '../../report/formatValues.js';
import type { SearchResult } from './browseQueries.js';

/** What a search found (`/search?q=`): a list to pick from, or that nothing matched. */
export function searchDocument(result: SearchResult, evicted: number): ReportDocument {
  const head: Block[] = [
    { kind: 'title', text: 'routescope serve — search' },
    {
      kind: 'paragraph',
      text:
        result.query === ''
          ? 'Type a conversation id, trace id, span id, skill, router or scorer name (or the start of one).'
          : `${countOf(result.matches.length + result.more, 'match', 'matches')} in the window for “${result.query}”${result.exact ? '' : ' (ids and names that start with it)'}.`,
    },
    { kind: 'heading', text: 'Search' },
  ];
  if (result.matches.length === 0) {
    return [
      ...head,
      {
        kind: 'paragraph',
        text: tone(
          result.query === ''
            ? 'Nothing asked yet: use the search box above.'
            : `Nothing in the window matches “${result.query}”.${evicted > 0 ? ` The window has evicted ${countOf(evicted, 'older decision')}; search the --out file with routescope explain for those.` : ''}`,
          'warn',
        ),
      },
    ];
  }
  return [
    ...head,
    {
      kind: 'table',
      columns: [{ title: 'kind' }, { title: 'match' }, { title: 'opens' }],
      rows: result.matches.map((m) => [
        m.kind,
        { text: m.value, look: 'id', href: m.href },
        m.href.startsWith('/explain/') ? 'explain' : 'decisions list',
      ]),
    },
    ...(result.more > 0
      ? [
          {
            kind: 'paragraph' as const,
            text: tone(`${formatCount(result.more)} more not listed: type more of the id.`, 'dim'),
          },
        ]
      : []),
  ];
}

/** What a search found, as JSON (`/search.json?q=`). */
export function searchJson(result: SearchResult, schemaVersion: number): Record<string, unknown> {
  return { schemaVersion, command: 'serve', search: result };
}
