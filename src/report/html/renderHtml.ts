/**
 * renderHtml — a report document as one self-contained page (htmlPage): the title in the header, the
 * paragraphs right under it as its subtitle, key figures as cards, and every heading a section card holding
 * what follows it — tables with their legends, fields, lists, paragraphs and the charts of svgCharts.
 *
 * The same document text and Markdown render, so a page says at least what a terminal says; blocks kept to
 * the page (charts above all) add to it. Every piece of text is escaped here or in htmlPage; a link is made
 * only for an http(s) address, anything else is shown as text. Pure.
 */
import {
  blocksFor,
  legendFor,
  spansFor,
  type Block,
  type Chart,
  type Figure,
  type FormField,
  type Inline,
  type ReportDocument,
  type Span,
} from '../document.js';
import { escapeHtml } from './escapeHtml.js';
import {
  htmlIdList,
  htmlTable,
  htmlVerdict,
  isSafeHref,
  renderHtmlPage,
  type HtmlCell,
  type HtmlPage,
  type HtmlSection,
} from './htmlPage.js';
import { drawBarChart, drawHeatmap, drawHistogram, drawLineChart, drawRankedBars } from './svgCharts.js';

/** How a page is rendered: `live` is serve's same-origin script (see HtmlPage.live), `nav` its links and search. */
export interface RenderHtmlOptions {
  readonly live?: HtmlPage['live'];
  readonly nav?: HtmlPage['nav'];
}

/** Render a document as a whole HTML page (ends with a newline). */
export function renderHtml(doc: ReportDocument, options: RenderHtmlOptions = {}): string {
  const blocks = blocksFor(doc, 'html');
  let title = 'routescope';
  const subtitle: string[] = [];
  const stats: Figure[] = [];
  const sections: { title?: string; half?: boolean; parts: string[] }[] = [];
  let current: (typeof sections)[number] | undefined;
  let afterTitle = false;
  for (const block of blocks) {
    if (block.kind === 'title') {
      title = pageText(block.text);
      afterTitle = true;
      continue;
    }
    if (block.kind === 'paragraph' && afterTitle) {
      subtitle.push(pageText(block.text));
      continue;
    }
    afterTitle = false;
    if (block.kind === 'figures') {
      stats.push(...block.items);
      continue;
    }
    if (block.kind === 'heading') {
      current = { title: pageText(block.text), ...(block.half ? { half: true } : {}), parts: [] };
      sections.push(current);
      continue;
    }
    if (current === undefined) {
      current = { parts: [] };
      sections.push(current);
    }
    // The first paragraph of a section introduces it.
    const intro = block.kind === 'paragraph' && current.parts.length === 0;
    current.parts.push(renderBlock(block, intro));
  }
  return renderHtmlPage({
    title,
    ...(subtitle.length > 0 ? { subtitle: subtitle.join(' ') } : {}),
    stats,
    sections: sections.map((s): HtmlSection => ({
      ...(s.title === undefined ? {} : { title: s.title }),
      ...(s.half ? { half: true } : {}),
      body: s.parts.join(''),
    })),
    ...(options.live === undefined ? {} : { live: options.live }),
    ...(options.nav === undefined ? {} : { nav: options.nav }),
  });
}

/** One block's markup. */
function renderBlock(
  block: Exclude<Block, { kind: 'title' | 'heading' | 'figures' }>,
  intro: boolean,
): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p${intro ? ' class="intro"' : ''}>${inlineHtml(block.text)}</p>`;
    case 'list':
      return `<ul>${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</ul>`;
    case 'fields':
      // In a box of its own that scrolls, as the other tables: a long URL or id never pushes the page sideways.
      return `<div class="scroll"><table class="fields"><tbody>${block.rows
        .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${inlineHtml(value)}</td></tr>`)
        .join('')}</tbody></table></div>`;
    case 'table':
      return htmlTable(
        block.columns.map((c) => c.title),
        block.rows.map((row) => block.columns.map((_, i): HtmlCell => ({ html: inlineHtml(row[i] ?? '') }))),
        block.columns.flatMap((c, i) => (c.align === 'right' ? [i] : [])),
        legendFor(block.legend, 'html'),
      );
    case 'chart':
      // In a box that scrolls: on a phone a chart keeps a legible size instead of shrinking its text.
      return `<div class="chartbox">${drawChart(block.chart)}</div>`;
    case 'form':
      return formHtml(block.action, block.fields);
  }
}

/** A GET form to one of the site's own paths (anything else is left out), each control escaped. */
function formHtml(action: string, fields: readonly FormField[]): string {
  if (!isSafeHref(action) || /^https?:/i.test(action)) return '';
  const controls = fields.map((f) => {
    const name = escapeHtml(f.name);
    switch (f.kind) {
      case 'hidden':
        return `<input type="hidden" name="${name}" value="${escapeHtml(f.value)}">`;
      case 'checkbox':
        return `<label><input type="checkbox" name="${name}" value="1"${f.checked ? ' checked' : ''}>${escapeHtml(f.label)}</label>`;
      case 'select':
        return `<label>${escapeHtml(f.label)} <select name="${name}">${f.options
          .map(
            ([value, shown]) =>
              `<option value="${escapeHtml(value)}"${value === f.value ? ' selected' : ''}>${escapeHtml(shown)}</option>`,
          )
          .join('')}</select></label>`;
    }
  });
  return `<form class="filters" method="get" action="${escapeHtml(action)}">${controls.join('')}<button type="submit">Apply</button></form>`;
}

/** A chart block drawn by svgCharts. */
export function drawChart(chart: Chart): string {
  switch (chart.type) {
    case 'bars':
      return drawBarChart(chart.data, chart.options);
    case 'ranked':
      return drawRankedBars(chart.data, chart.options);
    case 'line':
      return drawLineChart(chart.series, chart.options);
    case 'histogram':
      return drawHistogram(chart.bins, chart.options);
    case 'heatmap':
      return drawHeatmap(chart.rows, chart.cols, chart.cells, chart.options);
  }
}

/** An inline as markup: each span escaped, then given its look, link and tone. */
export function inlineHtml(value: Inline): string {
  return spansFor(value, 'html').map(spanHtml).join('');
}

const HEX_COLOR = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i;

function spanHtml(span: Span): string {
  if (span.look === 'swatch') {
    const color = span.color !== undefined && HEX_COLOR.test(span.color) ? span.color : 'transparent';
    return `<span class="swatch" style="background:${color}"></span>${escapeHtml(span.text)}`;
  }
  if (span.text === '') return '';
  let html: string;
  switch (span.look) {
    case 'id':
      html = htmlIdList([span.text], 1).html;
      break;
    case 'code':
      html = `<code>${escapeHtml(span.text)}</code>`;
      break;
    case 'verdict':
      html = htmlVerdict(span.text).html;
      break;
    default:
      html = escapeHtml(span.text);
  }
  if (span.href !== undefined && isSafeHref(span.href))
    html = `<a href="${escapeHtml(span.href)}" rel="noreferrer noopener">${html}</a>`;
  switch (span.tone) {
    case undefined:
      return html;
    case 'strong':
      return `<b>${html}</b>`;
    default:
      return `<span class="${span.tone}">${html}</span>`;
  }
}

/** An inline's page text, unmarked (a title, a heading). */
function pageText(value: Inline): string {
  return spansFor(value, 'html')
    .map((s) => s.text)
    .join('');
}
