// Every command's --format html, through runCli: one complete, well-formed page rendered from the same document
// as its text report; and what the hotspots and floorless pages, new with the one report model, show.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatScoreValue } from '../../src/analyze/formatFigures.js';
import { makeTempDir, writeTraceFile, type DecisionSpanSpec } from '../helpers/traceFiles.js';
import { cli, cliJson } from './runCliHarness.js';

const s = (id: string, score: number) => ({ id, score });
let tmp: { dir: string; cleanup: () => void };
let file: string;

/** Two routers: a floorless embedding scorer whose billing and refunds keep tying, and a keyword scorer with a floor. */
function specs(): DecisionSpanSpec[] {
  const out: DecisionSpanSpec[] = [];
  for (let i = 0; i < 24; i++) {
    const top = 0.3 + (i % 8) * 0.08;
    const [a, b] = i % 3 === 0 ? ['refunds', 'billing'] : ['billing', 'refunds'];
    out.push({
      scores: [s(a, top), s(b, top - (i % 2 === 0 ? 0.01 : 0.4)), s('shipping', top - 0.5)],
      ...(i % 4 === 0 ? {} : { incumbent: i % 5 === 0 ? 'refunds' : 'billing' }),
      conversationId: `conv-${i % 3}`,
      trace: `t-${i % 6}`,
    });
    out.push({
      scores: [s('orders', 0.9 - (i % 5) * 0.2), s('returns', 0.4)],
      router: 'portal',
      scorerName: 'keyword',
      scorer: { floor: 0 },
      conversationId: `conv-${i % 3}`,
    });
  }
  return out;
}

const COMMANDS: readonly (readonly string[])[] = [
  ['analyze'],
  ['hotspots'],
  ['floorless'],
  ['explain', 'conv-1'],
  ['replay', '--margin', '0.3', '--list'],
  ['tune', '--target-menu-rate', '0.1'],
  ['flapping', '--min-run', '2'],
];

const argvOf = (command: readonly string[], format: string): string[] => {
  const [name, ...rest] = command;
  return name === 'explain'
    ? [name, rest[0]!, file, ...rest.slice(1), '--format', format]
    : [name!, file, ...rest, '--format', format];
};

const VOID = new Set(['meta', 'br', 'hr', 'img', 'input', 'link']);

/** The first unbalanced tag of a page, or undefined when every element is closed in order. */
function unbalanced(html: string): string | undefined {
  const stack: string[] = [];
  for (const m of html.replace(/<style>[^]*?<\/style>/, '').matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = m;
    const tag = name!.toLowerCase();
    if (tag === '!doctype' || VOID.has(tag) || selfClosing === '/') continue;
    if (closing === '') stack.push(tag);
    else if (stack.pop() !== tag) return `</${tag}> at ${m.index}`;
  }
  return stack.length === 0 ? undefined : `<${stack.at(-1)!}> left open`;
}

const unescape = (html: string): string =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The headings of a text report: each line underlined with dashes. */
function textHeadings(text: string): string[] {
  const lines = text.split('\n');
  return lines.filter((line, i) => /^-+$/.test(lines[i + 1] ?? '') && line !== '');
}

beforeAll(async () => {
  tmp = makeTempDir();
  file = (await writeTraceFile(join(tmp.dir, 'traces.jsonl'), specs())).path;
});
afterAll(() => tmp.cleanup());

describe('every command has an HTML report', () => {
  for (const command of COMMANDS) {
    it(`${command[0]}: a complete page with the text report's title, sections and a chart`, async () => {
      const page = await cli(argvOf(command, 'html'));
      expect(page.code, page.stderr).toBe(0);
      const html = page.stdout;
      expect(html.startsWith('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">')).toBe(true);
      expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
      expect(html.endsWith('</footer></body></html>\n')).toBe(true);
      expect(unbalanced(html)).toBeUndefined();
      expect(html).not.toMatch(/<script/i);
      expect(html).toMatch(/<svg class="chart" data-chart="[a-z]+"[^]*?class="mark/);

      const text = (await cli(argvOf(command, 'text'))).stdout;
      const title = text.split('\n')[0]!;
      expect(unescape(/<title>([^<]*)<\/title>/.exec(html)![1]!)).toBe(title);
      expect(unescape(/<h1>([^<]*)<\/h1>/.exec(html)![1]!)).toBe(title);
      const sections = [...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => unescape(m[1]!));
      expect(textHeadings(text).length).toBeGreaterThan(0);
      // The page words the floor sweeps its own way ("Floor sweep — router / scorer"); every other heading is the same.
      for (const heading of textHeadings(text))
        expect(sections, command[0]).toContain(heading.replace(/^Floor sweep: /, 'Floor sweep — '));
    });
  }
});

describe('the analyze page', () => {
  it('each counting tile links to the section of the page that shows what it counts', async () => {
    const html = (await cli(['analyze', file, '--format', 'html'])).stdout;
    const tiles = [...html.matchAll(/<a class="stat[^"]*" href="#([a-z0-9-]+)"><span>([^<]+)<\/span>/g)].map(
      (m) => [m[2]!, m[1]!] as const,
    );
    expect(Object.fromEntries(tiles)).toEqual({
      'near-tie rate': 'near-tie-hot-spots',
      'menu rate': 'verdict-mix',
      'floorless decisions': 'floorless-scorers',
      inconsistent: 'anomalies',
    });
    for (const [, id] of tiles) expect(html).toContain(`<section id="${id}"`);
  });
});

describe('the hotspots page', () => {
  it('shows the figures, one bar per hot spot, the table with its legend and the example traces as ids', async () => {
    const { json } = await cliJson(['hotspots', file]);
    const hotspots = json.hotspots as { pair: string[]; exampleTraceIds: string[] }[];
    expect(hotspots.length).toBeGreaterThan(0);
    const html = (await cli(['hotspots', file, '--format', 'html'])).stdout;
    expect(html).toContain(`<span>decisions</span><b>${String(json.decisions)}</b>`);
    expect(html).toContain(`<div class="stat warn"><span>near-ties</span><b>${String(json.nearTies)}</b>`);
    const chart = /<svg class="chart" data-chart="bar"[^]*?<\/svg>/.exec(html)![0];
    expect(chart.match(/class="mark"/g)).toHaveLength(hotspots.length);
    expect(chart).toContain(`${hotspots[0]!.pair[0]} ↔ ${hotspots[0]!.pair[1]}`);
    expect(html).toContain('<b>tie rate</b> near-ties / met');
    expect(html).toContain(`<code class="id" title="${hotspots[0]!.exampleTraceIds[0]!}">`);
  });
});

describe('the floorless page', () => {
  it('counts the floorless decisions and draws each scorer’s top scores with the floor to declare', async () => {
    const { json } = await cliJson(['floorless', file]);
    const floorless = json.floorless as { scorer: string; suggestedFloor: { floor: number } | null }[];
    expect(floorless.map((f) => f.scorer)).toEqual(['embedding']);
    const floor = floorless[0]!.suggestedFloor!.floor;
    const html = (await cli(['floorless', file, '--format', 'html'])).stdout;
    expect(html).toContain(
      `<div class="stat warn"><span>judged with no floor</span><b>${String(json.floorlessDecisions)}</b>`,
    );
    expect(html).toContain('<h2>Top scores — desk / embedding</h2>');
    const ranked = /<svg class="chart" data-chart="ranked"[^]*?<\/svg>/.exec(html)![0];
    expect(ranked.match(/class="mark"/g)).toHaveLength(7);
    expect(ranked).toContain(`<title>floor: ${formatScoreValue(floor)}</title>`);
  });
});
