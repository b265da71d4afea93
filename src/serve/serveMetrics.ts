/**
 * serveMetrics — `/metrics`: the routing series (routingSeries) and serve's own, in one exposition.
 *
 * Serve's own series say what the receiver did, so a scrape shows whether it keeps up: requests by outcome,
 * spans (and event lines) received and rejected, decisions received, the window and what it evicted, bytes
 * taken, forwards by result, and `--out` bytes written and write errors. All counters are cumulative since
 * start; the window's size and the forward queue are gauges. Pure. No I/O.
 */
import type { Forwarder } from './forwardRequests.js';
import type { OutFile } from './outFile.js';
import type { ServeRuntime } from './serveRuntime.js';

/** The process's own figures, read by the caller (process.memoryUsage, process.cpuUsage). */
export interface ProcessFigures {
  readonly residentBytes: number;
  readonly heapUsedBytes: number;
  readonly heapTotalBytes: number;
  readonly externalBytes: number;
  readonly cpuSeconds: number;
  /** The longest the event loop was held (a timer late) since the previous scrape, and the 99th percentile, in seconds. */
  readonly eventLoopDelayMaxSeconds?: number;
  readonly eventLoopDelayP99Seconds?: number;
}

/** The whole `/metrics` body. */
export function renderServeMetrics(
  runtime: ServeRuntime,
  out?: OutFile,
  forward?: Forwarder,
  proc?: ProcessFigures,
): string {
  const { counts, window } = { counts: runtime.state.counts, window: runtime.window };
  const lines: string[] = [];
  const family = (
    name: string,
    type: 'counter' | 'gauge',
    help: string,
    samples: [string, number][],
  ): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  };
  family('routescope_serve_requests_total', 'counter', 'Requests answered, by outcome.', [
    ['{outcome="accepted"}', counts.requests.accepted],
    ['{outcome="invalid"}', counts.requests.invalid],
    ['{outcome="refused"}', counts.requests.refused],
    ['{outcome="ignored"}', counts.requests.ignored],
  ]);
  family(
    'routescope_serve_spans_received_total',
    'counter',
    'Spans (and event-log lines) in accepted requests.',
    [['', counts.items]],
  );
  family(
    'routescope_serve_spans_rejected_total',
    'counter',
    'Spans (and event-log lines) that could not be read, told back as partial success.',
    [['', counts.rejectedItems]],
  );
  family('routescope_serve_decisions_received_total', 'counter', 'Routing decisions received.', [
    ['', counts.decisionsReceived],
  ]);
  family('routescope_serve_received_bytes_total', 'counter', 'Bytes of accepted bodies, as sent.', [
    ['', counts.wireBytes],
  ]);
  family('routescope_serve_window_decisions', 'gauge', 'Decisions the window holds now.', [
    ['', window.decisions],
  ]);
  family('routescope_serve_window_bytes', 'gauge', 'Bytes the window holds its records in (packed).', [
    ['', window.bytes],
  ]);
  family('routescope_serve_window_max_decisions', 'gauge', 'The window limit (--max-decisions).', [
    ['', window.config.maxDecisions],
  ]);
  family(
    'routescope_serve_window_live_bytes',
    'gauge',
    'Bytes the records held take, packed, with their shared strings (what --max-window-mb bounds).',
    [['', window.liveBytes]],
  );
  family('routescope_serve_window_max_bytes', 'gauge', 'The window byte limit (--max-window-mb).', [
    ['', window.config.maxBytes],
  ]);
  family('routescope_serve_evicted_total', 'counter', 'Records evicted from the window, oldest first.', [
    ['{kind="decision"}', window.evicted.decisions],
    ['{kind="turn"}', window.evicted.turns],
    ['{kind="misroute"}', window.evicted.misroutes],
  ]);
  family(
    'routescope_serve_evicted_over_bytes_total',
    'counter',
    'Of the records evicted, those evicted because the window was over --max-window-mb.',
    [['', window.evicted.forBytes]],
  );
  family(
    'routescope_serve_strings_cut_total',
    'counter',
    'Strings stored cut because they were longer than --max-string.',
    [['', window.stringsCut]],
  );
  if (forward !== undefined) {
    family('routescope_serve_forwarded_total', 'counter', 'Requests handed to --forward, by result.', [
      ['{result="ok"}', forward.counts.ok],
      ['{result="failed"}', forward.counts.failed],
      ['{result="dropped"}', forward.counts.dropped],
    ]);
    family('routescope_serve_forward_pending', 'gauge', 'Requests queued for --forward or being sent.', [
      ['', forward.pending],
    ]);
  }
  if (out !== undefined) {
    family('routescope_serve_out_bytes_total', 'counter', 'Bytes written whole to --out.', [
      ['', out.written.bytes],
    ]);
    family(
      'routescope_serve_out_errors',
      'gauge',
      '1 while writes to --out fail (requests are answered 503; see stderr), else 0.',
      [['', out.failing === undefined ? 0 : 1]],
    );
    family('routescope_serve_out_write_errors_total', 'counter', 'Writes to --out that failed.', [
      ['', out.errors],
    ]);
    family(
      'routescope_serve_out_waiting_requests',
      'gauge',
      'Requests whose --out line waits for the disk (they are answered once it is written).',
      [['', out.backlog.requests]],
    );
    family('routescope_serve_out_waiting_bytes', 'gauge', 'Bytes of those lines.', [['', out.backlog.bytes]]);
  }
  if (proc !== undefined) {
    // The names Prometheus' own client libraries give these, so existing process dashboards read them.
    family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [
      ['', proc.residentBytes],
    ]);
    family('process_cpu_seconds_total', 'counter', 'User and system CPU time spent in seconds.', [
      ['', proc.cpuSeconds],
    ]);
    family('nodejs_heap_size_used_bytes', 'gauge', 'V8 heap in use, in bytes.', [['', proc.heapUsedBytes]]);
    family('nodejs_heap_size_total_bytes', 'gauge', 'V8 heap reserved, in bytes.', [
      ['', proc.heapTotalBytes],
    ]);
    family('nodejs_external_memory_bytes', 'gauge', 'Memory outside the V8 heap (buffers), in bytes.', [
      ['', proc.externalBytes],
    ]);
    if (proc.eventLoopDelayMaxSeconds !== undefined) {
      family(
        'nodejs_eventloop_lag_max_seconds',
        'gauge',
        'The longest event loop delay since the previous scrape, in seconds.',
        [['', proc.eventLoopDelayMaxSeconds]],
      );
      family(
        'nodejs_eventloop_lag_p99_seconds',
        'gauge',
        'The 99th percentile of event loop delay since the previous scrape, in seconds.',
        [['', proc.eventLoopDelayP99Seconds ?? 0]],
      );
    }
  }
  return runtime.series.render() + `${lines.join('\n')}\n`;
}
