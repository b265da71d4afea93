/**
 * The receiver against what really reaches it: the real OTLP/HTTP exporters (JSON and protobuf), and requests
 * no exporter would send — garbage, wrong types, oversize bodies, a gzip bomb, a slow client, a missing token.
 * Every answer is checked for its status and for what the page and /metrics then say.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { cliJson } from '../cli/runCliHarness.js';
import { exportDecisions, startTestServe, until, post } from './serveHarness.js';
import { routingRequests } from './routingRequests.js';

const SHARED = join(import.meta.dirname, '../../../shared');
import type { RunningServe } from '../../src/serve/startServe.js';
import { createOtlpReceiver } from '../../src/serve/otlpReceiver.js';
import { createServeRuntime } from '../../src/serve/serveRuntime.js';

let running: (RunningServe & { logged: string[] }) | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function metrics(serve: RunningServe): Promise<string> {
  return (await fetch(serve.metricsUrl)).text();
}

/** The sum of the routing decision series whose labels match `labels` (a regular expression source). */
function decisionsWhere(text: string, labels: string): number {
  return [...text.matchAll(/^agentfootprint_routing_decisions_total\{([^}]*)\} (\d+)$/gm)]
    .filter((m) => new RegExp(labels).test(m[1]!))
    .reduce((sum, m) => sum + Number(m[2]), 0);
}

/**
 * A POST to /v1/traces that declares `contentLength` bytes and sends one: everything the server answers before
 * it closes the connection.
 */
function sendUnfinishedRequest(endpoint: string, contentLength: number): Promise<string> {
  const url = new URL(endpoint);
  return new Promise<string>((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n{`,
      );
    });
    let got = '';
    socket.on('data', (d) => (got += d.toString()));
    socket.on('close', () => resolve(got));
    socket.on('error', () => resolve(got));
  });
}

describe('the real exporters', () => {
  it.each(['json', 'protobuf'] as const)(
    '%s: every routing span arrives and is counted once',
    async (encoding) => {
      running = await startTestServe();
      const file = join(mkdtempSync(join(tmpdir(), 'rs-serve-')), 'same-spans.jsonl');
      const kinds = await exportDecisions(running.endpoint, 150, encoding, 'serve-test', file);
      expect(running.runtime.state.counts.decisionsReceived).toBe(150);
      expect(running.runtime.window.decisions).toBe(150);
      expect(running.runtime.state.counts.requests.invalid).toBe(0);
      // routescope analyze on the very spans the exporter sent, written beside it by a second processor.
      const analyzed = await cliJson(['analyze', file]);
      const report = analyzed.json as {
        decisions: number;
        verdicts: Record<string, number>;
        nearTies: number;
      };
      expect(report.decisions).toBe(150);
      const text = await metrics(running);
      expect(decisionsWhere(text, 'service_name="serve-test"')).toBe(report.decisions);
      for (const kind of ['move', 'stay', 'menu', 'unmatched']) {
        expect(decisionsWhere(text, `verdict="${kind}"`)).toBe(report.verdicts[kind] ?? 0);
        expect(report.verdicts[kind] ?? 0).toBe(kinds.filter((k) => k === kind).length);
      }
      expect(decisionsWhere(text, 'near_tie="true"')).toBe(report.nearTies);
      expect(report.nearTies).toBe(50);
      // The JSON requests went through the fast path, indexed by the WebAssembly SIMD scanner, and the page's
      // report says so; protobuf has no lines to scan.
      const page = (await (await fetch(`${running.pageUrl}report.json`)).json()) as {
        input: { scan: { path: string; simdLines: number; javascriptLines: number } };
      };
      const requests = running.runtime.state.counts.requests.accepted;
      expect(page.input.scan).toMatchObject(
        encoding === 'json'
          ? { path: 'simd', simdLines: requests, javascriptLines: 0 }
          : { path: 'none', simdLines: 0, javascriptLines: 0 },
      );
      // The live page's input section says it too (a row only where a scanner indexed a request).
      const html = await (await fetch(running.pageUrl)).text();
      const row = /<th>scanned<\/th><td>([^<]*)<\/td>/.exec(html)?.[1];
      expect(row).toBe(encoding === 'json' ? `WebAssembly SIMD scanner, ${requests} requests` : undefined);
    },
  );

  it('a retried request (the same spans twice) counts once', async () => {
    running = await startTestServe();
    const out = join(mkdtempSync(join(tmpdir(), 'rs-serve-')), 'once.jsonl');
    await running.close();
    running = await startTestServe({ out });
    await exportDecisions(running.endpoint, 10, 'json');
    await running.close();
    const line = readFileSync(out, 'utf8').split('\n')[0]!;
    running = await startTestServe();
    for (let i = 0; i < 2; i++)
      expect(
        (await post(`${running.endpoint}/v1/traces`, line, { 'content-type': 'application/json' })).status,
      ).toBe(200);
    expect(running.runtime.state.counts.requests.accepted).toBe(2);
    expect(running.runtime.state.stats.duplicates).toBeGreaterThan(0);
    expect(running.runtime.window.decisions).toBe(running.runtime.state.counts.decisionsReceived);
    expect(running.runtime.window.decisions).toBeLessThanOrEqual(10);
  });
});

describe('--out', () => {
  it('protobuf and JSON requests are both written as OTLP/JSON lines, and analyze of the file gives the report of the same spans', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-serve-'));
    const out = join(dir, 'received.jsonl');
    const same = join(dir, 'same-spans.jsonl');
    running = await startTestServe({ out });
    await exportDecisions(running.endpoint, 40, 'protobuf', 'proto-service', same);
    await exportDecisions(running.endpoint, 30, 'json', 'json-service', same);
    await running.close();
    running = undefined;
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    for (const l of lines) expect(() => JSON.parse(l) as unknown).not.toThrow();
    const stats = createReadStats();
    const services = new Map<string, number>();
    for await (const r of readTraceInputs([out], stats))
      if (r.kind === 'decision') services.set(r.service ?? '', (services.get(r.service ?? '') ?? 0) + 1);
    expect(Object.fromEntries(services)).toEqual({ 'proto-service': 40, 'json-service': 30 });
    expect(stats.problems).toEqual([]);
    // The whole analyze report, but for what names the file it read.
    const fromOut = (await cliJson(['analyze', out])).json;
    const fromSame = (await cliJson(['analyze', same])).json;
    const { input: inputOut, ...reportOut } = fromOut;
    const { input: inputSame, ...reportSame } = fromSame;
    expect(reportOut).toEqual(reportSame);
    expect(reportOut['decisions']).toBe(70);
    // What was read agrees too, but for the lines: one a request in --out, one a span in the other file.
    for (const key of [
      'spans',
      'routingSpans',
      'turnSpans',
      'nonRoutingSpans',
      'duplicates',
      'records',
      'problems',
    ])
      expect((inputOut as Record<string, unknown>)[key], key).toEqual(
        (inputSame as Record<string, unknown>)[key],
      );
    expect((inputOut as { problems: number }).problems).toBe(0);
  });
});

describe('requests no exporter sends', () => {
  it('a file of JSON lines posted whole is a 400 that says one request per body and names analyze; an event log is sent to its route', async () => {
    running = await startTestServe();
    const requests = await routingRequests(3);
    const file = requests.map((r) => r.json).join('\n');
    const r = await post(`${running.endpoint}/v1/traces`, `${file}\n`, {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(400);
    expect((JSON.parse(r.body) as { message: string }).message).toBe(
      'the body is 3 lines of JSON, and /v1/traces takes one OTLP request per body (as an exporter sends them); for a file of requests use routescope analyze FILE, or post its lines one at a time',
    );
    const events = readFileSync(join(SHARED, 'fixtures/agentfootprint/turn_routed.jsonl'), 'utf8');
    const e = await post(`${running.endpoint}/v1/traces`, events, { 'content-type': 'application/json' });
    expect(e.status).toBe(400);
    expect((JSON.parse(e.body) as { message: string }).message).toMatch(
      /^the body is \d+ lines of agentfootprint events: post an event log to \/agentfootprint\/events/,
    );
    // Nothing of either was kept; each line alone is a request the receiver takes.
    expect(running.runtime.window.decisions).toBe(0);
    for (const one of requests)
      expect(
        (await post(`${running.endpoint}/v1/traces`, one.json, { 'content-type': 'application/json' }))
          .status,
      ).toBe(200);
    expect(running.runtime.window.decisions).toBe(3);
  });

  it('garbage JSON is a 400 with a Status saying why, and the page counts it as invalid', async () => {
    running = await startTestServe();
    const r = await post(`${running.endpoint}/v1/traces`, '{"resourceSpans": [', {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(400);
    expect((JSON.parse(r.body) as { message: string }).message).toMatch(/not JSON/);
    const p = await post(`${running.endpoint}/v1/traces`, Buffer.from([0x0a, 0xff, 0xff]), {
      'content-type': 'application/x-protobuf',
    });
    expect(p.status).toBe(400);
    expect(running.runtime.state.counts.requests.invalid).toBe(2);
    expect(running.logged.length).toBe(2);
  });

  it('a content type it does not read is 415; an unknown path 404; GET 405', async () => {
    running = await startTestServe();
    expect((await post(`${running.endpoint}/v1/traces`, 'x', { 'content-type': 'text/xml' })).status).toBe(
      415,
    );
    expect(
      (await post(`${running.endpoint}/v2/traces`, '{}', { 'content-type': 'application/json' })).status,
    ).toBe(404);
    const get = await fetch(`${running.endpoint}/v1/traces`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('metrics and logs are taken and counted as ignored', async () => {
    running = await startTestServe();
    const r = await post(`${running.endpoint}/v1/metrics`, '{}', { 'content-type': 'application/json' });
    expect(r.status).toBe(200);
    expect(running.runtime.state.counts.requests.ignored).toBe(1);
  });

  it('a body over --max-body is 413, on the wire and once gunzipped (a gzip bomb)', async () => {
    running = await startTestServe({ maxBody: 64 * 1024 });
    const big = Buffer.alloc(100 * 1024, 0x20);
    expect(
      (await post(`${running.endpoint}/v1/traces`, big, { 'content-type': 'application/json' })).status,
    ).toBe(413);
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const r = await post(`${running.endpoint}/v1/traces`, bomb, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(r.status).toBe(413);
    expect(r.body).toMatch(/once decompressed/);
    expect(running.runtime.state.counts.requests.refused).toBe(2);
  });

  it('gzip bodies are read; an unknown encoding is 415', async () => {
    running = await startTestServe();
    const body = gzipSync(Buffer.from('{"resourceSpans":[]}'));
    expect(
      (
        await post(`${running.endpoint}/v1/traces`, body, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post(`${running.endpoint}/v1/traces`, 'x', {
          'content-type': 'application/json',
          'content-encoding': 'br',
        })
      ).status,
    ).toBe(415);
  });

  it('past the requests being processed it answers 429 with Retry-After, and takes the next one after', async () => {
    // The one slot is held by a request whose --out line waits for a pipe nobody reads yet.
    const dir = mkdtempSync(join(tmpdir(), 'rs-serve-slot-'));
    const fifo = join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      running = await startTestServe({ maxInFlight: 1, out: fifo });
      const big = JSON.stringify({ resourceSpans: [], pad: 'x'.repeat(200_000) });
      let first = 0;
      const held = post(`${running.endpoint}/v1/traces`, big, { 'content-type': 'application/json' }).then(
        (r) => (first = r.status),
      );
      await until(() => running!.out!.backlog.requests === 1, 'the first request to wait for the pipe');
      const busy = await post(`${running.endpoint}/v1/traces`, '{"resourceSpans":[]}', {
        'content-type': 'application/json',
      });
      expect(busy.status).toBe(429);
      expect(busy.headers.get('retry-after')).toBe('1');
      const chunk = Buffer.alloc(65536);
      await until(() => {
        try {
          while (readSync(reader, chunk) > 0);
        } catch {
          // EAGAIN: nothing to read right now.
        }
        return first !== 0;
      }, 'the first request to be answered');
      await held;
      expect(first).toBe(200);
      const next = post(`${running.endpoint}/v1/traces`, '{"resourceSpans":[]}', {
        'content-type': 'application/json',
      });
      await until(() => {
        try {
          while (readSync(reader, chunk) > 0);
        } catch {
          // EAGAIN
        }
        return running!.runtime.state.counts.requests.accepted === 2;
      }, 'the next request to be taken');
      expect((await next).status).toBe(200);
      const closing = running.close();
      await until(() => {
        try {
          while (readSync(reader, chunk) > 0);
        } catch {
          // EAGAIN
        }
        return running!.inFlight === 0;
      }, 'serve to stop');
      await closing;
      running = undefined;
    } finally {
      closeSync(reader);
    }
  });

  it('forty senders trickling their bodies hold no slot: the real exporter is answered 200 meanwhile, and they get 408', async () => {
    running = await startTestServe({ maxInFlight: 4, bodyRate: { graceMs: 400 } });
    const url = new URL(running.endpoint);
    const answers: Promise<string>[] = [];
    const sockets: ReturnType<typeof connect>[] = [];
    for (let i = 0; i < 40; i++)
      answers.push(
        new Promise<string>((resolve) => {
          const socket = connect(Number(url.port), url.hostname, () => {
            socket.write(
              'POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
            );
          });
          sockets.push(socket);
          let got = '';
          socket.on('data', (d) => (got += d.toString()));
          socket.on('close', () => resolve(got));
          socket.on('error', () => resolve(got));
        }),
      );
    await until(() => running!.inFlight === 40, 'the forty to be read');
    const kinds = await exportDecisions(running.endpoint, 30, 'json');
    expect(kinds).toHaveLength(30);
    expect(running.runtime.state.counts.decisionsReceived).toBe(30);
    for (const got of await Promise.all(answers)) expect(got).toMatch(/^HTTP\/1\.1 408/);
    // Refused: the forty, with 408; never the exporter (a 429 would count here too).
    expect(running.runtime.state.counts.requests.refused).toBe(40);
    for (const socket of sockets) socket.destroy();
  });

  it('nothing already kept is lost to garbage, a wrong type, an oversize body, a gzip bomb or a slow client', async () => {
    running = await startTestServe({ maxBody: 256 * 1024, requestTimeoutMs: 500, headersTimeoutMs: 400 });
    await exportDecisions(running.endpoint, 20, 'json');
    const kept = (): number => running!.runtime.window.decisions;
    expect(kept()).toBe(20);
    const url = `${running.endpoint}/v1/traces`;
    const json = { 'content-type': 'application/json' };
    expect((await post(url, '{"resourceSpans": [', json)).status).toBe(400);
    expect(
      (await post(url, Buffer.from([0x0a, 0xff]), { 'content-type': 'application/x-protobuf' })).status,
    ).toBe(400);
    expect((await post(url, '{}', { 'content-type': 'text/csv' })).status).toBe(415);
    expect((await post(url, Buffer.alloc(300 * 1024, 0x20), json)).status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect((await post(url, bomb, { ...json, 'content-encoding': 'gzip' })).status).toBe(413);
    const slow = await sendUnfinishedRequest(running.endpoint, 80);
    expect(slow).toMatch(/^HTTP\/1\.1 408/);
    expect(kept()).toBe(20);
    expect(decisionsWhere(await metrics(running), 'service_name="serve-test"')).toBe(20);
    // And serve still takes what comes next.
    await exportDecisions(running.endpoint, 5, 'protobuf');
    expect(kept()).toBe(25);
  });

  it('while serve is stopping a request is 503 with Retry-After, and the one in flight is finished with 200', async () => {
    // The receiver behind a server the test keeps listening, so a request can still arrive after drain().
    const runtime = createServeRuntime({ endpoint: 'http://127.0.0.1' });
    const receiver = createOtlpReceiver({ runtime, log: () => undefined, metrics: () => '' });
    const server = createServer(receiver.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
      const body = '{"resourceSpans":[]}';
      const inFlight = request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
      const answered = new Promise<number>((resolve, reject) => {
        inFlight.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        inFlight.on('error', reject);
      });
      inFlight.write(body.slice(0, 5));
      await until(() => receiver.inFlight === 1, 'the request to be in flight');
      let drained = false;
      const draining = receiver.drain().then(() => (drained = true));
      const late = await post(url, body, { 'content-type': 'application/json' });
      expect(late.status).toBe(503);
      expect(late.headers.get('retry-after')).toBe('1');
      expect((JSON.parse(late.body) as { message: string }).message).toMatch(/shutting down/);
      expect(drained).toBe(false);
      inFlight.end(body.slice(5));
      expect(await answered).toBe(200);
      await draining;
      expect(runtime.state.counts.requests).toMatchObject({ accepted: 1, refused: 1 });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('while --out is writing behind (a reader that never reads), the waiting request is not answered, others are 503 with Retry-After, and all are taken once it drains', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-serve-fifo-'));
    const fifo = join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    // Open the reading end first (without waiting for a writer), and read nothing: the pipe fills.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      running = await startTestServe({ out: fifo, outHighWater: 1024 });
      // One request whose line is larger than the pipe holds (64 KiB): it waits for the disk, unanswered.
      const big = JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [] },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: '0af7651916cd43dd8448eb211c80319c',
                    spanId: 'b7ad6b7169203331',
                    name: 'plain',
                    attributes: [{ key: 'big', value: { stringValue: 'x'.repeat(200_000) } }],
                  },
                ],
              },
            ],
          },
        ],
      });
      let bigStatus = 0;
      const bigAnswered = post(`${running.endpoint}/v1/traces`, big, {
        'content-type': 'application/json',
      }).then((r) => (bigStatus = r.status));
      await until(() => running!.out!.backedUp, '--out to back up');
      const r = await post(`${running.endpoint}/v1/traces`, '{"resourceSpans":[]}', {
        'content-type': 'application/json',
      });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect((JSON.parse(r.body) as { message: string }).message).toMatch(/--out is writing behind/);
      // Not answered while its line is not in the file, and not counted either.
      expect(bigStatus).toBe(0);
      expect(running.runtime.state.counts.requests.accepted).toBe(0);
      // Drain the pipe: the waiting request is answered 200, and the receiver takes requests again.
      const chunk = Buffer.alloc(65536);
      let read = 0;
      await until(() => {
        try {
          for (let n; (n = readSync(reader, chunk)) > 0;) read += n;
        } catch {
          // EAGAIN: nothing to read right now.
        }
        return bigStatus !== 0;
      }, '--out to drain');
      await bigAnswered;
      expect(bigStatus).toBe(200);
      expect(read).toBe(Buffer.byteLength(big) + 1);
      const again = await post(`${running.endpoint}/v1/traces`, '{"resourceSpans":[]}', {
        'content-type': 'application/json',
      });
      expect(again.status).toBe(200);
      // Stop, reading what is still written until serve has closed the file.
      let closed = false;
      const closing = running.close().then(() => (closed = true));
      await until(() => {
        try {
          while (readSync(reader, chunk) > 0);
        } catch {
          // EAGAIN
        }
        return closed;
      }, 'serve to close --out and stop');
      await closing;
      running = undefined;
    } finally {
      closeSync(reader);
    }
  });

  it('a client that never finishes its request is cut off (408), not waited for', async () => {
    running = await startTestServe({ requestTimeoutMs: 500, headersTimeoutMs: 400 });
    const answer = await sendUnfinishedRequest(running.endpoint, 50);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('with --token a request without it is 401; beyond loopback serve refuses to start without one', async () => {
    running = await startTestServe({ token: 's3cret' });
    const none = await post(`${running.endpoint}/v1/traces`, '{}', { 'content-type': 'application/json' });
    expect(none.status).toBe(401);
    const ok = await post(`${running.endpoint}/v1/traces`, '{"resourceSpans":[]}', {
      'content-type': 'application/json',
      authorization: 'Bearer s3cret',
    });
    expect(ok.status).toBe(200);
    expect((await fetch(running.metricsUrl)).status).toBe(401);
    expect((await fetch(running.metricsUrl, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(
      200,
    );
    await expect(startTestServe({ host: '0.0.0.0' })).rejects.toThrow(/--token/);
  });

  it('a port in use is a clear start error', async () => {
    running = await startTestServe();
    const port = Number(new URL(running.endpoint).port);
    await expect(startTestServe({ port })).rejects.toThrow(/is in use/);
  });
});

describe('event logs', () => {
  it('the framework event log POSTed as JSON lines is read like the CLI reads the file', async () => {
    running = await startTestServe();
    const log = readFileSync(
      new URL('../../../shared/fixtures/agentfootprint/turn_routed.jsonl', import.meta.url),
    );
    const r = await post(`${running.endpoint}/agentfootprint/events`, log, {
      'content-type': 'application/x-ndjson',
    });
    expect(r.status).toBe(200);
    const stats = createReadStats();
    let decisions = 0;
    for await (const rec of readTraceInputs(
      [new URL('../../../shared/fixtures/agentfootprint/turn_routed.jsonl', import.meta.url).pathname],
      stats,
    ))
      if (rec.kind === 'decision') decisions++;
    expect(decisions).toBeGreaterThan(0);
    expect(running.runtime.state.counts.decisionsReceived).toBe(decisions);
  });
});
