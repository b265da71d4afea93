/**
 * serve's memory and time are bounded by its settings, not by what senders choose: ids of megabytes are stored
 * cut (marked, counted, shown), the window never holds more bytes than `--max-window-mb`, a conversation of
 * hundreds of decisions is explained a page at a time, the window is replayed for a page a slice at a time
 * (the same view as at once), and event streams that never read cannot lock a real page out. Real sockets,
 * ports 0, waits that poll with a deadline.
 */
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWindowExplain } from '../../src/serve/serveExplain.js';
import { buildWindowView, replayWindowView } from '../../src/serve/serveReport.js';
import { MAX_EVENT_STREAMS } from '../../src/serve/livePage.js';
import type { Slicer } from '../../src/serve/sliceWork.js';
import type { RunningServe } from '../../src/serve/startServe.js';
import { turnRoutedEvent } from '../helpers/turnRoutedEvents.js';
import { routingRequests } from './routingRequests.js';
import { exportDecisions, startTestServe } from './serveHarness.js';

let running: (RunningServe & { logged: string[] }) | undefined;
const sockets: ReturnType<typeof connect>[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await running?.close();
  running = undefined;
});

/** `count` turn_routed events of one conversation, each its own turn. */
function conversationLog(sessionId: string, count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(
      JSON.stringify(
        turnRoutedEvent({}, { sessionId, runId: `run-${i}`, wallClockMs: 1796283797308 + i * 1000 }),
      ),
    );
  return `${lines.join('\n')}\n`;
}

describe('what senders choose does not size the window', () => {
  it('a conversation id of 12 MiB in each of 20 gzip requests is stored cut: the window stays small, the cut is shown', async () => {
    running = await startTestServe();
    const [request] = await routingRequests(1);
    const huge = 'c'.repeat(12 * 1024 * 1024);
    const requests = Array.from({ length: 20 }, (_, i) => {
      const body = request!.json
        .replace(/"conv-\d+"/, `"${huge}${i}"`)
        .replace(request!.spanId, (i + 1).toString(16).padStart(16, '0'));
      return gzipSync(body);
    });
    expect(requests[0]!.length).toBeLessThan(64 * 1024);
    for (const body of requests) {
      const r = await fetch(`${running.endpoint}/v1/traces`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expect(r.status).toBe(200);
    }
    const window = running.runtime.window;
    expect(window.decisions).toBe(20);
    expect(window.stringsCut).toBe(20);
    // 20 decisions of a few hundred bytes each, not 240 MiB.
    expect(window.liveBytes).toBeLessThan(256 * 1024);
    const ids = new Set<string>();
    for (const r of window.records()) if (r.kind === 'decision') ids.add(r.conversationId!);
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(1024);
    const metrics = await (await fetch(running.metricsUrl)).text();
    expect(metrics).toMatch(/^routescope_serve_strings_cut_total 20$/m);
    const page = await (await fetch(running.pageUrl)).text();
    expect(page).toMatch(/20 ids, names or values longer than 1,024 characters were stored cut/);
    const report = (await (await fetch(`${running.pageUrl}report.json`)).json()) as {
      serve: { window: { stringsCut: number; liveBytes: number; maxBytes: number } };
    };
    expect(report.serve.window.stringsCut).toBe(20);
    expect(report.serve.window.maxBytes).toBe(64 * 1024 * 1024);
  });

  it('--max-window-mb bounds the bytes held whatever the count: the oldest go, counted on /metrics', async () => {
    running = await startTestServe({ maxWindowBytes: 64 * 1024, maxString: 8192 });
    const [request] = await routingRequests(1);
    for (let i = 0; i < 60; i++) {
      const body = request!.json
        .replace(/"conv-\d+"/, `"${String(i).padStart(4, '0')}${'w'.repeat(6000)}"`)
        .replace(request!.spanId, (i + 1).toString(16).padStart(16, '0'));
      const r = await fetch(`${running.endpoint}/v1/traces`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(200);
      expect(running.runtime.window.liveBytes).toBeLessThanOrEqual(64 * 1024);
    }
    const window = running.runtime.window;
    expect(window.evicted.forBytes).toBeGreaterThan(0);
    expect(window.decisions + window.evicted.decisions).toBe(60);
    expect(running.runtime.state.counts.decisionsReceived).toBe(60);
    const metrics = await (await fetch(running.metricsUrl)).text();
    expect(metrics).toMatch(
      new RegExp(`^routescope_serve_evicted_over_bytes_total ${window.evicted.forBytes}$`, 'm'),
    );
    expect(metrics).toMatch(/^routescope_serve_window_max_bytes 65536$/m);
  });
});

describe('pages are bounded in size and time', () => {
  it('a conversation of 250 turns (a decision and a turn route each) is explained 100 records a page, with links between the pages', async () => {
    running = await startTestServe();
    const r = await fetch(`${running.endpoint}/agentfootprint/events`, {
      method: 'POST',
      body: conversationLog('long-conversation', 250),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(r.status).toBe(200);
    expect(running.runtime.state.counts.decisionsReceived).toBe(250);
    const json = (await (await fetch(`${running.pageUrl}explain/long-conversation.json?page=2`)).json()) as {
      decisions: number;
      entries: unknown[];
      page: { number: number; pages: number; entries: number };
    };
    expect(json.page).toMatchObject({ number: 2, pages: 5, entries: 500 });
    expect(json.entries).toHaveLength(100);
    expect(json.decisions).toBe(250);
    const third = await (await fetch(`${running.pageUrl}explain/long-conversation?page=3`)).text();
    expect(third).toMatch(/Page 3 of 5: records 201–300 of 500\./);
    expect(third).toMatch(/href="\/explain\/long-conversation\?page=2"/);
    expect(third).toMatch(/href="\/explain\/long-conversation\?page=4"/);
    // Past the last page: the last page.
    const past = (await (await fetch(`${running.pageUrl}explain/long-conversation.json?page=99`)).json()) as {
      page: { number: number };
    };
    expect(past.page.number).toBe(5);
    // One page is a fraction of the whole.
    const first = await (await fetch(`${running.pageUrl}explain/long-conversation`)).text();
    expect(first.length).toBeLessThan(third.length * 3);
  });

  it('an event log of a few MiB, read in 256 KiB slices, loses no line cut between two slices', async () => {
    running = await startTestServe();
    const log = conversationLog('sliced', 6000);
    expect(log.length).toBeGreaterThan(4 * 256 * 1024);
    const r = await fetch(`${running.endpoint}/agentfootprint/events`, {
      method: 'POST',
      body: log,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ rejectedLines: 0 });
    expect(running.runtime.state.counts.decisionsReceived).toBe(6000);
    expect(running.runtime.state.stats.problems).toEqual([]);
  });

  it('the view merged from the window slices equals the window replayed a slice at a time, and arrivals meanwhile wait', async () => {
    running = await startTestServe({ maxDecisions: 250 });
    await exportDecisions(running.endpoint, 300, 'json');
    const state = running.runtime.state;
    // 300 decisions through a window of 250: the oldest slice is partly evicted and replayed.
    expect(state.window.evicted.decisions).toBe(50);
    const merged = buildWindowView(state);
    let pauses = 0;
    let added = false;
    const slicer: Slicer = {
      pause() {
        pauses++;
        return new Promise<void>((resolve) =>
          setImmediate(() => {
            if (!added) {
              added = true;
              void exportDecisions(running!.endpoint, 3, 'json', 'later');
            }
            resolve();
          }),
        );
      },
    };
    const replayed = await replayWindowView(state, slicer);
    expect(pauses).toBeGreaterThan(100);
    expect(merged.view.summary.decisions).toBe(250);
    // The receiver's own counts (requests, read stats) are read when each view ends: the later request shows.
    const { input: mergedInput, ...mergedAnalyses } = merged.view;
    const { input: replayedInput, ...replayedAnalyses } = replayed.view;
    expect(mergedAnalyses).toEqual(replayedAnalyses);
    expect(mergedInput!.records).toEqual(replayedInput!.records);
    expect(merged.index).toEqual(replayed.index);
    const explainedAtOnce = await buildWindowExplain(state, [...state.window.records()][0]!.traceId);
    expect(explainedAtOnce.records).toBe(1);
    expect(explainedAtOnce.analysis.finish().decisions).toBe(1);
  });

  it('event streams that never read cannot lock a real page out: the newest takes the oldest one’s place', async () => {
    running = await startTestServe();
    const url = new URL(running.pageUrl);
    const idle = async (): Promise<void> => {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
          resolve();
        });
        socket.pause();
        sockets.push(socket);
      });
    };
    for (let i = 0; i < MAX_EVENT_STREAMS + 10; i++) await idle();
    const controller = new AbortController();
    const response = await fetch(`${running.pageUrl}events`, { signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/event: revision/);
    controller.abort();
  });
});
