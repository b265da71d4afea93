/**
 * serve's live page in a real headless Chromium, fed by the real OTLP exporters: the empty state first, then the
 * report appearing and moving without a reload, to the figures `routescope analyze` gives for the same spans;
 * an example id links to its explain view; hostile names and ids show as text, nothing runs; no console error
 * and no request beyond the serve itself; readable at a phone's width. Screenshots of the empty, busy, explain
 * and phone views are saved to test-artifacts/ to be looked at.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServe } from '../../src/serve/startServe.js';
import { cliJson } from '../cli/runCliHarness.js';
import { launchChromium } from '../helpers/chromium.js';
import { exportDecisions, startTestServe } from '../serve/serveHarness.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');

let context: BrowserContext;
let profile: string;
let scratch: string;
let serve: RunningServe | undefined;

beforeAll(async () => {
  profile = mkdtempSync(join(tmpdir(), 'routescope-chromium-'));
  scratch = mkdtempSync(join(tmpdir(), 'routescope-serve-page-'));
  context = await launchChromium(profile, { width: 1280, height: 900 });
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterEach(async () => {
  await serve?.close();
  serve = undefined;
});

afterAll(async () => {
  await context?.close();
  for (const dir of [profile, scratch]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A page that records console errors, page errors, dialogs and requests to anywhere but `origin`. */
async function watchedPage(origin: string): Promise<{ page: Page; problems: string[]; foreign: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  const foreign: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', (d) => {
    problems.push(`a dialog opened: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(origin)) foreign.push(r.url());
  });
  return { page, problems, foreign };
}

/** The value of a key-figure card, by its label. */
async function card(page: Page, label: string): Promise<string> {
  const cards = await page.$$eval('main .stat', (els) =>
    els.map((e) => [e.querySelector('span')?.textContent ?? '', e.querySelector('b')?.textContent ?? '']),
  );
  const found = cards.find(([l]) => l.trim().toLowerCase() === label.toLowerCase());
  if (found === undefined) throw new Error(`no card '${label}' among ${cards.map(([l]) => l).join(', ')}`);
  return found[1]!.trim();
}

describe('serve live page in Chromium', () => {
  it('shows the empty state, then moves by itself to the figures analyze gives for the same spans; ids link to explain', async () => {
    serve = await startTestServe();
    const origin = new URL(serve.pageUrl).origin;
    const { page, problems, foreign } = await watchedPage(origin);
    await page.goto(serve.pageUrl, { waitUntil: 'load' });
    await expect.poll(() => page.textContent('#routescope-live')).toBe('live');
    const empty = (await page.textContent('body'))!;
    expect(empty).toContain(`OTEL_EXPORTER_OTLP_ENDPOINT=${serve.endpoint}`);
    expect(empty).toContain('agent.enable.observability({ strategy: routescopeObservability() })');
    await page.screenshot({ path: join(ARTIFACTS, 'serve-empty.png'), fullPage: true });

    const same = join(scratch, 'same-spans.jsonl');
    await exportDecisions(serve.endpoint, 60, 'json', 'serve-test', same);
    await expect
      .poll(() => page.textContent('header h1'), { timeout: 15_000 })
      .toMatch(/60 routing decisions/);
    await exportDecisions(serve.endpoint, 30, 'protobuf', 'serve-test', same);
    await expect
      .poll(() => page.textContent('header h1'), { timeout: 15_000 })
      .toMatch(/90 routing decisions/);

    // The page's figures are analyze's on the very spans the exporters sent.
    const analyzed = (await cliJson(['analyze', same])).json as {
      decisions: number;
      nearTieRate: number;
      verdicts: Record<string, number>;
    };
    expect(analyzed.decisions).toBe(90);
    expect(await card(page, 'decisions')).toBe('90');
    expect(await card(page, 'near-tie rate')).toBe(`${(analyzed.nearTieRate * 100).toFixed(1)}%`);
    const verdicts = (await page.textContent('main'))!;
    for (const kind of ['move', 'stay', 'menu', 'unmatched'])
      expect(verdicts).toContain(`${kind} ${analyzed.verdicts[kind] ?? 0}`);
    expect(await page.$$eval('main svg.chart', (svgs) => svgs.length)).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-live.png'), fullPage: true });

    const link = await page.$('main a[href^="/explain/"]');
    expect(link).not.toBeNull();
    const href = (await link!.getAttribute('href'))!;
    await page.goto(`${origin}${href}`, { waitUntil: 'load' });
    expect(await page.textContent('header h1')).toMatch(/explain/i);
    const explain = (await page.textContent('main'))!;
    for (const skill of ['billing', 'refunds', 'shipping']) expect(explain).toContain(skill);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-explain.png'), fullPage: true });

    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('hostile names and ids are shown as text: nothing runs, nothing is fetched', async () => {
    serve = await startTestServe();
    const origin = new URL(serve.pageUrl).origin;
    const script = '<script>alert(1)</script>';
    const image = '"><img src=x onerror=alert(2)>';
    const ansi = '\u001b[31mred\u001b[0m';
    const long = `skill-${'x'.repeat(3000)}`;
    await exportDecisions(serve.endpoint, 12, 'json', 'serve-test', undefined, {
      router: script,
      skills: [image, ansi, long],
    });
    const { page, problems, foreign } = await watchedPage(origin);
    await page.goto(serve.pageUrl, { waitUntil: 'load' });
    await expect
      .poll(() => page.textContent('header h1'), { timeout: 15_000 })
      .toMatch(/12 routing decisions/);
    const text = (await page.textContent('main'))!;
    expect(text).toContain(script);
    expect(await page.$$('main script')).toEqual([]);
    expect(await page.$$('main img')).toEqual([]);
    expect(text).not.toContain('\u001b');
    // A hostile id typed into the explain URL is said back as text (a 404: the window holds no such id).
    const response = await page.goto(`${origin}/explain/${encodeURIComponent(script)}`, {
      waitUntil: 'load',
    });
    expect(response?.status()).toBe(404);
    expect(await page.textContent('body')).toContain(script);
    expect(await page.$$('main script')).toEqual([]);
    // Chromium reports the 404 of the page itself on the console; nothing else may be there.
    expect(problems.filter((p) => !p.includes('the server responded with a status of 404'))).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('is readable at a phone’s width: nothing wider than the screen but the tables, which scroll', async () => {
    serve = await startTestServe();
    await exportDecisions(serve.endpoint, 30, 'json');
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(serve.pageUrl, { waitUntil: 'load' });
    await expect
      .poll(() => page.textContent('header h1'), { timeout: 15_000 })
      .toMatch(/30 routing decisions/);
    // The page itself never scrolls sideways (a wide table scrolls inside its own box).
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-phone.png'), fullPage: true });
    await page.close();
  });
});
