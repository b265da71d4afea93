/**
 * explainIdBlocks — on a page that links ids (serve's explain), each conversation and trace of the explain as a
 * link to its own page: the way from one decision to the rest of its conversation, and back. Pure.
 */
import type { ExplainReport } from '../analyze/explainDecisions.js';
import { tone, type Block, type Inline, type Span } from './document.js';
import { formatCount } from './formatValues.js';

/** Ids listed at most, per kind, in the links section of a page. */
const MAX_LINKED_IDS = 20;

/** A page's links to each conversation and trace of the explain (serve: each its own explain page). */
export function explainIdBlocks(
  r: ExplainReport,
  idHref: (kind: 'trace' | 'conversation', id: string) => string,
): Block[] {
  const list = (kind: 'trace' | 'conversation', ids: readonly string[]): Inline => [
    ...ids
      .slice(0, MAX_LINKED_IDS)
      .flatMap((id, i): (string | Span)[] => [
        ...(i === 0 ? [] : [' ']),
        { text: id, look: 'id', href: idHref(kind, id) },
      ]),
    ...(ids.length > MAX_LINKED_IDS
      ? [tone(` +${formatCount(ids.length - MAX_LINKED_IDS)} more`, 'dim')]
      : []),
  ];
  return [
    { kind: 'heading', text: 'Conversations and traces', only: 'html' },
    {
      kind: 'fields',
      only: 'html',
      rows: [
        [
          'conversations',
          r.conversationIds.length === 0
            ? tone('none named', 'dim')
            : list('conversation', r.conversationIds),
        ],
        ['traces', list('trace', r.traceIds)],
      ],
    },
  ];
}
