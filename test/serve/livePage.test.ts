/**
 * The live page's server side over real sockets: pages are told of new data at most once a second however fast
 * requests arrive, a render is shared by every page until it may be redone, and the token guards every route
 * (a bearer header, or once in the URL, then a same-site cookie); a request it cannot read is answered, never
 * thrown into Node (which would end the process). Ports 0; waits poll with a deadline.
 */
import { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_INTERVAL_MS } from '../../src/serve/livePage.js';
import type { RunningServe } from '../../src/serve/startServe.js';
import { startTestServe, until } from './serveHarness.js';

let running: RunningServe | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await running?.close();
  running = undefined;
});

const EMPTY_REQUEST = JSON.stringify({
  resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [] }] }],
});

describe('live page events', () => {
  it('tells pages at most once a second however fast requests arrive, and always of the newest', async () => {
    running = await startTestServe();
    // When the server sent each event, seen on its side (it runs in this process): when this client reads
    // them depends on how busy the machine is, and two sent a second apart can be read together.
    const sentAt: number[] = [];
    const write = ServerResponse.prototype.write;
    vi.spyOn(ServerResponse.prototype, 'write').mockImplementation(function (
      this: ServerResponse,
      ...args: unknown[]
    ) {
      if (typeof args[0] === 'string' && args[0].startsWith('event: revision')) sentAt.push(Date.now());
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    });
    const controller = new AbortController();
    const response = await fetch(`${running.pageUrl}events`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const revisions: Array<{ at: number; revision: number }> = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let text = '';
      try {
        for await (const chunk of response.body!) {
          text += decoder.decode(chunk as Uint8Array, { stream: true });
          for (const m of text.matchAll(/event: revision\ndata: (\d+)\n\n/g))
            revisions.push({ at: Date.now(), revision: Number(m[1]) });
          text = text.slice(text.lastIndexOf('\n\n') + 2);
        }
      } catch {
        // aborted
      }
    })();
    await until(() => revisions.length === 1, 'the first event (sent on connecting)');
    const started = Date.now();
    let sent = 0;
    while (Date.now() - started < 2500) {
      const r = await fetch(`${running.endpoint}/v1/traces`, {
        method: 'POST',
        body: EMPTY_REQUEST,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(200);
      sent++;
    }
    const finalRevision = running.runtime.revision;
    await until(() => revisions.at(-1)!.revision === finalRevision, 'an event with the newest revision');
    const elapsed = Date.now() - started;
    controller.abort();
    await reading;
    expect(sent).toBeGreaterThan(revisions.length);
    // One on connecting, then at most one per interval (and one more for the last, partial interval).
    expect(revisions.length - 1).toBeLessThanOrEqual(Math.ceil(elapsed / EVENT_INTERVAL_MS) + 1);
    vi.restoreAllMocks();
    expect(sentAt.length).toBe(revisions.length - 1);
    // Node's timers may fire a millisecond before Date.now() says the delay is up.
    for (let i = 1; i < sentAt.length; i++)
      expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(EVENT_INTERVAL_MS - 2);
  });
});

describe('the token on the page', () => {
  it('every route wants it: 401 without, a bearer header works, and ?token= once sets a same-site cookie', async () => {
    running = await startTestServe({ token: 's3cret' });
    expect((await fetch(running.pageUrl)).status).toBe(401);
    expect((await fetch(`${running.pageUrl}report.json`)).status).toBe(401);
    expect((await fetch(`${running.pageUrl}events`)).status).toBe(401);
    expect((await fetch(running.pageUrl, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
    expect((await fetch(running.pageUrl, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const login = await fetch(`${running.pageUrl}?token=s3cret`, { redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/');
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const withCookie = await fetch(running.pageUrl, { headers: { cookie: cookie.split(';')[0]! } });
    expect(withCookie.status).toBe(200);
    expect(await withCookie.text()).toContain('routescope serve');
  });
});

/** The status of one request sent as raw bytes (a request target no client library would send). */
async function rawStatus(base: string, requestLine: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${requestLine}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? -1)));
    socket.on('error', reject);
  });
}

describe('requests the page cannot read', () => {
  it('a cookie that is not URL encoding is no token (401), a target that is not a URL path is 400, and serve lives on', async () => {
    running = await startTestServe({ token: 's3cret' });
    const bearer = { authorization: 'Bearer s3cret' };
    expect((await fetch(running.pageUrl, { headers: { cookie: 'routescope_token=%E0' } })).status).toBe(401);
    expect(await rawStatus(running.pageUrl, 'GET //[ HTTP/1.1')).toBe(400);
    expect((await fetch(`${running.pageUrl}healthz`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${running.endpoint}/healthz`, { headers: bearer })).status).toBe(200);
  });
});
