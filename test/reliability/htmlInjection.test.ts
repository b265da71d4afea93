/**
 * Output injection in the HTML reports, checked in a real browser (Debian chromium via playwright-core).
 *
 * Every HTML page (analyze, hotspots, floorless, explain, replay, tune, flapping) is rendered by `runCli` from the hostile trace
 * (see hostileTrace: `<script>`, `</style>` breakouts, attribute-breaking quotes with event handlers, `<img
 * onerror>`, `<svg onload>`) and opened from a file. Twice: as written, and with its Content-Security-Policy
 * meta tag removed — the CSP alone would stop scripts, so the second load proves the escaping holds by
 * itself. Either way: no script runs (the payloads would set `window.__pwned` or log to the console), no
 * element from the trace exists (no `<script>`, no event-handler attribute, no `<img>`, no stray `<style>`),
 * and the hostile strings are shown as text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { HOSTILE, writeHostileTrace } from './hostileTrace.js';

const CSP_META = /<meta[^>]+http-equiv=["']?Content-Security-Policy["']?[^>]*>/i;

let dir: string;
let trace: string;
let conversationId: string;
let context: BrowserContext;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-html-inject-'));
  trace = join(dir, 'hostile.jsonl');
  conversationId = writeHostileTrace(trace).conversationId;
  context = await launchChromium(join(dir, 'profile'));
});

afterAll(async () => {
  await context?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function renderHtml(argv: string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--format', 'html'], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    isTTY: false,
    env: {},
  });
  expect(code, stderr).toBe(0);
  return stdout;
}

interface PageFacts {
  readonly pwned: unknown;
  readonly scripts: number;
  readonly handlers: number;
  readonly images: number;
  readonly hostileStyles: number;
  readonly text: string;
}

async function open(
  html: string,
  name: string,
): Promise<{ facts: PageFacts; console: string[]; dialogs: string[] }> {
  const path = join(dir, `${name}.html`);
  writeFileSync(path, html);
  const page = await context.newPage();
  const consoleLines: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m) => consoleLines.push(m.text()));
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  try {
    await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
    // Give an onerror/onload handler the chance to fire had one been created.
    await page.waitForTimeout(100);
    // A string, evaluated in the page: this project's TypeScript has no DOM types.
    const facts = (await page.evaluate(`(() => ({
      pwned: window.__pwned,
      scripts: document.querySelectorAll('script').length,
      handlers: document.querySelectorAll('[onmouseover],[onerror],[onload],[onclick]').length,
      images: document.querySelectorAll('img').length,
      hostileStyles: [...document.querySelectorAll('style')].filter((s) => (s.textContent || '').includes('PWNED')).length,
      text: document.body.innerText,
    }))()`)) as PageFacts;
    return { facts, console: consoleLines, dialogs };
  } finally {
    await page.close();
  }
}

const PAGES = (): Array<[string, string[]]> => [
  ['analyze', ['analyze', trace]],
  ['hotspots', ['hotspots', trace]],
  ['floorless', ['floorless', trace]],
  ['explain', ['explain', conversationId, trace]],
  ['replay', ['replay', trace, '--margin', '0.05', '--list']],
  ['tune', ['tune', trace]],
  ['flapping', ['flapping', trace]],
];

describe('hostile trace strings in the HTML reports, in Chromium', () => {
  it('control: the same payloads unescaped in a page without CSP do run (the checks can fail)', async () => {
    const { facts, console: lines } = await open(
      `<!doctype html><html><body><p>${HOSTILE.script}</p><p>${HOSTILE.img}</p></body></html>`,
      'control',
    );
    expect(facts.pwned).toBeDefined();
    expect(lines.some((l) => l.includes('PWNED-ran'))).toBe(true);
    expect(facts.scripts).toBe(1);
    expect(facts.images).toBe(1);
  });

  for (const [name] of [
    ['analyze'],
    ['hotspots'],
    ['floorless'],
    ['explain'],
    ['replay'],
    ['tune'],
    ['flapping'],
  ] as const) {
    it(`${name}: no script runs and the hostile text is shown, with the CSP and without it`, async () => {
      const argv = PAGES().find(([n]) => n === name)![1];
      const html = await renderHtml(argv);
      expect(CSP_META.test(html), 'the page carries its CSP').toBe(true);
      const variants: Array<[string, string]> = [
        ['with CSP', html],
        ['CSP removed', html.replace(CSP_META, '')],
      ];
      for (const [variant, page] of variants) {
        const { facts, console: lines, dialogs } = await open(page, `${name}-${variant.replace(' ', '-')}`);
        const what = `${name} (${variant})`;
        expect(facts.pwned, what).toBeUndefined();
        expect(
          lines.filter((l) => l.includes('PWNED')),
          what,
        ).toEqual([]);
        expect(dialogs, what).toEqual([]);
        expect(facts.scripts, what).toBe(0);
        expect(facts.handlers, what).toBe(0);
        expect(facts.images, what).toBe(0);
        expect(facts.hostileStyles, what).toBe(0);
        // Shown as text: at least one hostile markup string appears literally on the page.
        const shown = [HOSTILE.script, HOSTILE.style, HOSTILE.attr, HOSTILE.img, HOSTILE.svg].filter((h) =>
          facts.text.includes(h),
        );
        expect(shown.length, `${what} shows the hostile markup as text`).toBeGreaterThan(0);
      }
    });
  }
});
