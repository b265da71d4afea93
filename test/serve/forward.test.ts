/**
 * serve --forward against a second loopback receiver standing in for a real Collector: every request passed on
 * byte for byte (JSON, protobuf, gzip), to the same path, with the --header headers added. The exporter is
 * answered by serve whatever the target does; a target that refuses, is down or never answers is counted as a
 * failure, and a full queue drops and counts, never blocks. Ports 0; waits poll with a deadline.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createForwarder } from '../../src/serve/forwardRequests.js';
import type { RunningServe } from '../../src/serve/startServe.js';
import { exportDecisions, startTestServe, until } from './serveHarness.js';

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A receiver that keeps every request and answers `status`. */
async function startTarget(
  status: number | 'never' = 200,
  answer = '{}',
): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (status === 'never') return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(answer);
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

async function serveForwardingTo(url: string): Promise<RunningServe & { logged: string[] }> {
  const serve = await startTestServe({ forward: url, forwardHeaders: { 'X-Scope-OrgID': 'tenant-1' } });
  closers.push(async () => void (await serve.close()));
  return serve;
}

describe('serve --forward', () => {
  it('the real exporters through serve: every request reaches the target at its path, with its type and the added header', async () => {
    for (const [encoding, type] of [
      ['json', 'application/json'],
      ['protobuf', 'application/x-protobuf'],
    ] as const) {
      const target = await startTarget();
      const serve = await serveForwardingTo(target.url);
      await exportDecisions(serve.endpoint, 30, encoding);
      const accepted = serve.runtime.state.counts.requests.accepted;
      await until(() => serve.forward!.counts.ok === accepted, 'every request to reach the target');
      expect(target.received.length).toBe(accepted);
      expect(target.received.every((r) => r.path === '/v1/traces')).toBe(true);
      expect(target.received.every((r) => r.headers['content-type'] === type)).toBe(true);
      expect(target.received.every((r) => r.headers['x-scope-orgid'] === 'tenant-1')).toBe(true);
      expect(serve.runtime.window.decisions).toBe(30);
    }
  });

  it('bodies passed on byte for byte: JSON, protobuf and gzip, to the same path', async () => {
    const capture = await startTarget();
    await exportDecisions(capture.url, 10, 'protobuf');
    const proto = capture.received[0]!.body;
    const json = Buffer.from(
      JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: [] }] }] }),
    );
    const target = await startTarget();
    const serve = await serveForwardingTo(target.url);
    const sent: Array<[Buffer, Record<string, string>]> = [
      [json, { 'content-type': 'application/json' }],
      [proto, { 'content-type': 'application/x-protobuf' }],
      [gzipSync(json), { 'content-type': 'application/json', 'content-encoding': 'gzip' }],
    ];
    for (const [i, [body, headers]] of sent.entries()) {
      const r = await fetch(`${serve.endpoint}/v1/traces`, { method: 'POST', body, headers });
      expect(r.status).toBe(200);
      // One at a time, so the order the target sees is the order sent.
      await until(() => target.received.length === i + 1, `forward ${i + 1} to arrive`);
    }
    expect(target.received.map((r) => r.body.equals(sent[target.received.indexOf(r)]![0]))).toEqual([
      true,
      true,
      true,
    ]);
    expect(target.received[2]!.headers['content-encoding']).toBe('gzip');
  });

  it('a target that refuses, is down or never answers: the exporter still gets 200 from serve, the failure is counted', async () => {
    const body = JSON.stringify({ resourceSpans: [] });
    const headers = { 'content-type': 'application/json' };
    const busy = await startTarget(503, '{"code":14,"message":"busy"}');
    const refusing = await serveForwardingTo(busy.url);
    expect((await fetch(`${refusing.endpoint}/v1/traces`, { method: 'POST', body, headers })).status).toBe(
      200,
    );
    await until(() => refusing.forward!.counts.failed === 1, 'the refusal to be counted');

    const down = await serveForwardingTo('http://127.0.0.1:1');
    expect((await fetch(`${down.endpoint}/v1/traces`, { method: 'POST', body, headers })).status).toBe(200);
    await until(() => down.forward!.counts.failed === 1, 'the failure to be counted');
    const metrics = await (await fetch(down.metricsUrl)).text();
    expect(metrics).toContain('routescope_serve_forwarded_total{result="failed"} 1');
    expect(down.logged.some((l) => l.includes('unreachable'))).toBe(true);
  });

  it('the queue is bounded: past it requests are dropped and counted, and flush gives up at its deadline', async () => {
    const never = await startTarget('never');
    const forwarder = createForwarder(never.url, { maxQueued: 2, concurrency: 1 });
    const kept = [1, 2, 3, 4, 5].map((i) =>
      forwarder.enqueue('/v1/traces', Buffer.from(`{"n":${i}}`), { 'content-type': 'application/json' }),
    );
    // One is being sent, two wait, two are dropped.
    expect(kept).toEqual([true, true, true, false, false]);
    expect(forwarder.counts.dropped).toBe(2);
    expect(forwarder.pending).toBe(3);
    await until(() => never.received.length === 1, 'the first send to reach the target');
    await forwarder.flush(50);
    expect(forwarder.pending).toBe(0);
    expect(forwarder.counts).toEqual({ ok: 0, failed: 1, dropped: 4 });
    // After flush nothing more is taken.
    expect(forwarder.enqueue('/v1/traces', Buffer.from('{}'), {})).toBe(false);
  });
});
