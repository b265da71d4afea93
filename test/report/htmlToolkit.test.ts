import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeId, htmlId } from '../../src/report/html/escapeHtml.js';
import { htmlTable, htmlVerdict, renderHtmlPage } from '../../src/report/html/htmlPage.js';
import {
  drawBarChart,
  drawHeatmap,
  drawHistogram,
  drawLineChart,
  drawRankedBars,
  niceTicks,
} from '../../src/report/html/svgCharts.js';

const HOSTILE = `<script>alert("x")</script></style>'"&\u0007`;
const countMarks = (svg: string): number => (svg.match(/class="(?:mark|mark cell)"/g) ?? []).length;

describe('escapeHtml', () => {
  it('turns markup, quotes and ampersands into entities', () => {
    expect(escapeHtml(`<script>a & "b" 'c'</script>`)).toBe(
      '&lt;script&gt;a &amp; &quot;b&quot; &#39;c&#39;&lt;/script&gt;',
    );
  });

  it('shows control characters as \\xNN', () => {
    expect(escapeHtml('a\u0000b\u001bc\u2028\u202e')).toBe('a\\x00b\\x1bc\\u2028\\u202e');
  });

  it('no string can smuggle a tag, a quote or a raw control character through', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeHtml(s);
        expect(out).not.toMatch(/[<>"']/);
        // eslint-disable-next-line no-control-regex
        expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        expect(out.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
      }),
    );
  });

  it('escapeId cuts long ids with an ellipsis; htmlId keeps the full id in a title', () => {
    const long = 'x'.repeat(100);
    expect([...escapeId(long, 10)]).toHaveLength(10);
    expect(htmlId(long, 10)).toContain(`title="${long}"`);
    expect(htmlId('short', 10)).toBe('short');
    expect(htmlId(`<b>${'y'.repeat(80)}`, 10)).not.toContain('<b>');
  });
});

describe('svg charts', () => {
  it('a bar chart draws one mark per bar and escapes its labels', () => {
    const svg = drawBarChart(
      [
        { label: HOSTILE, value: 3 },
        { label: 'b', value: 0 },
        { label: 'c', value: 1.5 },
      ],
      { title: HOSTILE },
    );
    expect(countMarks(svg)).toBe(3);
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('</style>');
    expect(svg).toContain('&lt;script&gt;');
  });

  it('a chart with no data says so and draws no marks', () => {
    expect(drawBarChart([], { title: 't' })).toContain('no data');
    expect(drawLineChart([{ name: 'a', points: [] }], { title: 't' })).toContain('no data');
    expect(drawHistogram([{ from: 0, to: 1, count: 0 }], { title: 't' })).toContain('no data');
    expect(drawHeatmap(['a'], ['b'], [[0]], { title: 't' })).toContain('no data');
  });

  it('a line chart draws a path per series and the marker', () => {
    const svg = drawLineChart(
      [
        { name: 'near-tie rate', points: [0, 1, 2].map((x) => ({ x, y: x / 4 })) },
        { name: 'menu rate', points: [0, 1, 2].map((x) => ({ x, y: x / 8 })) },
      ],
      { title: 't', yDomain: [0, 1], marker: { value: 1, label: 'recommended' } },
    );
    expect((svg.match(/<path class="mark"/g) ?? []).length).toBe(2);
    expect(svg).toContain('class="marker"');
  });

  it('a line chart breaks where points are further apart than gapOver, and only there', () => {
    // Hourly points with a day missing between the third and the fourth, and many points (no dots drawn).
    const hour = 3_600_000;
    const xs = [...[0, 1, 2].map((h) => h * hour), ...Array.from({ length: 70 }, (_, i) => (26 + i) * hour)];
    const svg = drawLineChart([{ name: 'a', points: xs.map((x) => ({ x, y: 0.5 })) }], {
      title: 't',
      gapOver: 1.5 * hour,
    });
    const d = /<path class="mark" d="([^"]+)"/.exec(svg)![1]!;
    expect(d.match(/M/g)?.length).toBe(2);
    expect(d.match(/L/g)?.length).toBe(xs.length - 2);
    // Without gapOver the same points are one line.
    const joined = drawLineChart([{ name: 'a', points: xs.map((x) => ({ x, y: 0.5 })) }], { title: 't' });
    expect(/<path class="mark" d="([^"]+)"/.exec(joined)![1]!.match(/M/g)?.length).toBe(1);
  });

  it('a point alone between two gaps is drawn as a dot even on a busy line', () => {
    const xs = [0, 10, ...Array.from({ length: 70 }, (_, i) => 20 + i)];
    const svg = drawLineChart([{ name: 'a', points: xs.map((x) => ({ x, y: 0.25 })) }], {
      title: 't',
      gapOver: 1.5,
    });
    expect((svg.match(/<circle/g) ?? []).length).toBe(2);
  });

  it('a line chart with one point still has an x range', () => {
    const svg = drawLineChart([{ name: 'a', points: [{ x: 5, y: 0.5 }] }], { title: 't' });
    expect(svg).not.toContain('NaN');
    expect(countMarks(svg)).toBe(1);
  });

  it('a histogram draws non-empty bins and a marker inside the axis', () => {
    const bins = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, count: i % 3 }));
    const svg = drawHistogram(bins, { title: 'gaps', marker: { value: 0.15, label: 'margin' } });
    expect(countMarks(svg)).toBe(bins.filter((b) => b.count > 0).length);
    expect(svg).toContain('margin 0.15');
    expect(svg).not.toContain('NaN');
  });

  it('a heatmap marks only non-zero cells', () => {
    const svg = drawHeatmap(
      ['a', HOSTILE],
      ['x', 'y', 'z'],
      [
        [1, 0, 5],
        [0, 0, 2],
      ],
      { title: 't' },
    );
    expect(countMarks(svg)).toBe(3);
    expect(svg).not.toContain('<script');
  });

  it('ranked bars draw the floor mark and the near-tie band', () => {
    const svg = drawRankedBars(
      [
        { label: 'billing', value: 0.8 },
        { label: 'refunds', value: 0.75 },
        { label: 'greeting', value: -0.2 },
      ],
      {
        title: 't',
        marks: [{ value: 0, label: 'floor' }],
        band: { from: 0.5, to: 0.8, label: 'near-tie zone' },
      },
    );
    expect(countMarks(svg)).toBe(3);
    expect(svg).toContain('class="marker"');
    expect(svg).toContain('class="band"');
    expect(svg).not.toContain('NaN');
  });

  it('non-finite values draw no NaN coordinates', () => {
    const svg = drawBarChart(
      [
        { label: 'a', value: NaN },
        { label: 'b', value: -Infinity },
        { label: 'c', value: 2 },
      ],
      { title: 't' },
    );
    expect(svg).not.toMatch(/="[^"]*NaN/);
    expect(svg).not.toMatch(/="[^"]*Infinity/);
  });

  it('niceTicks covers the range in round steps', () => {
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(0, 37, 4)).toEqual([0, 10, 20, 30]);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (max) => {
        const t = niceTicks(0, max, 5);
        expect(t.length).toBeGreaterThanOrEqual(1);
        expect(t.length).toBeLessThanOrEqual(12);
      }),
    );
  });
});

describe('html page', () => {
  it('forbids scripts and network loads, and escapes everything it is given as text', () => {
    const html = renderHtmlPage({
      title: HOSTILE,
      subtitle: HOSTILE,
      stats: [{ label: HOSTILE, value: HOSTILE }],
      sections: [
        { title: HOSTILE, intro: HOSTILE, body: htmlTable(['h'], [[HOSTILE], [htmlVerdict(HOSTILE)]]) },
      ],
      notes: [HOSTILE],
    });
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('a table with no rows says None', () => {
    expect(htmlTable(['a'], [])).toContain('None.');
  });
});
