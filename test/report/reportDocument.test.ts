// The one report document and its three renderers: one rule per test, on tiny documents.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block, ReportDocument } from '../../src/report/document.js';
import { TONE_SGR } from '../../src/report/palette.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { renderHtml } from '../../src/report/html/renderHtml.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const text = (doc: ReportDocument, color = false): string => renderText(doc, { color });
const bars: Block = {
  kind: 'chart',
  chart: { type: 'bars', data: [{ label: 'move', value: 3 }], options: { title: 'mix' } },
};
const table = (extra: Partial<Extract<Block, { kind: 'table' }>> = {}): Block => ({
  kind: 'table',
  columns: [{ title: 'pair' }, { title: 'met', align: 'right' }],
  rows: [['a ↔ b', '3']],
  ...extra,
});
/** The body of a page's <main>, the frame (stylesheet, header) cut off. */
const main = (html: string): string => /<main>([^]*)<\/main>/.exec(html)![1]!;

describe('text and Markdown', () => {
  it('skip a chart: the tables beside it carry the numbers', () => {
    const doc: ReportDocument = [
      { kind: 'paragraph', text: 'before' },
      bars,
      { kind: 'paragraph', text: 'after' },
    ];
    expect(text(doc)).toBe('before\n\nafter\n');
    expect(renderMarkdown(doc)).toBe('before\n\nafter\n');
  });

  it('skip a block kept to the page and show one kept to text', () => {
    const doc: ReportDocument = [
      { kind: 'paragraph', text: 'page words', only: 'html' },
      { kind: 'paragraph', text: 'terminal words', only: 'text' },
    ];
    expect(text(doc)).toBe('terminal words\n');
    expect(renderMarkdown(doc)).toBe('terminal words\n');
  });

  it('skip a span kept to the page, in the output and in the column widths', () => {
    const doc: ReportDocument = [
      {
        kind: 'table',
        columns: [{ title: 'm' }],
        rows: [
          [
            [
              { text: '▶ 0.1', only: 'text' },
              { text: 'a very long page-only note', only: 'html' },
            ],
          ],
        ],
      },
    ];
    expect(text(doc)).toBe('  m    \n  -----\n  ▶ 0.1\n'.replace(/ +\n/g, '\n'));
    expect(renderMarkdown(doc)).toContain('| ▶ 0.1 |');
    expect(renderMarkdown(doc)).not.toContain('page-only');
  });

  it('print only the legend entries that are not kept to the page', () => {
    const doc = [
      table({
        legend: [
          ['met', 'on a terminal', 'text'],
          ['met', 'on a page', 'html'],
          ['pair', 'both'],
        ],
      }),
    ];
    expect(text(doc)).toContain('met   on a terminal');
    expect(text(doc)).not.toContain('on a page');
    expect(renderMarkdown(doc)).toContain('**met**: on a terminal · **pair**: both');
  });

  it('read key figures as fields, a toned value coloured only when colour is on', () => {
    const doc: ReportDocument = [
      {
        kind: 'figures',
        items: [
          { label: 'decisions', value: '12' },
          { label: 'near-tie rate', value: '30.0%', tone: 'bad' },
        ],
      },
    ];
    expect(text(doc)).toBe('  decisions      12\n  near-tie rate  30.0%\n');
    expect(text(doc, true)).toContain(`${TONE_SGR.bad}30.0%`);
    expect(renderMarkdown(doc)).toBe('- **decisions:** 12\n- **near-tie rate:** **30.0%**\n');
  });

  it('show a link, an id, a verdict and a swatch as their text alone', () => {
    const doc: ReportDocument = [
      {
        kind: 'paragraph',
        text: [
          { text: 'Jaeger', href: 'http://jaeger.invalid/x' },
          ' ',
          { text: 'abc123', look: 'id' },
          ' ',
          { text: 'menu', look: 'verdict' },
          { text: '', look: 'swatch', color: '#fff' },
        ],
      },
    ];
    expect(text(doc)).toBe('Jaeger abc123 menu\n');
    expect(renderMarkdown(doc)).toBe('Jaeger abc123 menu\n');
  });
});

describe('HTML', () => {
  it('puts the title in <title> and the header, and the paragraphs right after it under the title', () => {
    const html = renderHtml([
      { kind: 'title', text: 'routescope x' },
      { kind: 'paragraph', text: 'one' },
      { kind: 'paragraph', text: 'two' },
      { kind: 'heading', text: 'S' },
      { kind: 'paragraph', text: 'three' },
    ]);
    expect(html).toContain('<title>routescope x</title>');
    expect(html).toContain('<header><h1>routescope x</h1><p>one two</p></header>');
    expect(main(html)).toContain('<p class="intro">three</p>');
  });

  it('draws key figures as cards with their tone', () => {
    const html = renderHtml([{ kind: 'figures', items: [{ label: 'flapping', value: '13', tone: 'warn' }] }]);
    expect(html).toContain('<div class="stat warn"><span>flapping</span><b>13</b></div>');
  });

  it('opens a card at each heading, half width when asked, and holds what follows it', () => {
    const html = main(
      renderHtml([
        { kind: 'heading', text: 'A', half: true },
        { kind: 'paragraph', text: 'a1' },
        { kind: 'paragraph', text: 'a2' },
        { kind: 'heading', text: 'B' },
        { kind: 'list', items: ['b1'] },
      ]),
    );
    expect(html).toContain(
      '<section id="a" class="half"><h2>A</h2><p class="intro">a1</p><p>a2</p></section>',
    );
    expect(html).toContain('<section id="b"><h2>B</h2><ul><li>b1</li></ul></section>');
  });

  it('puts blocks before the first heading in a card without a heading', () => {
    const html = main(renderHtml([{ kind: 'fields', rows: [['read', '1 file']] }]));
    expect(html).toContain(
      '<section><div class="scroll"><table class="fields"><tbody><tr><th>read</th><td>1 file</td></tr></tbody></table></div></section>',
    );
  });

  it('right-aligns the columns a table aligns right, and shows the legend entries for the page', () => {
    const html = renderHtml([
      table({
        legend: [
          ['met', 'on a terminal', 'text'],
          ['met', 'on a page', 'html'],
        ],
      }),
    ]);
    expect(html).toContain('<th>pair</th><th class="num">met</th>');
    expect(html).toContain('<td class="num">3</td>');
    expect(html).toContain('<p class="legend"><b>met</b> on a page</p>');
    expect(html).not.toContain('on a terminal');
  });

  it('draws a chart block with svgCharts', () => {
    const html = renderHtml([{ kind: 'heading', text: 'Mix' }, bars]);
    expect(html).toMatch(
      /<section id="mix"><h2>Mix<\/h2><div class="chartbox"><svg class="chart" data-chart="bar"[^]*?class="mark"/,
    );
  });

  it('leaves out blocks and spans kept to text', () => {
    const html = renderHtml([
      { kind: 'paragraph', text: 'terminal only', only: 'text' },
      {
        kind: 'fields',
        rows: [
          [
            'v',
            [
              { text: '▶ x', only: 'text' },
              { text: 'x ◀', only: 'html' },
            ],
          ],
        ],
      },
    ]);
    expect(html).not.toContain('terminal only');
    expect(html).not.toContain('▶');
    expect(html).toContain('<td>x ◀</td>');
  });

  it('gives ids, code and verdicts their look', () => {
    const html = renderHtml([
      {
        kind: 'paragraph',
        text: [
          { text: 'abc', look: 'id' },
          { text: 'x=1', look: 'code' },
          { text: 'stay', look: 'verdict' },
        ],
      },
    ]);
    expect(html).toContain('<code class="id" title="abc">abc</code>');
    expect(html).toContain('<code>x=1</code>');
    expect(html).toContain('<span class="pill stay">stay</span>');
  });

  it('links an http(s) address only; any other address stays text', () => {
    const html = renderHtml([
      {
        kind: 'paragraph',
        text: [
          { text: 'Jaeger', href: 'https://jaeger.invalid/t?a=1&b=2' },
          { text: 'Grafana', href: 'javascript:alert(1)' },
        ],
      },
    ]);
    expect(html).toContain(
      '<a href="https://jaeger.invalid/t?a=1&amp;b=2" rel="noreferrer noopener">Jaeger</a>',
    );
    expect(html).not.toContain('javascript:');
    expect(html).toContain('Grafana');
  });

  it('paints a swatch in a hex colour only', () => {
    const swatch = (color: string) =>
      renderHtml([{ kind: 'paragraph', text: [{ text: '', look: 'swatch', color }, 'key'] }]);
    expect(swatch('#c8463d')).toContain('<span class="swatch" style="background:#c8463d"></span>key');
    expect(swatch('red;background:url(x)')).toContain('style="background:transparent"');
  });

  it('marks tones: strong as bold, the others as a class', () => {
    const html = renderHtml([
      {
        kind: 'paragraph',
        text: [
          { text: 'A', tone: 'strong' },
          { text: 'B', tone: 'bad' },
          { text: 'C', tone: 'dim' },
        ],
      },
    ]);
    expect(html).toContain('<b>A</b><span class="bad">B</span><span class="dim">C</span>');
  });

  it('escapes every string of the document, wherever it stands', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1 }), (s) => {
        const hostile = `<i>${s}`;
        const html = renderHtml([
          { kind: 'title', text: hostile },
          { kind: 'paragraph', text: hostile },
          { kind: 'figures', items: [{ label: hostile, value: hostile }] },
          { kind: 'heading', text: hostile },
          { kind: 'fields', rows: [[hostile, { text: hostile, look: 'id' }]] },
          { kind: 'list', items: [{ text: hostile, look: 'verdict', tone: 'bad' }] },
          {
            kind: 'table',
            columns: [{ title: hostile }],
            rows: [[{ text: hostile, href: `https://x.invalid/${hostile}` }]],
            legend: [[hostile, hostile]],
          },
          {
            kind: 'chart',
            chart: { type: 'bars', data: [{ label: hostile, value: 1 }], options: { title: hostile } },
          },
        ]);
        expect(html).not.toContain('<i>');
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
