/**
 * A 2xx from serve means kept: every span of an answered request is in the window and in `--out`, and a request
 * refused after it was read leaves nothing anywhere, so its corrected resend is new. `--out` on a real full
 * disk (a tmpfs) and on /dev/full answers 503 with Retry-After, says so once, and recovers by itself when the
 * disk has room again; a FIFO no one reads is refused at start, and one no one drains cannot hold a stop past
 * its deadline. Real sockets, ports 0, waits that poll with a deadline.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeStop } from '../../src/cli/commands/serve.js';
import type { RunningServe } from '../../src/serve/startServe.js';
import { cliJson } from '../cli/runCliHarness.js';
import { mountSmallDisk } from '../helpers/smallDisk.js';
import {
  protoField as field,
  routingRequests,
  withDeepPlainSpan,
  type RoutingRequest,
} from './routingRequests.js';
import { startTestServe, until, post } from './serveHarness.js';

let running: (RunningServe & { logged: string[] }) | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  for (const c of cleanups.splice(0).reverse()) c();
});

const JSON_TYPE = { 'content-type': 'application/json' };
const PROTOBUF_TYPE = { 'content-type': 'application/x-protobuf' };

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rs-serve-keeps-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The trace ids of the decisions `routescope analyze` reads from `file` (its explain of each would name them). */
async function decisionsIn(file: string): Promise<number> {
  const report = (await cliJson(['analyze', file])).json as { decisions: number };
  return report.decisions;
}

/** The span ids of the decisions in serve's window. */
function windowSpanIds(serve: RunningServe): Set<string> {
  const ids = new Set<string>();
  for (const r of serve.runtime.window.records()) if (r.kind === 'decision') ids.add(r.spanId);
  return ids;
}

describe('a request refused after it was read leaves no trace', () => {
  it('a protobuf request whose --out line cannot be made is 400, and its corrected resend is taken as new', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    running = await startTestServe({ out });
    const [request] = await routingRequests(1);
    const damaged = await post(
      `${running.endpoint}/v1/traces`,
      withDeepPlainSpan(request!, 40),
      PROTOBUF_TYPE,
    );
    expect(damaged.status).toBe(400);
    expect(damaged.body).toMatch(/cannot be written to --out/);
    const { stats, counts } = running.runtime.state;
    expect([stats.spans, stats.routingSpans, stats.duplicates, counts.decisionsReceived]).toEqual([
      0, 0, 0, 0,
    ]);
    expect(running.runtime.window.size).toBe(0);
    // The exporter's corrected resend: the same routing span, taken, not dropped as a duplicate.
    const resend = await post(`${running.endpoint}/v1/traces`, request!.protobuf, PROTOBUF_TYPE);
    expect(resend.status).toBe(200);
    expect(counts.decisionsReceived).toBe(1);
    expect(stats.duplicates).toBe(0);
    expect(windowSpanIds(running)).toEqual(new Set([request!.spanId]));
    await running.close();
    running = undefined;
    expect(await decisionsIn(out)).toBe(1);
  });

  it('a protobuf request whose OTLP/JSON would be larger than --max-body is 413 with --out, and nothing is kept', async () => {
    const dir = tempDir();
    running = await startTestServe({ out: join(dir, 'out.jsonl'), maxBody: 64 * 1024 });
    // 30,000 empty spans in 60 KB: two bytes each on the wire, about forty as OTLP/JSON.
    const empty = field(1, field(2, Buffer.alloc(60_000, Buffer.from([0x12, 0x00]))));
    const r = await post(`${running.endpoint}/v1/traces`, empty, PROTOBUF_TYPE);
    expect(r.status).toBe(413);
    expect(r.body).toMatch(/raise --max-body or send smaller batches/);
    expect(running.runtime.state.stats.spans).toBe(0);
    expect(running.runtime.state.counts.requests.accepted).toBe(0);
  });

  it('a JSON request damaged in a span that is not a routing span goes to --out as it came, and the file reads as serve read it', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    running = await startTestServe({ out });
    const [request, other] = await routingRequests(2, 2);
    // A lost closing quote inside the first plain span's name: JSON.parse of the whole body fails.
    const damaged = request!.json.replace('"name":"GET /health"', '"name":"GET /health');
    expect(() => JSON.parse(damaged) as unknown).toThrow();
    expect((await post(`${running.endpoint}/v1/traces`, damaged, JSON_TYPE)).status).toBe(200);
    // A pretty-printed body becomes one line, its line breaks white space.
    const pretty = JSON.stringify(JSON.parse(other!.json), null, 2);
    expect((await post(`${running.endpoint}/v1/traces`, pretty, JSON_TYPE)).status).toBe(200);
    expect(running.runtime.state.counts.decisionsReceived).toBe(2);
    await running.close();
    running = undefined;
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(damaged);
    expect(JSON.parse(lines[1]!)).toEqual(JSON.parse(other!.json));
    expect(await decisionsIn(out)).toBe(2);
  });
});

describe('--out on a disk that fills up', () => {
  it('a full tmpfs: 503 with Retry-After, said once, /healthz and the page say it, and it recovers by itself; every 2xx is in the file', async (ctx) => {
    const disk = mountSmallDisk(256);
    if (typeof disk === 'string') return ctx.skip(disk);
    cleanups.push(() => disk.unmount());
    // Most of the disk taken by a file the test frees later.
    const filler = join(disk.dir, 'filler');
    writeFileSync(filler, Buffer.alloc(200 * 1024, 0x20));
    const out = join(disk.dir, 'out.jsonl');
    running = await startTestServe({ out });
    const url = `${running.endpoint}/v1/traces`;
    const requests = await routingRequests(40, 8);
    const answered = new Map<string, number>();
    let refused: RoutingRequest | undefined;
    for (const request of requests) {
      const r = await post(url, request.json, JSON_TYPE);
      answered.set(request.spanId, r.status);
      if (r.status === 503) {
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.body).toMatch(/--out/);
        refused = request;
        break;
      }
      expect(r.status).toBe(200);
    }
    expect(refused, 'the disk never filled').toBeDefined();
    // Said at once, and once.
    expect(running.logged.filter((l) => /a write failed/.test(l))).toHaveLength(1);
    expect(running.logged.join('\n')).toMatch(/ENOSPC/);
    const health = await fetch(`${running.endpoint}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.text()).toMatch(/--out cannot be written/);
    expect(await (await fetch(running.pageUrl)).text()).toMatch(/writes are failing/);
    const report = (await (await fetch(`${running.pageUrl}report.json`)).json()) as {
      serve: { outFailing?: string };
    };
    expect(report.serve.outFailing).toMatch(/ENOSPC/);
    // Nothing refused was kept.
    expect(windowSpanIds(running).has(refused!.spanId)).toBe(false);
    // Room again: the exporter's retry is taken once the next try comes round.
    rmSync(filler);
    await until(async () => {
      const r = await post(url, refused!.json, JSON_TYPE);
      answered.set(refused!.spanId, r.status);
      return r.status === 200;
    }, 'serve to write again');
    expect(running.logged.join('\n')).toMatch(/writing again/);
    expect((await fetch(`${running.endpoint}/healthz`)).status).toBe(200);
    const kept = [...answered].filter(([, s]) => s === 200).map(([id]) => id);
    expect(windowSpanIds(running)).toEqual(new Set(kept));
    await running.close();
    running = undefined;
    // The file is whole lines, and holds exactly the answered requests.
    for (const line of readFileSync(out, 'utf8').trimEnd().split('\n'))
      expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(await decisionsIn(out)).toBe(kept.length);
  });

  it('/dev/full: every request is 503, nothing is kept, and the stop says the writes failed', async () => {
    running = await startTestServe({ out: '/dev/full' });
    const [request] = await routingRequests(1);
    const r = await post(`${running.endpoint}/v1/traces`, request!.json, JSON_TYPE);
    expect(r.status).toBe(503);
    expect(running.runtime.state.counts.decisionsReceived).toBe(0);
    expect(running.runtime.state.stats.spans).toBe(0);
    // Until the next try comes round, a request is refused before its body is read.
    const again = await post(`${running.endpoint}/v1/traces`, request!.json, JSON_TYPE);
    expect(again.status).toBe(503);
    const metrics = await (await fetch(running.metricsUrl)).text();
    expect(metrics).toMatch(/^routescope_serve_out_errors 1$/m);
    expect(metrics).toMatch(/^routescope_serve_out_bytes_total 0$/m);
    const serve = running;
    await serve.close();
    running = undefined;
    expect(describeStop(serve)).toMatch(/writes failed and their requests were answered 503/);
  });
});

describe('--out on a FIFO', () => {
  it('one no process reads is refused at start, with what to do', async () => {
    const fifo = join(tempDir(), 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(startTestServe({ out: fifo })).rejects.toThrow(/a FIFO that no process reads/);
  });

  it('one no process drains cannot hold a stop: the waiting request is 503, and the stop says what was not written', async () => {
    const fifo = join(tempDir(), 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    cleanups.push(() => closeSync(reader));
    running = await startTestServe({ out: fifo, outFlushMs: 300, flushTimeoutMs: 300 });
    const [request] = await routingRequests(1, 400);
    expect(request!.json.length).toBeGreaterThan(128 * 1024);
    let status = 0;
    const answered = post(`${running.endpoint}/v1/traces`, request!.json, JSON_TYPE).then(
      (r) => (status = r.status),
    );
    await until(() => running!.out!.backlog.requests === 1, 'the request to wait for the pipe');
    const serve = running;
    running = undefined;
    const started = Date.now();
    const unwritten = await serve.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    await answered;
    expect(status).toBe(503);
    expect(serve.runtime.state.counts.decisionsReceived).toBe(0);
    expect(unwritten).toMatchObject({ requests: 1, items: 401 });
    expect(describeStop(serve, unwritten)).toMatch(
      /not written 1 request \(401 spans and event lines, [\d,]+ bytes\) was still waiting for the disk at the stop: answered 503, not kept/,
    );
  });
});
