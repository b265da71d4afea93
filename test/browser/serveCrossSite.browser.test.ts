/**
 * serve against a real web page of another site, in headless Chromium: a second loopback server (the "other
 * site", on another port and another name) serves a page that posts forged decisions to serve every way a page
 * can without asking (text/plain, no type, a form, `no-cors`) and the way it must ask for (application/json);
 * none lands. A name rebound to 127.0.0.1 (Chromium's host resolver rules stand in for an attacker's DNS) gets
 * 403 for serve's page and JSON, so the other site cannot read them either. serve's own page still works.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServe } from '../../src/serve/startServe.js';
import { launchChromium } from '../helpers/chromium.js';
import { turnRoutedEvent } from '../helpers/turnRoutedEvents.js';
import { routingRequests } from '../serve/routingRequests.js';
import { exportDecisions, startTestServe } from '../serve/serveHarness.js';

const REBOUND = 'rebind.evil.example';

let context: BrowserContext;
let profile: string;
let serve: RunningServe;
let other: Server;
let otherOrigin: string;
let attackPage = '';

beforeAll(async () => {
  profile = mkdtempSync(join(tmpdir(), 'routescope-chromium-'));
  context = await launchChromium(profile, { width: 1000, height: 700 }, [
    `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`,
  ]);
  serve = await startTestServe();
  other = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(attackPage);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  // serve is on 127.0.0.1: the page on `localhost` is another site, not only another origin.
  otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await context?.close();
  await serve?.close();
  other?.closeAllConnections();
  await new Promise<void>((resolve) => (other === undefined ? resolve() : other.close(() => resolve())));
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

describe('a page of another site', () => {
  it('cannot post a decision to serve by any request a page can send', async () => {
    const [request] = await routingRequests(1);
    const event = `${JSON.stringify(turnRoutedEvent())}\n`;
    const traces = `${serve.endpoint}/v1/traces`;
    const events = `${serve.endpoint}/agentfootprint/events`;
    const attempts = [
      [events, event, 'text/plain', 'no-cors'],
      [events, event, undefined, 'no-cors'],
      [events, event, 'application/x-ndjson', 'cors'],
      [traces, request!.json, 'text/plain', 'no-cors'],
      [traces, request!.json, 'application/json', 'cors'],
      [traces, request!.json, 'application/json', 'no-cors'],
    ];
    attackPage = `<!doctype html><title>another site</title><form id="f" method="post" action="${events}" enctype="text/plain" target="sink"><input name='${event.replace(/'/g, '&#39;')}' value=""></form><iframe name="sink"></iframe><script>
      const attempts = ${JSON.stringify(attempts)};
      window.done = Promise.all(attempts.map(([url, body, type, mode]) =>
        fetch(url, { method: 'POST', mode, body, ...(type ? { headers: { 'content-type': type } } : {}) })
          .then((r) => 'answered ' + r.type, (e) => 'blocked')))
        .then((results) => { document.getElementById('f').submit(); return results; });
    </script>`;
    const page = await context.newPage();
    const refused: number[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(serve.endpoint)) refused.push(r.status());
    });
    await page.goto(`${otherOrigin}/`, { waitUntil: 'load' });
    const results = (await page.evaluate('window.done')) as string[];
    expect(results).toHaveLength(attempts.length);
    // The form post too: wait (polling, with a deadline) until serve has answered every attempt it saw.
    const deadline = Date.now() + 20_000;
    while (serve.runtime.state.counts.requests.refused + serve.runtime.state.counts.requests.invalid < 5) {
      if (Date.now() > deadline) throw new Error('serve did not see the attempts');
      await new Promise((r) => setTimeout(r, 20));
    }
    await page.close();
    expect(serve.runtime.state.counts.decisionsReceived).toBe(0);
    expect(serve.runtime.state.counts.requests.accepted).toBe(0);
    expect(serve.runtime.state.stats.spans + serve.runtime.state.stats.events).toBe(0);
    for (const status of refused) expect([403, 405, 415]).toContain(status);
  });

  it('a name rebound to 127.0.0.1 gets 403 for the page and its JSON; serve itself still answers', async () => {
    await exportDecisions(serve.endpoint, 3, 'json');
    const port = new URL(serve.pageUrl).port;
    const page = await context.newPage();
    for (const path of ['/', '/report.json']) {
      const response = await page.goto(`http://${REBOUND}:${port}${path}`, { waitUntil: 'load' });
      expect(response?.status(), path).toBe(403);
      expect(await page.textContent('body'), path).toMatch(/not a name of this routescope serve/);
    }
    const own = await page.goto(serve.pageUrl, { waitUntil: 'load' });
    expect(own?.status()).toBe(200);
    expect(await page.textContent('main')).toMatch(/decisions/i);
    await page.close();
  });
});
