/**
 * browsePages — serve's lists and search results as report documents and JSON: recent decisions (filtered),
 * the conversations of the window, the misroute marks, and what a search found.
 *
 * The way in for an engineer on call who holds one id: every row links to explain (its conversation, its
 * trace), every list is newest first and paged, and a list says what it counts and over what (the window, not
 * everything ever received). The same pages as JSON (`.json`) carry the rows as data. Pure. No I/O.
 */
import type { Block, FormField, Inline, ReportDocument, Span } from '../../report/document.js';
import { look, tone } from '../../report/document.js';
import type { HtmlNav } from '../../report/html/htmlPage.js';
import { countOf, formatCount, formatSetting, formatTime } from '../../report/formatValues.js';
import {
  FILTER_FLAGS,
  LIST_PAGE_SIZE,
  explainHref,
  filterQuery,
  type DecisionFilter,
  type ListPage,
} from './browseQueries.js';
import {
  FLOORLESS,
  INCONSISTENT,
  MISROUTED,
  NEAR_TIE,
  VERDICTS,
  type ConversationRow,
  type MarkRow,
  type WindowIndex,
} from './windowIndex.js';

/** The links at the top of every serve page, and its search box (showing `query`). */
export function serveNav(query?: string): HtmlNav {
  return {
    links: [
      { text: 'Overview', href: '/' },
      { text: 'Decisions', href: '/decisions' },
      { text: 'Conversations', href: '/conversations' },
      { text: 'Misroute marks', href: '/misroutes' },
    ],
    search: { action: '/search', ...(query === undefined ? {} : { query }) },
  };
}

/** An id that links to its explain page. */
function explainLink(id: string | undefined): Inline {
  return id === undefined ? tone('—', 'dim') : { text: id, look: 'id', href: explainHref(id) };
}

/** "Page 2 of 7: rows 51–100 of 321" and the links to the others. */
function pagerBlock(page: ListPage<unknown>, path: string, query: (n: number) => string): Block[] {
  if (page.pages <= 1) return [];
  const from = (page.number - 1) * LIST_PAGE_SIZE;
  const link = (n: number, text: string): Span => ({ text, href: `${path}${query(n)}` });
  const links = [
    ...(page.number > 1 ? [link(1, '« first'), link(page.number - 1, '‹ newer')] : []),
    ...(page.number < page.pages ? [link(page.number + 1, 'older ›'), link(page.pages, 'oldest »')] : []),
  ];
  return [
    {
      kind: 'paragraph',
      text: [
        `Page ${formatCount(page.number)} of ${formatCount(page.pages)}: ${formatCount(from + 1)}–${formatCount(from + page.rows.length)} of ${formatCount(page.entries)}. `,
        ...links.flatMap((l, i) => (i === 0 ? [l] : [' · ', l])),
      ],
    },
  ];
}

/** What a filter asks, in words ("router billing-desk, near-ties only"). */
export function describeFilter(filter: DecisionFilter): string {
  const parts: string[] = [];
  if (filter.router !== undefined) parts.push(`router ${filter.router}`);
  if (filter.scorer !== undefined) parts.push(`scorer ${filter.scorer}`);
  if (filter.verdict !== undefined) parts.push(`verdict ${filter.verdict}`);
  if (filter.skill !== undefined) parts.push(`skill ${filter.skill} (chosen or runner-up)`);
  if (filter.conversation !== undefined) parts.push(`conversation ${filter.conversation}`);
  for (const [, field, label] of FILTER_FLAGS) if (filter[field]) parts.push(label);
  return parts.length === 0 ? 'every decision' : parts.join(', ');
}

/** Gap against margin, as explain words it ("0.0123 < 0.05 near-tie"). */
function gapText(index: WindowIndex, i: number): Inline {
  const gap = index.gap[i]!;
  if (!Number.isFinite(gap)) return tone('no runner-up', 'dim');
  const near = (index.flags[i]! & NEAR_TIE) !== 0;
  return [
    `${formatSetting(gap)} ${gap < index.margin[i]! ? '<' : '≥'} ${formatSetting(index.margin[i])} `,
    near ? tone('near-tie', 'warn') : tone('decisive', 'good'),
  ];
}

/** The filter form: the window's routers and scorers to pick from, the verdicts, the flags. */
function filterForm(index: WindowIndex, filter: DecisionFilter): Block {
  const choices = (values: readonly string[]): (readonly [string, string])[] => [
    ['', 'any'],
    ...[...values].sort().map((v) => [v, v] as const),
  ];
  const fields: FormField[] = [
    {
      kind: 'select',
      name: 'router',
      label: 'router',
      options: choices(index.routers.values),
      value: filter.router ?? '',
    },
    {
      kind: 'select',
      name: 'scorer',
      label: 'scorer',
      options: choices(index.scorers.values),
      value: filter.scorer ?? '',
    },
    {
      kind: 'select',
      name: 'verdict',
      label: 'verdict',
      options: choices(VERDICTS),
      value: filter.verdict ?? '',
    },
    ...FILTER_FLAGS.map(([param, field, label]): FormField => ({
      kind: 'checkbox',
      name: param,
      label,
      checked: filter[field],
    })),
    ...(filter.skill === undefined ? [] : [{ kind: 'hidden', name: 'skill', value: filter.skill } as const]),
    ...(filter.conversation === undefined
      ? []
      : [{ kind: 'hidden', name: 'conversation', value: filter.conversation } as const]),
  ];
  return { kind: 'form', action: '/decisions', fields };
}

/** The decisions list (`/decisions`): `positions` the filtered ones, newest first. */
export function decisionsDocument(
  index: WindowIndex,
  filter: DecisionFilter,
  page: ListPage<number>,
): ReportDocument {
  const rows = page.rows.map((i): Inline[] => {
    const flags = index.flags[i]!;
    const trace = index.traceIds[i]!;
    const verdict = VERDICTS[index.verdict[i]!] ?? 'unknown';
    return [
      { text: formatTime(index.time[i]!), href: explainHref(trace) },
      explainLink(index.conversations.get(index.conversation[i]!)),
      index.routers.get(index.router[i]!) ?? '—',
      index.scorers.get(index.scorer[i]!) ?? '—',
      [{ text: verdict, look: 'verdict' }, ` ${index.skills.get(index.skill[i]!) ?? ''}`],
      gapText(index, i),
      [
        flags & MISROUTED ? tone('misroute mark ', 'bad') : '',
        flags & INCONSISTENT ? tone('inconsistent ', 'bad') : '',
        flags & FLOORLESS ? tone('floorless', 'warn') : '',
      ],
    ];
  });
  return [
    { kind: 'title', text: `routescope serve — decisions` },
    {
      kind: 'paragraph',
      text: `${countOf(page.entries, 'decision')} of the ${formatCount(index.decisions)} in the window match ${describeFilter(filter)}; newest first.`,
    },
    { kind: 'heading', text: 'Decisions' },
    filterForm(index, filter),
    ...(page.entries === 0
      ? [
          {
            kind: 'paragraph' as const,
            text: tone(`No decision in the window matches ${describeFilter(filter)}.`, 'warn'),
          },
        ]
      : [
          {
            kind: 'table' as const,
            columns: [
              { title: 'time (UTC)' },
              { title: 'conversation' },
              { title: 'router' },
              { title: 'scorer' },
              { title: 'verdict' },
              { title: 'gap vs margin' },
              { title: 'marks' },
            ],
            rows,
            legend: [
              ['time', 'opens the decision’s trace in explain'],
              ['conversation', 'opens all of its decisions in explain'],
              ['verdict', 'and the skill it went to (the top candidate when it did not move)'],
            ] as const,
          },
        ]),
    ...pagerBlock(page, '/decisions', (n) => filterQuery(filter, n)),
  ];
}

/** The decisions list as JSON (`/decisions.json`). */
export function decisionsJson(
  index: WindowIndex,
  filter: DecisionFilter,
  page: ListPage<number>,
  schemaVersion: number,
): Record<string, unknown> {
  return {
    schemaVersion,
    command: 'serve',
    list: 'decisions',
    filter,
    page: pageJson(page),
    decisions: page.rows.map((i) => {
      const flags = index.flags[i]!;
      const gap = index.gap[i]!;
      return {
        timeUnixMs: index.time[i],
        traceId: index.traceIds[i],
        spanId: index.spanIds[i],
        conversationId: index.conversations.get(index.conversation[i]!) ?? null,
        router: index.routers.get(index.router[i]!) ?? null,
        scorer: index.scorers.get(index.scorer[i]!) ?? null,
        verdict: VERDICTS[index.verdict[i]!],
        skill: index.skills.get(index.skill[i]!) ?? null,
        runnerUp: index.skills.get(index.runnerUp[i]!) ?? null,
        gap: Number.isFinite(gap) ? gap : null,
        nearTieMargin: index.margin[i],
        nearTie: (flags & NEAR_TIE) !== 0,
        misrouted: (flags & MISROUTED) !== 0,
        floorless: (flags & FLOORLESS) !== 0,
        inconsistent: (flags & INCONSISTENT) !== 0,
      };
    }),
  };
}

function pageJson(page: ListPage<unknown>): Record<string, number> {
  return { number: page.number, pages: page.pages, size: LIST_PAGE_SIZE, entries: page.entries };
}

/** The conversations list (`/conversations`). */
export function conversationsDocument(index: WindowIndex, page: ListPage<ConversationRow>): ReportDocument {
  return [
    { kind: 'title', text: 'routescope serve — conversations' },
    {
      kind: 'paragraph',
      text: `${countOf(page.entries, 'conversation')} in the window, most recently active first.`,
    },
    { kind: 'heading', text: 'Conversations' },
    page.entries === 0
      ? { kind: 'paragraph', text: tone('No decision in the window names a conversation.', 'warn') }
      : {
          kind: 'table',
          columns: [
            { title: 'conversation' },
            { title: 'decisions', align: 'right' },
            { title: 'near-ties', align: 'right' },
            { title: 'misroute marks', align: 'right' },
            { title: 'first (UTC)' },
            { title: 'last (UTC)' },
          ],
          rows: page.rows.map((r) => {
            const id = index.conversations.get(r.conversation)!;
            return [
              explainLink(id),
              r.decisions === 0
                ? '0'
                : {
                    text: formatCount(r.decisions),
                    href: `/decisions${filterQuery(conversationFilter(id))}`,
                  },
              formatCount(r.nearTies),
              r.marks === 0 ? '0' : tone(formatCount(r.marks), 'bad'),
              formatTime(r.firstMs),
              formatTime(r.lastMs),
            ];
          }),
        },
    ...pagerBlock(page, '/conversations', (n) => (n > 1 ? `?page=${n}` : '')),
  ];
}

function conversationFilter(conversation: string): DecisionFilter {
  return { conversation, nearTie: false, misrouted: false, floorless: false, inconsistent: false };
}

/** The conversations list as JSON (`/conversations.json`). */
export function conversationsJson(
  index: WindowIndex,
  page: ListPage<ConversationRow>,
  schemaVersion: number,
): Record<string, unknown> {
  return {
    schemaVersion,
    command: 'serve',
    list: 'conversations',
    page: pageJson(page),
    conversations: page.rows.map((r) => ({
      conversationId: index.conversations.get(r.conversation),
      decisions: r.decisions,
      nearTies: r.nearTies,
      misrouteMarks: r.marks,
      firstUnixMs: r.firstMs,
      lastUnixMs: r.lastMs,
    })),
  };
}

/** The misroute marks list (`/misroutes`). */
export function misroutesDocument(page: ListPage<MarkRow>): ReportDocument {
  return [
    { kind: 'title', text: 'routescope serve — misroute marks' },
    {
      kind: 'paragraph',
      text: `${countOf(page.entries, 'misroute mark')} in the window, newest first: turns a reviewer or a check said went to the wrong skill.`,
    },
    { kind: 'heading', text: 'Misroute marks' },
    page.entries === 0
      ? { kind: 'paragraph', text: tone('No misroute mark in the window.', 'good') }
      : {
          kind: 'table',
          columns: [
            { title: 'time (UTC)' },
            { title: 'conversation' },
            { title: 'trace' },
            { title: 'router' },
            { title: 'routed to' },
            { title: 'expected' },
            { title: 'reason' },
            { title: 'source' },
          ],
          rows: page.rows.map((m) => [
            formatTime(m.timeUnixMs),
            explainLink(m.conversationId),
            explainLink(m.traceId),
            m.router ?? '—',
            m.routedTo ?? '—',
            m.mark.expected === undefined ? tone('not said', 'dim') : look(m.mark.expected, 'code'),
            m.mark.reason ?? tone('not said', 'dim'),
            m.mark.source ?? tone('not said', 'dim'),
          ]),
        },
    ...pagerBlock(page, '/misroutes', (n) => (n > 1 ? `?page=${n}` : '')),
  ];
}

/** The misroute marks as JSON (`/misroutes.json`). */
export function misroutesJson(page: ListPage<MarkRow>, schemaVersion: number): Record<string, unknown> {
  return {
    schemaVersion,
    command: 'serve',
    list: 'misroutes',
    page: pageJson(page),
    marks: page.rows.map((m) => ({
      timeUnixMs: m.timeUnixMs,
      traceId: m.traceId,
      spanId: m.spanId,
      conversationId: m.conversationId ?? null,
      router: m.router ?? null,
      routedTo: m.routedTo ?? null,
      expected: m.mark.expected ?? null,
      reason: m.mark.reason ?? null,
      source: m.mark.source ?? null,
    })),
  };
}
