// Words and numbers a new user reads: one rule per kind of figure, plurals, a legend under each cryptic table
// in text, Markdown and HTML, whole ids, and charts whose labels and bars say something.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOf, formatScoreValue, formatThreshold } from '../../src/analyze/formatFigures.js';
import { coarsenTimeline } from '../../src/report/digestBlocks.js';
import { htmlIdList, htmlTable, renderHtmlPage } from '../../src/report/html/htmlPage.js';
import { drawHistogram } from '../../src/report/html/svgCharts.js';
import { makeTempDir, writeTraceFile, type WrittenTraceFile } from '../helpers/traceFiles.js';
import { cli } from '../cli/runCliHarness.js';

const s = (id: string, score: number) => ({ id, score });
let tmp: { dir: string; cleanup: () => void };
let file: WrittenTraceFile;

beforeAll(async () => {
  tmp = makeTempDir();
  file = await writeTraceFile(join(tmp.dir, 'traces.jsonl'), [
    { scores: [s('billing', 1), s('refunds', 0.97)], trace: 'a', conversationId: 'conv-a' },
    { scores: [s('billing', 1), s('refunds', 0.2)], incumbent: 'refunds', trace: 'a' },
    { scores: [s('shipping', 3), s('billing', 0.5)], trace: 'b' },
  ]);
});
afterAll(() => tmp.cleanup());

describe('one rule per kind of figure', () => {
  it('a score or gap has four decimals, a tiny one reads <0.0001, never -0.0000', () => {
    expect([0.0003877, 0.0331, 1, 0, -0.00001, 0.00001].map(formatScoreValue)).toEqual([
      '0.0004',
      '0.0331',
      '1.0000',
      '0.0000',
      '>-0.0001',
      '<0.0001',
    ]);
  });

  it('a threshold reads as it was set; a count names its noun in the singular for one', () => {
    expect([0.15, 0, 0.02].map(formatThreshold)).toEqual(['0.15', '0', '0.02']);
    expect([countOf(1, 'file'), countOf(2, 'file'), countOf(1200, 'trace')]).toEqual([
      '1 file',
      '2 files',
      '1,200 traces',
    ]);
  });
});

describe('text and Markdown reports', () => {
  it('say "1 file" and "in 1 trace", and list what explain matched by kind', async () => {
    const analyze = await cli(['analyze', file.path]);
    expect(analyze.stdout).toMatch(/read\s+1 file, /);
    const explain = await cli(['explain', 'conv-a', file.path]);
    expect(explain.stdout).toMatch(
      /2 routing decisions matched by conversation id, in time order, in 1 trace\./,
    );
    expect(explain.stdout).not.toContain('records)');
  });

  it('hot spots split their cryptic columns and explain them under the table', async () => {
    const text = await cli(['hotspots', file.path]);
    expect(text.stdout).not.toMatch(/% of \d/);
    expect(text.stdout).toMatch(/\n {2}tie rate +near-ties \/ met/);
    const md = await cli(['hotspots', file.path, '--format', 'markdown']);
    expect(md.stdout).toContain('**tie rate**: near-ties / met');
  });

  it('floorless gives the suggested floor and what it makes unmatched their own columns, with a legend', async () => {
    const r = await cli(['floorless', file.path]);
    expect(r.stdout).toContain('unmatched under it');
    expect(r.stdout).not.toMatch(/\d \(\d+, \d/);
  });

  it('a thinned tune curve says how it was thinned in words', async () => {
    const r = await cli(['tune', file.path, '--step', '0.005']);
    expect(r.stdout).toMatch(/One margin in \d+ shown/);
    expect(r.stdout).not.toMatch(/Every \d+th/);
  });

  it('a failed gate says "gate failed" once', async () => {
    const r = await cli(['analyze', file.path, '--fail-on', 'decisions<10']);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/gate failed/g)).toHaveLength(1);
  });
});

describe('HTML pieces', () => {
  it('a table carries its legend; cells never break a word mid-way', () => {
    const html = htmlTable(['pair', 'met'], [['a ↔ b', '3']], [1], [['met', 'times the pair met']]);
    expect(html).toContain('<p class="legend"><b>met</b> times the pair met</p>');
    const page = renderHtmlPage({ title: 't', sections: [] });
    expect(page).not.toContain('overflow-wrap:anywhere');
    // Only an id may break anywhere (a 32-hex trace id on a phone), never a word of text.
    expect(page.match(/[^{}]*\{[^}]*word-break:break-all/g)).toEqual([
      'table.fields code.id{white-space:normal;word-break:break-all',
    ]);
  });

  it('a trace id is shown whole', () => {
    const id = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect(htmlIdList([id]).html).toContain(`>${id}</code>`);
  });

  it('each margin label of a histogram gets its own row, so close margins never overlap', () => {
    const svg = drawHistogram(
      [
        { from: 0, to: 0.1, count: 3 },
        { from: 0.1, to: 0.2, count: 1 },
      ],
      {
        title: 'gaps',
        markers: [
          { value: 0.02, label: 'margin 1' },
          { value: 0.05, label: 'margin 2' },
        ],
      },
    );
    const ys = [...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)"[^>]*>margin \d/g)].map((m) => Number(m[1]));
    expect(ys).toHaveLength(2);
    expect(Math.abs(ys[0]! - ys[1]!)).toBeGreaterThanOrEqual(12);
    const firstBarTop = Math.min(
      ...[...svg.matchAll(/class="mark" x="[\d.]+" y="([\d.]+)"/g)].map((m) => Number(m[1])),
    );
    expect(Math.max(...ys)).toBeLessThan(firstBarTop);
  });

  it('a timeline of a few decisions per bucket is merged into buckets that hold several', () => {
    const verdicts = { move: 1, stay: 0, menu: 0, unmatched: 0 };
    const buckets = Array.from({ length: 288 }, (_, i) => ({
      startMs: i * 300_000,
      decisions: 1,
      nearTies: i % 2,
      verdicts,
    }));
    const merged = coarsenTimeline({ bucketMs: 300_000, buckets });
    expect(merged.bucketMs % 300_000).toBe(0);
    expect(merged.buckets.length).toBeLessThanOrEqual(48);
    expect(merged.buckets.reduce((n, b) => n + b.decisions, 0)).toBe(288);
    expect(merged.buckets[0]!.nearTies).toBe(merged.buckets[0]!.decisions / 2);
  });
});
