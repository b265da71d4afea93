/**
 * The shipped `routescope serve` as a user runs it (the built bundle in a child process): it prints where it
 * listens, takes what the real exporter sends, says problems on stderr at a bounded rate, and on SIGINT or
 * SIGTERM finishes, flushes `--out` and the `--forward` queue within a bounded time, says what it received,
 * kept, evicted and refused, and exits 0. Ports 0; every wait polls against a deadline.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createThrottledLog } from '../../src/cli/commands/serve.js';
import { requireBuild } from '../helpers/requireBuild.js';
import { spawnServeCli } from '../helpers/serveCli.js';
import { routingRequests } from './routingRequests.js';
import { exportDecisions, until } from './serveHarness.js';

const BIN = fileURLToPath(new URL('../../dist/bin/routescope.js', import.meta.url));

let child: ChildProcess | undefined;
const servers: Server[] = [];
afterEach(async () => {
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

interface StartedCli {
  readonly endpoint: string;
  readonly metrics: string;
  readonly page: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
}

/** Start the CLI; resolves once it printed where it listens. */
async function startCli(args: string[]): Promise<StartedCli> {
  requireBuild(BIN);
  const cli = spawnServeCli(BIN, args);
  child = cli.child;
  return { ...(await cli.listening), stdout: cli.stdout, stderr: cli.stderr };
}

function exitOf(c: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (c.exitCode !== null) resolve(c.exitCode);
    else c.once('exit', (code) => resolve(code));
  });
}

describe('routescope serve, the shipped CLI', () => {
  it('takes spans from the real exporter, serves /metrics, and Ctrl-C flushes --out, says what it took and exits 0', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rs-serve-cli-')), 'received.jsonl');
    const cli = await startCli([
      'serve',
      '--port',
      '0',
      '--ui-port',
      '0',
      '--out',
      out,
      '--max-decisions',
      '20',
    ]);
    await exportDecisions(cli.endpoint, 25, 'protobuf');
    const metrics = await (await fetch(cli.metrics)).text();
    expect(metrics).toMatch(/^routescope_serve_decisions_received_total 25$/m);
    expect(metrics).toMatch(/^routescope_serve_window_decisions 20$/m);
    expect(metrics).toMatch(/^routescope_serve_evicted_total\{kind="decision"\} 5$/m);
    const exited = exitOf(child!);
    child!.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(cli.stderr()).toMatch(/stopped: 25 routing decisions received/);
    expect(cli.stderr()).toMatch(/kept\s+20 decisions in the window; 5 evicted/);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('resourceSpans');
  });

  it('problems go to stderr at most ten lines per ten seconds; what was held back is said, at the latest on exit', async () => {
    const cli = await startCli(['serve', '--port', '0', '--ui-port', '0']);
    for (let i = 0; i < 25; i++) {
      const r = await fetch(`${cli.endpoint}/v1/traces`, {
        method: 'POST',
        body: `not json ${i}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(400);
    }
    const exited = exitOf(child!);
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    const problemLines = cli
      .stderr()
      .split('\n')
      .filter((l) => /^routescope serve: POST \/v1\/traces #\d+: the body is not JSON/.test(l));
    expect(problemLines.length).toBe(10);
    expect(cli.stderr()).toMatch(/^routescope serve: 15 more problems were not shown$/m);
    expect(cli.stderr()).toMatch(/refused\s+25 requests unreadable/);
  });

  it('SIGTERM with --forward to a target that never answers still exits 0 within the flush deadline, the rest counted', async () => {
    // A target that takes the connection and never answers.
    let reached = 0;
    const hang = createServer(() => {
      reached++;
    });
    servers.push(hang);
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    const cli = await startCli(['serve', '--port', '0', '--ui-port', '0', '--forward', target]);
    await exportDecisions(cli.endpoint, 10, 'json');
    await until(() => reached > 0, 'the target to be reached');
    const exited = exitOf(child!);
    child!.kill('SIGTERM');
    // serve waits FORWARD_FLUSH_MS (5 s) for the queue, then cuts the sends off: it does not wait for the target.
    expect(await exited).toBe(0);
    expect(cli.stderr()).toMatch(/forwarded\s+0 requests to .*; [1-9]\d* failed, \d+ dropped/);
  });
});

describe('routescope serve --out on a FIFO no one drains, the shipped CLI', () => {
  it('SIGTERM ends it within the deadlines, the waiting request is 503, and stderr says exactly what was not written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-serve-cli-fifo-'));
    const fifo = join(dir, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    // A reader that never reads: the pipe fills, and the write under it never returns.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const cli = await startCli(['serve', '--port', '0', '--ui-port', '0', '--out', fifo]);
      const [request] = await routingRequests(1, 400);
      const answered = fetch(`${cli.endpoint}/v1/traces`, {
        method: 'POST',
        body: request!.json,
        headers: { 'content-type': 'application/json' },
      }).then((r) => r.status);
      // Wait until the request's line waits for the pipe (serve's own gauge says so).
      let waiting = false;
      const poll = setInterval(() => {
        void fetch(cli.metrics)
          .then((r) => r.text())
          .then(
            (t) => (waiting ||= /^routescope_serve_out_waiting_requests 1$/m.test(t)),
            () => undefined,
          );
      }, 50);
      try {
        await until(() => waiting, 'the line to wait for the pipe');
      } finally {
        clearInterval(poll);
      }
      const exited = exitOf(child!);
      const started = Date.now();
      child!.kill('SIGTERM');
      expect(await answered).toBe(503);
      expect(await exited).toBe(0);
      // OUT_FLUSH_MS (5 s) and FORWARD_FLUSH_MS (5 s, nothing to forward here) bound it, and the exit after them.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(cli.stderr()).toMatch(
        /not written 1 request \(401 spans and event lines, [\d,]+ bytes\) was still waiting for the disk at the stop: answered 503, not kept/,
      );
      expect(cli.stderr()).toMatch(/written\s+0 requests, 0 bytes/);
    } finally {
      closeSync(reader);
    }
  });
});

describe('routescope demo --serve', () => {
  it('runs the demo agent against a serve in the same process: the page holds every decision of the demo, until Ctrl-C', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-demo-serve-'));
    const cli = await startCli(['demo', '--serve', '--port', '0', '--ui-port', '0', '--out', dir]);
    // The demo says how many requests it sent once every one was answered: only then is the window whole.
    await until(() => /sent to serve in \d+ OTLP\/HTTP requests/.test(cli.stdout()), 'the demo to be sent');
    const report = (await (await fetch(`${cli.page}report.json`)).json()) as { decisions: number };
    const analyzed = spawn(process.execPath, [BIN, 'analyze', join(dir, 'traces.jsonl'), '--format', 'json']);
    let json = '';
    analyzed.stdout.on('data', (d: Buffer) => (json += d.toString()));
    expect(await exitOf(analyzed)).toBe(0);
    const expected = (JSON.parse(json) as { decisions: number }).decisions;
    expect(expected).toBeGreaterThan(100);
    expect(report.decisions).toBe(expected);
    const page = await (await fetch(cli.page)).text();
    expect(page).toContain(`${expected} routing decisions in the window`);
    const exited = exitOf(child!);
    child!.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('the plain demo (npm start) finishes by itself and says how to see it live', async () => {
    requireBuild(BIN);
    const dir = mkdtempSync(join(tmpdir(), 'rs-demo-'));
    const demo = spawn(process.execPath, [BIN, 'demo', '--out', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    demo.stdout.on('data', (d: Buffer) => (out += d.toString()));
    expect(await exitOf(demo)).toBe(0);
    expect(out).toMatch(/routescope demo --serve\s+# the same demo on the live page/);
  });
});

describe('createThrottledLog', () => {
  it('lets ten lines through per window, counts the rest, and says them when the next window opens or on flush', () => {
    const written: string[] = [];
    let t = 0;
    const log = createThrottledLog(
      (l) => written.push(l),
      10,
      10_000,
      () => t,
    );
    for (let i = 0; i < 13; i++) log(`p${i}`);
    expect(written).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`));
    t = 10_000;
    log('next');
    expect(written.slice(10)).toEqual(['3 more problems were not shown', 'next']);
    log.flush();
    expect(written.length).toBe(12);
    t = 20_000;
    for (let i = 0; i < 10; i++) log(`q${i}`);
    log('held');
    log.flush();
    expect(written.at(-1)).toBe('1 more problem was not shown');
  });
});
