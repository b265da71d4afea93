/**
 * serve's live page in a real headless Chromium: the empty state first, then the report appearing and moving
 * as the real exporter sends spans, with no console error and no request beyond the serve itself; an example
 * id links to its explain page. Screenshots of both states are saved to test-artifacts/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServe } from '../../src/serve/startServe.js';
import { launchChromium } from '../helpers/chromium.js';
import { exportDecisions, startTestServe } from '../serve/serveHarness.js';

const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');

let context: BrowserContext;
let profile: string;
let serve: RunningServe;

beforeAll(async () => {
  profile = mkdtempSync(join(tmpdir(), 'routescope-chromium-'));
  context = await launchChromium(profile, { width: 1360, height: 900 });
  mkdirSync(ARTIFACTS, { recursive: true });
  serve = await startTestServe();
});

afterAll(async () => {
  await serve?.close();
  await context?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

describe('serve live page in Chromium', () => {
  it('shows the empty state, then updates by itself as spans arrive; ids link to explain', async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    const origin = new URL(serve.pageUrl).origin;
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith(origin)) foreign.push(r.url());
    });
    await page.goto(serve.pageUrl, { waitUntil: 'load' });
    await expect.poll(() => page.textContent('#routescope-live')).toBe('live');
    expect(await page.textContent('body')).toContain(`OTEL_EXPORTER_OTLP_ENDPOINT=${serve.endpoint}`);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-empty.png'), fullPage: true });

    await exportDecisions(serve.endpoint, 60, 'json');
    await expect
      .poll(() => page.textContent('header h1'), { timeout: 10_000 })
      .toMatch(/60 routing decisions/);
    await exportDecisions(serve.endpoint, 30, 'protobuf');
    await expect
      .poll(() => page.textContent('header h1'), { timeout: 10_000 })
      .toMatch(/90 routing decisions/);
    const charts = await page.$$eval('main svg.chart', (svgs) => svgs.length);
    expect(charts).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-live.png'), fullPage: true });

    const link = await page.$('main a[href^="/explain/"]');
    expect(link).not.toBeNull();
    const href = (await link!.getAttribute('href'))!;
    await page.goto(`${origin}${href}`, { waitUntil: 'load' });
    expect(await page.textContent('header h1')).toMatch(/explain/i);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-explain.png'), fullPage: true });

    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });
});
