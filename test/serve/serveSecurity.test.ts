/**
 * serve against the web pages that can reach localhost, and the answers OTLP/HTTP expects: a foreign Host
 * (DNS rebinding) is refused on every route of both ports; a post from another site (Origin, Sec-Fetch-Site) or
 * of a type a page may send without asking (text/plain, none) is refused and leaves nothing behind; the redirect
 * after `?token=` stays on the page; the Bearer scheme is matched in any case; `--forward` credentials become a
 * header and are never shown; damaged gzip is 400 and oversized headers 431. Real sockets, ports 0.
 */
import { request } from 'node:http';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServe } from '../../src/serve/startServe.js';
import { hostNameOf } from '../../src/serve/requestGuard.js';
import { readServeOptions } from '../../src/cli/commands/serve.js';
import { exportDecisions, startTestServe } from './serveHarness.js';
import { protoField, routingRequests } from './routingRequests.js';
import { turnRoutedEvent } from '../helpers/turnRoutedEvents.js';

let running: (RunningServe & { logged: string[] }) | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  await Promise.all(closers.splice(0).map((c) => c()));
});

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** One request with exactly these headers (fetch would not send a Host of our choosing). */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('Host: a name that is not serve is refused (DNS rebinding)', () => {
  it('every route of both ports answers 403 to a foreign Host, and nothing is taken', async () => {
    running = await startTestServe();
    await exportDecisions(running.endpoint, 3, 'json');
    const first = [...running.runtime.window.records()].find((r) => r.kind === 'decision')!;
    const traceId = first.traceId;
    const evil = { host: 'rebind.evil.example' };
    const page = running.pageUrl;
    for (const path of [
      '',
      'report.json',
      `explain/${traceId}.json`,
      `explain/${traceId}`,
      'events',
      'healthz',
    ])
      expect((await send(`${page}${path}`, 'GET', evil)).status, path).toBe(403);
    for (const path of ['/metrics', '/healthz'])
      expect((await send(`${running.endpoint}${path}`, 'GET', evil)).status, path).toBe(403);
    const [line] = await routingRequests(1);
    const posted = await send(`${running.endpoint}/v1/traces`, 'POST', { ...evil, ...JSON_TYPE }, line!.json);
    expect(posted.status).toBe(403);
    expect((JSON.parse(posted.body) as { message: string }).message).toMatch(
      /--allow-host rebind\.evil\.example/,
    );
    expect(running.runtime.state.counts.decisionsReceived).toBe(3);
  });

  it('localhost, 127.0.0.1, [::1], any address and the names given with --allow-host are answered', async () => {
    running = await startTestServe({ allowHosts: ['routescope.test'] });
    for (const host of [
      'localhost',
      'LOCALHOST:4319',
      '127.0.0.1',
      '[::1]:4319',
      '192.0.2.7:80',
      'routescope.test',
      'routescope.test.',
    ])
      expect((await send(`${running.pageUrl}healthz`, 'GET', { host })).status, host).toBe(200);
    for (const host of [
      'routescope.test.evil.example',
      'localhost.evil.example',
      'evil.example',
      'a b',
      '[::1',
    ])
      expect((await send(`${running.pageUrl}healthz`, 'GET', { host })).status, host).toBe(403);
  });

  it('hostNameOf reads what a Host header names', () => {
    expect(hostNameOf('Example.COM.:80')).toBe('example.com');
    expect(hostNameOf('[::1]:4318')).toBe('::1');
    expect(hostNameOf('127.0.0.1')).toBe('127.0.0.1');
    expect(hostNameOf('evil.example:x')).toBeUndefined();
    expect(hostNameOf('a/b')).toBeUndefined();
    expect(hostNameOf('')).toBeUndefined();
  });

  it('--allow-host takes host names only', () => {
    const ctx = { io: { env: {}, stdout: process.stdout, stderr: process.stderr } } as never;
    expect(() => readServeOptions({ allowHost: ['evil.example/x'] } as never, ctx)).toThrow(/--allow-host/);
    expect(readServeOptions({ allowHost: ['box.local'] } as never, ctx).allowHosts).toEqual(['box.local']);
  });
});

describe('another site cannot post a decision', () => {
  it('an event log as text/plain or with no type (a simple request any page can send) is 415, and nothing lands', async () => {
    running = await startTestServe();
    const line = routingEventLine();
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', undefined]) {
      const r = await send(
        `${running.endpoint}/agentfootprint/events`,
        'POST',
        type === undefined ? {} : { 'content-type': type },
        line,
      );
      expect(r.status, String(type)).toBe(415);
    }
    // The same line with its own type is taken: the refusals were about the type, not the line.
    expect(running.runtime.state.counts.decisionsReceived).toBe(0);
    const ok = await send(
      `${running.endpoint}/agentfootprint/events`,
      'POST',
      { 'content-type': 'application/x-ndjson' },
      line,
    );
    expect(ok.status).toBe(200);
    expect(running.runtime.state.counts.decisionsReceived).toBe(1);
  });

  it('an Origin of another site, a null Origin or Sec-Fetch-Site: cross-site is 403, and nothing lands', async () => {
    running = await startTestServe();
    const url = `${running.endpoint}/v1/traces`;
    const lines = (await routingRequests(8)).map((r) => r.json);
    const foreign: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `http://127.0.0.1:1` },
      { origin: 'http://localhost.evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const r = await send(url, 'POST', { ...JSON_TYPE, ...headers }, lines[0]);
      expect(r.status, JSON.stringify(headers)).toBe(403);
    }
    expect(running.runtime.state.counts.decisionsReceived).toBe(0);
    expect(running.runtime.state.stats.spans).toBe(0);
    // serve's own page (its origin) and a client that says nothing are answered.
    const own = new URL(running.pageUrl).origin;
    expect((await send(url, 'POST', { ...JSON_TYPE, origin: own }, lines[1])).status).toBe(200);
    expect(
      (await send(url, 'POST', { ...JSON_TYPE, 'sec-fetch-site': 'same-origin' }, lines[2])).status,
    ).toBe(200);
    expect((await send(url, 'POST', JSON_TYPE, lines[3])).status).toBe(200);
    expect(running.runtime.state.counts.decisionsReceived).toBe(3);
  });

  it('the page refuses reads another site embeds, but opens for a link the user follows', async () => {
    running = await startTestServe();
    const embedded = await send(`${running.pageUrl}report.json`, 'GET', {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
    });
    expect(embedded.status).toBe(403);
    const followed = await send(running.pageUrl, 'GET', {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    });
    expect(followed.status).toBe(200);
  });
});

describe('the token', () => {
  it('the redirect after ?token= stays on this page, whatever the path looks like', async () => {
    running = await startTestServe({ token: 'T0ken' });
    const origin = new URL(running.pageUrl).origin;
    for (const path of [
      '/.//evil.example/?token=T0ken',
      '/./\\evil.example/?token=T0ken',
      '//evil.example/?token=T0ken',
      '/%2F%2Fevil.example/?token=T0ken',
      '/\\evil.example?token=T0ken&x=1',
      '/a/..//evil.example/x?token=T0ken',
    ]) {
      const r = await send(`${origin}${path}`, 'GET', {});
      expect(r.status, path).toBe(303);
      const location = r.headers.location!;
      // One slash, then not a second one (nor a backslash, which browsers read as one): a path of this page.
      expect(location, path).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, running.pageUrl).origin, path).toBe(origin);
    }
    const plain = await send(`${origin}/report.json?token=T0ken&x=1`, 'GET', {});
    expect(plain.headers.location).toBe('/report.json?x=1');
  });

  it('the Bearer scheme is matched in any case, on both ports', async () => {
    running = await startTestServe({ token: 'T0ken' });
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const authorization = `${scheme} T0ken`;
      expect((await send(running.metricsUrl, 'GET', { authorization })).status, scheme).toBe(200);
      expect((await send(`${running.pageUrl}report.json`, 'GET', { authorization })).status, scheme).toBe(
        200,
      );
    }
    expect((await send(running.metricsUrl, 'GET', { authorization: 'Basic T0ken' })).status).toBe(401);
    expect((await send(running.metricsUrl, 'GET', { authorization: 'Bearer t0ken' })).status).toBe(401);
  });
});

describe('--forward with credentials and a query', () => {
  async function startTarget(): Promise<{ url: string; received: { path: string; auth?: string }[] }> {
    const received: { path: string; auth?: string }[] = [];
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          ...(req.headers.authorization === undefined ? {} : { auth: req.headers.authorization }),
        });
        res.writeHead(200, JSON_TYPE);
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
  }

  it('user:password in the URL travels as Basic authorization, the query stays a query, and the password is shown nowhere', async () => {
    const target = await startTarget();
    const withCredentials = target.url.replace('http://', 'http://agent:pa%24%24w0rd-SECRET@');
    running = await startTestServe({ forward: `${withCredentials}/otlp?tenant=a&x=1` });
    await exportDecisions(running.endpoint, 4, 'json');
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 20_000;
      const poll = (): void => {
        if (running!.forward!.counts.ok > 0 && running!.forward!.pending === 0) return resolve();
        if (Date.now() > deadline) return reject(new Error('nothing was forwarded'));
        setTimeout(poll, 5);
      };
      poll();
    });
    expect(target.received.length).toBeGreaterThan(0);
    for (const r of target.received) {
      expect(r.path).toBe('/otlp/v1/traces?tenant=a&x=1');
      expect(r.auth).toBe(`Basic ${Buffer.from('agent:pa$$w0rd-SECRET').toString('base64')}`);
    }
    const shown = [
      running.forward!.target,
      await (await fetch(running.metricsUrl)).text(),
      await (await fetch(`${running.pageUrl}report.json`)).text(),
      await (await fetch(running.pageUrl)).text(),
      ...running.logged,
    ].join('\n');
    expect(shown).not.toMatch(/SECRET|pa%24%24w0rd/);
    expect(running.forward!.target).toBe(`${target.url}/otlp?tenant=a&x=1`);
  });

  it('credentials in the URL and an Authorization --header together are refused at start, without the password', async () => {
    await expect(
      startTestServe({
        forward: 'http://agent:SECRET@127.0.0.1:9/',
        forwardHeaders: { Authorization: 'Bearer x' },
      }),
    ).rejects.toThrow(/keep one/);
    await expect(startTestServe({ forward: 'http://agent:SECRET@[bad' })).rejects.toThrow(
      /^--forward: not a URL/,
    );
  });
});

describe('statuses as OTLP/HTTP expects', () => {
  it('damaged gzip is 400; an unknown encoding stays 415', async () => {
    running = await startTestServe();
    const url = `${running.endpoint}/v1/traces`;
    const good = gzipSync(Buffer.from((await routingRequests(1))[0]!.json));
    const badCrc = Buffer.from(good);
    badCrc[badCrc.length - 6]! ^= 0xff;
    for (const [what, body] of [
      ['truncated', good.subarray(0, good.length - 10)],
      ['bad CRC', badCrc],
      ['not gzip', Buffer.from('{"resourceSpans":[]}')],
    ] as const) {
      const r = await send(url, 'POST', { ...JSON_TYPE, 'content-encoding': 'gzip' }, body);
      expect(r.status, what).toBe(400);
      expect((JSON.parse(r.body) as { message: string }).message, what).toMatch(/gzip/);
    }
    expect((await send(url, 'POST', { ...JSON_TYPE, 'content-encoding': 'br' }, 'x')).status).toBe(415);
    expect(running.runtime.state.counts.decisionsReceived).toBe(0);
    expect((await send(url, 'POST', { ...JSON_TYPE, 'content-encoding': 'gzip' }, good)).status).toBe(200);
  });

  it('headers past what Node takes are 431', async () => {
    running = await startTestServe();
    const r = await send(
      `${running.endpoint}/v1/traces`,
      'POST',
      { ...JSON_TYPE, 'x-big': 'x'.repeat(20_000), 'x-big-2': 'x'.repeat(20_000) },
      '{}',
    );
    expect(r.status).toBe(431);
  });

  it('an attribute nested too deep inside a protobuf routing span is 400 with the reason, not 500', async () => {
    running = await startTestServe();
    const r = await send(
      `${running.endpoint}/v1/traces`,
      'POST',
      { 'content-type': 'application/x-protobuf' },
      deepProtobufRoutingSpan(40),
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatch(/nested/);
    expect(running.runtime.state.stats.spans).toBe(0);
  });
});

/** One agentfootprint `turn_routed` event line. */
function routingEventLine(): string {
  return `${JSON.stringify(turnRoutedEvent())}\n`;
}

/** A protobuf request of one routing span whose `deep` attribute nests `depth` arrays. */
function deepProtobufRoutingSpan(depth: number): Buffer {
  const field = protoField;
  const str = (s: string): Buffer => Buffer.from(s, 'utf8');
  // AnyValue: string_value 1, array_value 5; ArrayValue: values 1; KeyValue: key 1, value 2.
  let value = field(1, str('x'));
  for (let i = 0; i < depth; i++) value = field(5, field(1, value));
  const attribute = (key: string, any: Buffer): Buffer =>
    field(9, Buffer.concat([field(1, str(key)), field(2, any)]));
  const span = Buffer.concat([
    field(1, Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex')),
    field(2, Buffer.from('b7ad6b7169203331', 'hex')),
    field(5, str('agentfootprint.routing.tier2')),
    attribute('agentfootprint.routing.verdict', field(1, str('move'))),
    attribute('deep', value),
  ]);
  return field(1, field(2, field(2, span)));
}
