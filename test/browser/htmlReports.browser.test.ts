/**
 * The HTML reports in a real headless Chromium (Debian `chromium`, driven by playwright-core): each page
 * loads with no console error and no network request, every chart has marks, ids that carry markup run
 * nothing and show as text, and a full-page screenshot of each is saved to test-artifacts/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { createPageWorkspace, HOSTILE, type PageName, type PageWorkspace } from './reportPages.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');
const PAGES: readonly PageName[] = [
  'analyze',
  'hotspots',
  'floorless',
  'explain',
  'replay',
  'tune',
  'flapping',
  'explain-hostile',
];

let ws: PageWorkspace;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  ws = await createPageWorkspace();
  profile = mkdtempSync(join(tmpdir(), 'routescope-chromium-'));
  context = await launchChromium(profile, { width: 1360, height: 900 });
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await context?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  ws?.cleanup();
});

describe('HTML reports in Chromium', () => {
  for (const name of PAGES) {
    it(`${name}: loads clean, offline, every chart drawn, screenshot saved`, async () => {
      const { path } = await ws.render(name);
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      const pageErrors: string[] = [];
      const requests: string[] = [];
      const url = pathToFileURL(path).href;
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('request', (r) => {
        if (r.url() !== url) requests.push(r.url());
      });
      await page.goto(url, { waitUntil: 'load' });

      expect(consoleErrors).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(requests).toEqual([]);

      const charts = await page.$$eval('svg.chart', (svgs) =>
        svgs.map((svg) => ({
          kind: svg.getAttribute('data-chart'),
          title: svg.getAttribute('aria-label'),
          marks: svg.querySelectorAll('.mark').length,
          empty: svg.querySelector('.empty') !== null,
          box: svg.getBoundingClientRect().width,
        })),
      );
      expect(charts.length).toBeGreaterThan(0);
      for (const c of charts) {
        expect(c, `chart "${c.title}" on ${name}`).toMatchObject({ empty: false });
        expect(c.marks, `marks of "${c.title}" on ${name}`).toBeGreaterThan(0);
        expect(c.box).toBeGreaterThan(100);
      }

      // Nothing injected ran or became markup.
      expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.$('#injected')).toBeNull();
      expect(await page.$$('script')).toHaveLength(0);

      await page.screenshot({ path: join(ARTIFACTS, `report-${name}.png`), fullPage: true });
      await page.close();
    });
  }

  it('ids carrying markup are shown as text', async () => {
    const { path } = await ws.render('explain-hostile');
    const page = await context.newPage();
    await page.goto(pathToFileURL(path).href);
    const text = await page.evaluate(
      () => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText,
    );
    expect(text).toContain(HOSTILE.router);
    expect(text).toContain(HOSTILE.scorer);
    expect(text).toContain('<svg onload');
    expect(text).toContain('\\x07');
    await page.close();
  });
});
