/**
 * htmlPage — the frame of every HTML report: one self-contained file with its stylesheet, headline figures,
 * sections of charts and tables, and nothing to fetch.
 *
 * A Content-Security-Policy meta tag forbids every script and every network load, so even a page built from
 * hostile trace data can neither run code nor call home; the page needs neither (charts are inline SVG, see
 * svgCharts). Table cells are text unless renderHtml hands over markup it made itself (`{ html }`), so escaping
 * is the default, not a thing to remember. Pure.
 */
import type { Legend } from '../document.js';
import { CHART_COLORS, INK, TONE_COLORS, VERDICT_COLORS } from '../palette.js';
import { escapeHtml } from './escapeHtml.js';

/** A table cell: text (escaped), a number (formatted by the caller), or markup a report builder made. */
export type HtmlCell = string | number | { readonly html: string };

/** One section of the page. */
export interface HtmlSection {
  /** The heading; a section without one is a plain card. */
  readonly title?: string;
  /** A sentence under the title (text). */
  readonly intro?: string;
  /** Markup built by renderHtml (svgCharts, htmlTable). */
  readonly body: string;
  /** Lay the section out at half width beside its neighbour. */
  readonly half?: boolean;
}

/** One headline figure; with `href` (a path of the page's own site) the card is a link. */
export interface HtmlStat {
  readonly label: string;
  readonly value: string;
  readonly tone?: 'good' | 'warn' | 'bad';
  readonly href?: string;
}

/** The links and the search box at the top of every serve page. */
export interface HtmlNav {
  readonly links: readonly { readonly text: string; readonly href: string }[];
  /** The search form's action (a path) and the query it shows. */
  readonly search?: { readonly action: string; readonly query?: string };
}

// http(s) addresses, paths of the page's own site (serve's pages link each other; never `//host`), and a
// section of the same page (`#near-tie-hot-spots`: a static report's tiles link there).
const SAFE_LINK = /^(?:https?:\/\/|\/(?![/\\])|#[a-z0-9-]+$)/i;

/** A section's id on the page: its title, lower case, words joined by dashes (`Near-tie hot spots` → `near-tie-hot-spots`). */
export function sectionId(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Is `href` a link a page may carry (an http(s) address or a path of its own site)? */
export function isSafeHref(href: string): boolean {
  return SAFE_LINK.test(href);
}

/** The page as a whole. */
export interface HtmlPage {
  readonly title: string;
  readonly subtitle?: string;
  readonly stats?: readonly HtmlStat[];
  readonly sections: readonly HtmlSection[];
  /** Plain-text lines in the footer (input counts, caveats). */
  readonly notes?: readonly string[];
  /**
   * A page served live by `routescope serve`: one same-origin script (`script`, a path such as `/live.js`)
   * that keeps it current, and the `revision` of what the page shows. The policy then allows that script and
   * same-origin requests, nothing else.
   */
  readonly live?: { readonly script: string; readonly revision?: number };
  /** serve's links between its pages and its search box (live pages only: a file has nowhere to search). */
  readonly nav?: HtmlNav;
}

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
// A live page may submit its own search and filter forms (GET, to itself) and nothing else.
const LIVE_CSP = `${CSP.replace("form-action 'none'", "form-action 'self'")}; script-src 'self'; connect-src 'self'`;

const STYLE = `
:root{--ink:${INK.text};--muted:${INK.muted};--line:${INK.line};--bg:${INK.background};--card:${INK.card};--accent:${VERDICT_COLORS.move}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header{background:${INK.header};color:${INK.headerText};padding:22px 32px 18px}
header h1{margin:0;font-size:22px;font-weight:600;letter-spacing:.2px;overflow-wrap:break-word}
header nav{display:flex;flex-wrap:wrap;align-items:center;gap:6px 14px;margin-top:10px;font-size:13px}
header nav a{color:${INK.headerText}}
header form{display:flex;gap:6px;flex:1 1 280px;max-width:520px;margin-left:auto}
header input[type=search]{flex:1;min-width:0;padding:5px 8px;border-radius:6px;border:1px solid ${INK.headerMuted};font:inherit}
header button,form.filters button{padding:5px 12px;border-radius:6px;border:1px solid var(--line);background:var(--card);font:inherit;cursor:pointer}
form.filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center}
form.filters label{display:flex;gap:6px;align-items:center}
form.filters select{font:inherit;max-width:220px}
a.stat{color:inherit;text-decoration:none}a.stat:hover{border-color:var(--accent)}a.stat span{text-decoration:underline}
header p{margin:4px 0 0;color:${INK.headerMuted}}
main{max-width:1320px;margin:0 auto;padding:20px 24px 40px;display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:18px}
.stats{grid-column:1/-1;display:flex;flex-wrap:wrap;gap:12px}
.stat{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 16px;min-width:150px;flex:1}
.stat b{display:block;font-size:22px;font-weight:600}
.stat span{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.4px}
.stat.good b,.good{color:${TONE_COLORS.good}}.stat.warn b,.warn{color:${TONE_COLORS.warn}}.stat.bad b,.bad{color:${TONE_COLORS.bad}}
.dim{color:var(--muted)}
section{grid-column:1/-1;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 20px;min-width:0}
section.half{grid-column:auto}
@media (max-width:900px){main{grid-template-columns:minmax(0,1fr);padding:12px 10px 32px}section.half{grid-column:1/-1}header{padding:16px 14px}}
@media (max-width:600px){.stat{min-width:130px}.chartbox svg.chart{max-width:none}table.fields code.id{white-space:normal;word-break:break-all}.scroll table:not(.fields){width:max-content;min-width:100%}.scroll table:not(.fields) td{max-width:70vw}}
section h2{margin:0 0 4px;font-size:16px;font-weight:600}
section p.intro{margin:0 0 12px;color:var(--muted)}
section ul{margin:8px 0;padding-left:20px}
svg.chart{display:block;max-width:100%;height:auto;font-family:inherit;overflow:visible}
.chartbox{overflow-x:auto}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:5px 10px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:break-word}
th{color:var(--muted);font-weight:600;font-size:12px;text-transform:uppercase;letter-spacing:.3px}
table.fields th{width:1%;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr:last-child td,tr:last-child th{border-bottom:none}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:${INK.code};border-radius:4px;padding:1px 4px}
code.id{white-space:nowrap;display:inline-block;margin:1px 0;user-select:all}
p.legend{margin:8px 0 0;color:var(--muted);font-size:12px}
p.legend b{color:var(--ink);font-weight:600}
.more{color:var(--muted);font-size:12px}
.pill{display:inline-block;border-radius:9px;padding:0 8px;font-size:12px;color:#fff;background:${CHART_COLORS.unknown}}
.move{background:${VERDICT_COLORS.move}}.stay{background:${VERDICT_COLORS.stay}}.menu{background:${VERDICT_COLORS.menu}}.unmatched{background:${VERDICT_COLORS.unmatched}}
.swatch{display:inline-block;width:12px;height:12px;vertical-align:-2px;margin-right:6px;border-radius:2px}
.decision{border-top:1px solid var(--line);padding-top:12px;margin-top:12px}
.decision:first-of-type{border-top:none;margin-top:0;padding-top:0}
footer{max-width:1320px;margin:0 auto;padding:0 32px 32px;color:var(--muted);font-size:12px}
footer p{margin:2px 0}
`;

/** Render the whole page. Every string in `page` is text except `sections[].body` (builder markup). */
export function renderHtmlPage(page: HtmlPage): string {
  const stats =
    page.stats && page.stats.length > 0
      ? `<div class="stats">${page.stats
          .map((s) => {
            const inner = `<span>${escapeHtml(s.label)}</span><b>${escapeHtml(s.value)}</b>`;
            const cls = `stat${s.tone ? ` ${s.tone}` : ''}`;
            return s.href !== undefined && isSafeHref(s.href)
              ? `<a class="${cls}" href="${escapeHtml(s.href)}">${inner}</a>`
              : `<div class="${cls}">${inner}</div>`;
          })
          .join('')}</div>`
      : '';
  // Ids stay unique on the page: a second section of the same title gets `-2`.
  const used = new Map<string, number>();
  const uniqueId = (title: string): string => {
    const id = sectionId(title);
    const n = (used.get(id) ?? 0) + 1;
    used.set(id, n);
    return n === 1 ? id : `${id}-${n}`;
  };
  const sections = page.sections
    .map(
      (s) =>
        `<section${s.title === undefined ? '' : ` id="${uniqueId(s.title)}"`}${s.half ? ' class="half"' : ''}>${s.title === undefined ? '' : `<h2>${escapeHtml(s.title)}</h2>`}` +
        `${s.intro ? `<p class="intro">${escapeHtml(s.intro)}</p>` : ''}${s.body}</section>`,
    )
    .join('\n');
  const notes = (page.notes ?? []).map((n) => `<p>${escapeHtml(n)}</p>`).join('');
  const live = page.live;
  return (
    `<!doctype html>\n<html lang="en"${live?.revision === undefined ? '' : ` data-revision="${live.revision}"`}><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${live ? LIVE_CSP : CSP}">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="referrer" content="no-referrer">' +
    `<title>${escapeHtml(page.title)}</title><style>${STYLE}</style>` +
    (live ? `<script src="${escapeHtml(live.script)}" defer></script>` : '') +
    '</head><body>' +
    `<header><h1>${escapeHtml(page.title)}</h1>${page.subtitle ? `<p>${escapeHtml(page.subtitle)}</p>` : ''}${live && page.nav ? navHtml(page.nav) : ''}</header>` +
    `<main>${stats}\n${sections}</main>` +
    `<footer>${notes}<p>${live ? 'Served live by routescope serve: it talks to this server only, no other network.' : 'Generated by routescope. Self-contained: no scripts, no network.'}</p></footer>` +
    '</body></html>\n'
  );
}

/** serve's links and search box; links that are not the site's own paths or http(s) are left out. */
function navHtml(nav: HtmlNav): string {
  const links = nav.links
    .filter((l) => isSafeHref(l.href))
    .map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a>`);
  const search =
    nav.search === undefined || !isSafeHref(nav.search.action)
      ? ''
      : `<form role="search" method="get" action="${escapeHtml(nav.search.action)}">` +
        `<input type="search" name="q" value="${escapeHtml(nav.search.query ?? '')}" placeholder="conversation id, trace id, span id or skill" aria-label="search the window" maxlength="1024">` +
        '<button type="submit">Search</button></form>';
  return `<nav>${links.join('')}${search}</nav>`;
}

/** A table; `numeric` marks the columns to right-align, `legend` says what its columns mean. Text is escaped. */
export function htmlTable(
  headers: readonly string[],
  rows: readonly (readonly HtmlCell[])[],
  numeric: readonly number[] = [],
  legend: Legend = [],
): string {
  if (rows.length === 0) return '<p class="intro">None.</p>';
  const isNum = new Set(numeric);
  const head = headers
    .map((h, i) => `<th${isNum.has(i) ? ' class="num"' : ''}>${escapeHtml(h)}</th>`)
    .join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((c, i) => `<td${isNum.has(i) ? ' class="num"' : ''}>${cellHtml(c)}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>${htmlLegend(legend)}`;
}

/** A table's legend as one muted line: each column in bold, then what it means. */
export function htmlLegend(legend: Legend): string {
  if (legend.length === 0) return '';
  const items = legend.map(([column, meaning]) => `<b>${escapeHtml(column)}</b> ${escapeHtml(meaning)}`);
  return `<p class="legend">${items.join(' · ')}</p>`;
}

/** A verdict as a coloured pill. */
export function htmlVerdict(kind: string): { html: string } {
  const known = kind === 'move' || kind === 'stay' || kind === 'menu' || kind === 'unmatched';
  return {
    html: `<span class="pill${known ? ` ${kind}` : ''}">${escapeHtml(kind)}</span>`,
  };
}

/**
 * A few ids as monospace chips, whole (a trace id is 32 characters: what `explain` takes, selected in one
 * click), and how many more there are. Ids longer than `chars` are cut, the full id in the tooltip.
 */
export function htmlIdList(ids: readonly string[], max = 2, chars = 64): { html: string } {
  const chips = ids.slice(0, max).map((id) => {
    const full = escapeHtml(id);
    const cut = [...id].length > chars ? `${escapeHtml([...id].slice(0, chars - 1).join(''))}…` : full;
    return `<code class="id" title="${full}">${cut}</code>`;
  });
  const more = ids.length > max ? ` <span class="more">+${ids.length - max}</span>` : '';
  return { html: chips.join(' ') + more };
}

function cellHtml(c: HtmlCell): string {
  if (typeof c === 'number') return escapeHtml(String(c));
  if (typeof c === 'string') return escapeHtml(c);
  return c.html;
}
