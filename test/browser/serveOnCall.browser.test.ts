/**
 * The on-call path on serve's live page, in a real headless Chromium: from a conversation id, a trace id or the
 * start of one to the evidence, through the search box; every counting tile to the list it counts (and the
 * list counts the same); the decision list's filters and paging; explain's links back and to its ids; 404 for
 * what the window does not hold. The window is the demo agent's real traces (233 decisions, 45 misroute marks),
 * posted as the SDK's exporter posted them. Screenshots at 1280 and 390 px go to test-artifacts/ (and, looked
 * at, to docs/images/).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoAgent } from '../../src/demo/runDemoAgent.js';
import type { RunningServe } from '../../src/serve/startServe.js';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServe } from '../serve/serveHarness.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
const JAEGER = 'http://jaeger.example:16686';

let context: BrowserContext;
let profile: string;
let scratch: string;
let serve: RunningServe;
let origin: string;

interface DecisionRow {
  timeUnixMs: number;
  traceId: string;
  conversationId: string | null;
  router: string | null;
  verdict: string;
  nearTie: boolean;
  misrouted: boolean;
}

beforeAll(async () => {
  profile = mkdtempSync(join(tmpdir(), 'routescope-chromium-'));
  scratch = mkdtempSync(join(tmpdir(), 'routescope-oncall-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const traces = join(scratch, 'traces.jsonl');
  await runDemoAgent({ path: traces });
  serve = await startTestServe({ traceLinks: { jaegerUrl: JAEGER } });
  // Each line of the file is one export request, as the SDK's OTLP/HTTP exporter sent it.
  for (const line of readFileSync(traces, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const r = await fetch(`${serve.endpoint}/v1/traces`, {
      method: 'POST',
      body: line,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
  }
  origin = new URL(serve.pageUrl).origin;
  context = await launchChromium(profile, { width: 1280, height: 900 });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await serve?.close();
  for (const dir of [profile, scratch]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function json<T>(path: string): Promise<{ status: number; body: T }> {
  const r = await fetch(`${origin}${path}`);
  return { status: r.status, body: (await r.json()) as T };
}

/** Every decision the list holds for `query`, walking its pages. */
async function allDecisions(query: string): Promise<DecisionRow[]> {
  const rows: DecisionRow[] = [];
  for (let page = 1; ; page++) {
    const { body } = await json<{ page: { pages: number }; decisions: DecisionRow[] }>(
      `/decisions.json?${query}${query === '' ? '' : '&'}page=${page}`,
    );
    rows.push(...body.decisions);
    if (page >= body.page.pages) return rows;
  }
}

/** The "N decisions of …" count a list page says under its title. */
async function listedCount(page: Page): Promise<number> {
  const text = (await page.textContent('header p'))!;
  const m = /^([\d,]+) /.exec(text);
  if (m === null) throw new Error(`no count in '${text}'`);
  return Number(m[1]!.replace(/,/g, ''));
}

async function search(page: Page, query: string): Promise<number | undefined> {
  await page.fill('header input[name=q]', query);
  const [response] = await Promise.all([page.waitForNavigation(), page.click('header button[type=submit]')]);
  return response?.status();
}

describe('serve on call: from an id to the evidence', () => {
  it('every counting tile links to the list it counts, and the list counts the same', async () => {
    const report = (await json<Record<string, unknown>>('/report.json')).body as {
      decisions: number;
      nearTies: number;
      verdicts: Record<string, number>;
      floorlessDecisions: number;
      inconsistent: number;
      misroutes: number;
    };
    expect(report.decisions).toBe(233);
    expect(report.misroutes).toBeGreaterThan(0);
    const page = await context.newPage();
    await page.goto(serve.pageUrl, { waitUntil: 'load' });
    await page.screenshot({ path: join(ARTIFACTS, 'serve-oncall-overview.png'), fullPage: true });
    const expected: Record<string, number> = {
      decisions: report.decisions,
      'near-tie rate': report.nearTies,
      'menu rate': report.verdicts.menu!,
      'floorless decisions': report.floorlessDecisions,
      inconsistent: report.inconsistent,
      'misroute marks': report.misroutes,
    };
    for (const [label, count] of Object.entries(expected)) {
      await page.goto(serve.pageUrl, { waitUntil: 'load' });
      const tile = page.locator('a.stat', { has: page.locator(`span:text-is("${label}")`) });
      await expect.poll(() => tile.count()).toBe(1);
      await Promise.all([page.waitForNavigation(), tile.click()]);
      expect(await listedCount(page), label).toBe(count);
    }
    await page.close();
  });

  it('a conversation id typed in the search box opens its explain, with links back and to its ids', async () => {
    const rows = await allDecisions('');
    const marked = rows.find((r) => r.misrouted && r.conversationId !== null)!;
    const conversation = marked.conversationId!;
    const page = await context.newPage();
    await page.goto(serve.pageUrl, { waitUntil: 'load' });
    expect(await search(page, conversation)).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/explain/${encodeURIComponent(conversation)}`);
    expect(await page.textContent('header h1')).toContain(conversation);
    const ofConversation = rows.filter((r) => r.conversationId === conversation).length;
    expect(await page.textContent('header p')).toContain(`${ofConversation} routing decision`);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-oncall-explain.png'), fullPage: true });
    // Its trace ids link to their own explain, and to Jaeger when a trace link is configured.
    const traceLink = page.locator(`main a[href="/explain/${marked.traceId}"]`).first();
    expect(await traceLink.count()).toBe(1);
    expect(await page.locator(`main a[href="${JAEGER}/trace/${marked.traceId}"]`).count()).toBeGreaterThan(0);
    await Promise.all([page.waitForNavigation(), traceLink.click()]);
    expect(await page.textContent('header h1')).toContain(marked.traceId);
    // ...and the trace's conversation links back to the whole conversation.
    const back = page.locator(`main a[href="/explain/${encodeURIComponent(conversation)}"]`).first();
    await Promise.all([page.waitForNavigation(), back.click()]);
    expect(new URL(page.url()).pathname).toBe(`/explain/${encodeURIComponent(conversation)}`);
    // The header leads back to the overview and to each list.
    for (const [text, path] of [
      ['Decisions', '/decisions'],
      ['Conversations', '/conversations'],
      ['Misroute marks', '/misroutes'],
      ['Overview', '/'],
    ] as const) {
      await Promise.all([page.waitForNavigation(), page.click(`header nav a:text-is("${text}")`)]);
      expect(new URL(page.url()).pathname).toBe(path);
      await page.goBack();
    }
    await page.close();
  });

  it('a trace id (in capitals, as a log may print it) and a span id open the trace; a prefix lists its matches', async () => {
    const rows = await allDecisions('');
    const target = rows[7]!;
    const page = await context.newPage();
    await page.goto(`${origin}/decisions`, { waitUntil: 'load' });
    expect(await search(page, target.traceId.toUpperCase())).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/explain/${target.traceId}`);
    // A prefix shared by several conversations: a list to pick from, each leading to its explain.
    const prefix = target.conversationId!.slice(0, 3);
    const sharing = new Set(rows.map((r) => r.conversationId).filter((c) => c?.startsWith(prefix)));
    expect(sharing.size).toBeGreaterThan(1);
    expect(await search(page, prefix)).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/search');
    const listed = await page.$$eval('main table a', (as) => as.map((a) => a.textContent));
    for (const c of sharing) expect(listed).toContain(c);
    const chosen = `/explain/${encodeURIComponent([...sharing][0]!)}`;
    await Promise.all([page.waitForNavigation(), page.click(`main table a[href="${chosen}"]`)]);
    expect(new URL(page.url()).pathname).toBe(chosen);
    await page.close();
  });

  it('an id the window does not hold is 404, page and JSON, and the page says so', async () => {
    const page = await context.newPage();
    await page.goto(serve.pageUrl, { waitUntil: 'load' });
    expect(await search(page, 'no-such-conversation-42')).toBe(404);
    expect(await page.textContent('main')).toContain(
      'Nothing in the window matches “no-such-conversation-42”',
    );
    expect((await json('/search.json?q=no-such-conversation-42')).status).toBe(404);
    const explain = await page.goto(`${origin}/explain/no-such-conversation-42`, { waitUntil: 'load' });
    expect(explain?.status()).toBe(404);
    expect(await page.textContent('body')).toContain(
      'No record of the window has trace id or conversation id',
    );
    // Said once, not once by serve and again by explain.
    expect(
      (await page.textContent('body'))!.match(/No (record of the window|routing record) has/g),
    ).toHaveLength(1);
    expect((await json('/explain/no-such-conversation-42.json')).status).toBe(404);
    await page.close();
  });

  it('the decision list filters by router, verdict, near-tie and misroute mark, pages newest first, and says what it matched', async () => {
    const all = await allDecisions('');
    expect(all).toHaveLength(233);
    const times = all.map((r) => r.timeUnixMs);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const router = all[0]!.router!;
    const page = await context.newPage();
    await page.goto(`${origin}/decisions`, { waitUntil: 'load' });
    await page.selectOption('form.filters select[name=router]', router);
    await page.check('form.filters input[name=near]');
    await Promise.all([page.waitForNavigation(), page.click('form.filters button')]);
    const expected = all.filter((r) => r.router === router && r.nearTie);
    expect(await listedCount(page)).toBe(expected.length);
    const shownRouters = await page.$$eval('main table tbody tr td:nth-child(3)', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(shownRouters.length).toBe(Math.min(50, expected.length));
    expect(new Set(shownRouters)).toEqual(new Set([router]));
    expect(await allDecisions(`router=${encodeURIComponent(router)}&near=1`)).toEqual(expected);
    // Misrouted only, across pages: the union of the pages is every marked decision, once.
    expect(await allDecisions('misrouted=1')).toEqual(all.filter((r) => r.misrouted));
    expect(await allDecisions('verdict=menu')).toEqual(all.filter((r) => r.verdict === 'menu'));
    // Paging links: the second page starts where the first ended.
    await page.goto(`${origin}/decisions`, { waitUntil: 'load' });
    const firstPage = await page.$$eval('main table tbody tr td:first-child a', (as) =>
      as.map((a) => a.getAttribute('href')),
    );
    await Promise.all([page.waitForNavigation(), page.click('main a:text-is("older ›")')]);
    const secondPage = await page.$$eval('main table tbody tr td:first-child a', (as) =>
      as.map((a) => a.getAttribute('href')),
    );
    expect(firstPage.map((h) => h!.slice('/explain/'.length))).toEqual(
      all.slice(0, 50).map((r) => r.traceId),
    );
    expect(secondPage.map((h) => h!.slice('/explain/'.length))).toEqual(
      all.slice(50, 100).map((r) => r.traceId),
    );
    await page.screenshot({ path: join(ARTIFACTS, 'serve-oncall-decisions.png'), fullPage: true });
    // A malformed filter is a 400 that names the parameter.
    const bad = await fetch(`${origin}/decisions?verdict=maybe`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('verdict must be one of');
    await page.close();
  });

  it('the conversations and misroute marks lists count what the overview counts, and link to explain', async () => {
    const report = (await json<{ misroutes: number }>('/report.json')).body;
    const marks = await json<{
      page: { entries: number };
      marks: { expected: string | null; traceId: string }[];
    }>('/misroutes.json');
    expect(marks.body.page.entries).toBe(report.misroutes);
    expect(marks.body.marks.some((m) => m.expected !== null)).toBe(true);
    const conversations = await json<{ page: { entries: number } }>('/conversations.json');
    expect(conversations.body.page.entries).toBe(71);
    const page = await context.newPage();
    await page.goto(`${origin}/misroutes`, { waitUntil: 'load' });
    const link = page.locator('main table tbody tr:first-child td:nth-child(3) a');
    await Promise.all([page.waitForNavigation(), link.click()]);
    expect(new URL(page.url()).pathname).toBe(`/explain/${marks.body.marks[0]!.traceId}`);
    await page.close();
  });

  it('reads at 390 px: no page scrolls sideways, long ids wrap, charts keep legible text', async () => {
    const rows = await allDecisions('');
    const conversation = rows.find((r) => r.misrouted)!.conversationId!;
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, path] of [
      ['overview', '/'],
      ['decisions', '/decisions?near=1'],
      ['explain', `/explain/${encodeURIComponent(conversation)}`],
      ['trace', `/explain/${rows[0]!.traceId}`],
    ] as const) {
      await page.goto(`${origin}${path}`, { waitUntil: 'load' });
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, name).toBeLessThanOrEqual(0);
      // Chart text is drawn at its own size (the chart scrolls in its box instead of shrinking).
      const scales = await page.$$eval('svg.chart', (svgs) =>
        svgs.map((s) => s.getBoundingClientRect().width / Number(s.getAttribute('width'))),
      );
      for (const scale of scales) expect(scale, `${name}: ${scales.join(' ')}`).toBeGreaterThanOrEqual(0.99);
      await page.screenshot({ path: join(ARTIFACTS, `serve-oncall-${name}-390.png`), fullPage: true });
    }
    // A trace id in explain's fields wraps inside its cell instead of widening the page.
    const idBox = await page.$eval('table.fields code.id', (c) => c.getBoundingClientRect().right);
    expect(idBox).toBeLessThanOrEqual(390);
    await page.close();
  });
});
