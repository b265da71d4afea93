// bench/storeAnswers.bench.js — peak memory of `analyze --tempo` against a store whose answers are large, in a
// process of its own: 8 traces of about 50 MB of real-looking spans each, then 8 answers of empty span objects
// (`{}`) just under the cap, served from a loopback stand-in. Prints the run's maximum RSS (the child's own
// process.resourceUsage().maxRSS at exit) and its exit code; asserts nothing. Before issue 31 such answers were
// parsed 4 at a time, whole: 8 answers of 120 MB took 1.3 GB, and empty objects ran out of heap.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

// ROUTESCOPE_BIN runs another build (an older one, to compare).
const BIN =
  process.env.ROUTESCOPE_BIN ?? fileURLToPath(new URL('../dist/bin/routescope.js', import.meta.url));
const TRACES = 8;
const hex = (n, width) => n.toString(16).padStart(width, '0');

/** One trace of `spans` plain spans, about 600 bytes each, as Tempo's v2 API answers it. */
function realLookingTrace(t, spans) {
  const list = [];
  for (let i = 0; i < spans; i++) {
    list.push({
      traceId: hex(t + 1, 32),
      spanId: hex(i + 1, 16),
      name: `GET /api/orders/${i}`,
      kind: 2,
      startTimeUnixNano: String(1_790_000_000_000_000_000 + i),
      endTimeUnixNano: String(1_790_000_000_000_500_000 + i),
      attributes: [
        { key: 'http.request.method', value: { stringValue: 'GET' } },
        { key: 'url.path', value: { stringValue: `/api/orders/${i}` } },
        { key: 'http.response.status_code', value: { intValue: '200' } },
        { key: 'server.address', value: { stringValue: 'orders.internal.example' } },
      ],
      status: {},
    });
  }
  return JSON.stringify({
    trace: { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans: list }] }] },
  });
}

function emptySpans(bytes) {
  const n = Math.floor((bytes - 80) / 3);
  return `{"batches":[{"scopeSpans":[{"spans":[${Array(n).fill('{}').join(',')}]}]}]}`;
}

async function measure(label, answer, args) {
  const ids = Array.from({ length: TRACES }, (_, t) => hex(t + 1, 32));
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url.startsWith('/api/search')) {
      res.end(JSON.stringify({ traces: ids.map((traceID) => ({ traceID })) }));
    } else res.end(answer);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const report =
    "process.on('exit',()=>process.stderr.write('maxrss '+process.resourceUsage().maxRSS+'\\n'))";
  const child = spawn(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(report)}`,
      BIN,
      'analyze',
      '--tempo',
      url,
      '--allow-empty',
      ...args,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const started = Date.now();
  const code = await new Promise((resolve) => child.on('exit', resolve));
  server.close();
  const kb = Number(/maxrss (\d+)/.exec(stderr)?.[1] ?? NaN);
  const note = stderr.split('\n').find((l) => l.startsWith('routescope:')) ?? '';
  console.log(
    `${label}: ${TRACES} answers of ${(answer.length / 1e6).toFixed(0)} MB, exit ${code}, ${((Date.now() - started) / 1000).toFixed(1)} s, peak RSS ${(kb / 1024).toFixed(0)} MiB ${note.slice(0, 110)}`,
  );
}

const real = realLookingTrace(0, 85_000);
await measure('real-looking spans', real, []);
await measure('empty span objects', emptySpans(60_000_000), []);
await measure('empty span objects, cap raised to 200 MB', emptySpans(60_000_000), ['--max-answer-mb', '200']);
