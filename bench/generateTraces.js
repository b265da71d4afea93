// bench/generateTraces.js — a deterministic file of realistic agent traces, as the Collector's file exporter writes.
//
// Each line is one OTLP/JSON ExportTraceServiceRequest holding 1–8 agent turns of one service. A turn is 20
// spans: an `invoke_agent` root, the instrumented tier-2 routing span, 6 LLM chat spans (gen_ai.* attributes,
// a prompt/completion event of a few hundred bytes), 6 tool spans and 6 HTTP client spans — one routing span
// per 20 spans. `routingEvery` changes that share: a turn of N spans holds (N − 2) ÷ 3 chat/tool/HTTP groups
// (5 → 1 group, 200 → 66); 20, the default, writes exactly the bytes it always did. The spans are made by the real SDK (the routing span by the real `instrumentDecideTier2`
// wrapper) and serialized by the SDK's JsonTraceSerializer, then reshaped as the Go Collector writes them: int64
// fields (times, intValue) as strings, zero counts and empty lists left out. A few dozen such requests are made
// once as templates; every line written is a template with fresh trace ids, span ids and times from a seeded
// PRNG (mulberry32), so the same size and seed give the same lines, spans and verdicts (the span durations are
// the real SDK's, measured while the templates are made, so the time digits differ from run to run).
//
// CLI: node bench/generateTraces.js OUT_FILE SIZE_MB [SEED] [ROUTING_EVERY]   (prints the file's counts as JSON)
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { TextDecoder } from 'node:util';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { decideTier2, instrumentDecideTier2 } from '../dist/index.js';
import { createRandom } from './createRandom.js';

const TEMPLATES = 48;
const SKILLS = [
  'billing',
  'refunds',
  'shipping',
  'account',
  'search',
  'returns',
  'support',
  'sales',
  'legal',
  'hr',
];
const TOOLS = ['lookup_order', 'search_docs', 'issue_refund', 'get_weather', 'send_email', 'query_db'];
const MODELS = ['gpt-4o-mini', 'claude-3-5-haiku', 'llama-3.1-70b'];
const SERVICES = ['support-agent', 'sales-agent', 'ops-agent'];
const WORDS =
  'the order shipped late and the customer asked for a refund of the second item while the tracking page showed it delivered yesterday afternoon'.split(
    ' ',
  );

function hex(random, digits) {
  let out = '';
  while (out.length < digits)
    out += Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, digits);
}

function sentence(random, words) {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** Spans of `turns` agent turns, made by the real SDK (ids and times are replaced later). */
function makeTemplateSpans(random, turns, service, groups) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': service,
      'service.version': '1.4.2',
      'deployment.environment.name': 'production',
      'host.name': `ip-10-0-${Math.floor(random() * 255)}-${Math.floor(random() * 255)}`,
    }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('agent-runtime', '0.9.0');
  const routed = instrumentDecideTier2(decideTier2, {
    tracerProvider: provider,
    routerName: 'tier2',
    scorerName: 'embedding-v3',
    context: () => ({ conversationId: `conv-${hex(random, 8)}`, agentName: service }),
  });
  for (let t = 0; t < turns; t++) {
    const root = tracer.startSpan('invoke_agent', {
      kind: SpanKind.SERVER,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': service },
    });
    const candidates = 4 + Math.floor(random() * 9);
    const scores = Array.from({ length: candidates }, (_, i) => ({
      id: SKILLS[i % SKILLS.length] + (i >= SKILLS.length ? `-${i}` : ''),
      score: random() * 1.6 - 0.3,
    }));
    const incumbent = random() < 0.5 ? undefined : scores[Math.floor(random() * candidates)].id;
    routed(
      scores,
      incumbent,
      { nearTieMargin: 0.15, menuSize: 3 },
      { floor: random() < 0.3 ? undefined : 0.1 },
    );
    for (let k = 0; k < groups; k++) {
      const model = MODELS[Math.floor(random() * MODELS.length)];
      const chat = tracer.startSpan(`chat ${model}`, {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.system': 'openai',
          'gen_ai.request.model': model,
          'gen_ai.request.temperature': 0.2,
          'gen_ai.request.max_tokens': 1024,
          'gen_ai.response.model': model,
          'gen_ai.response.id': `chatcmpl-${hex(random, 24)}`,
          'gen_ai.response.finish_reasons': ['stop'],
          'gen_ai.usage.input_tokens': Math.floor(random() * 4000),
          'gen_ai.usage.output_tokens': Math.floor(random() * 800),
          'server.address': 'api.example.test',
          'server.port': 443,
        },
      });
      chat.addEvent('gen_ai.content.prompt', {
        'gen_ai.prompt': sentence(random, 20 + Math.floor(random() * 60)),
      });
      chat.addEvent('gen_ai.content.completion', {
        'gen_ai.completion': sentence(random, 10 + Math.floor(random() * 40)),
      });
      chat.end();
      const tool = TOOLS[Math.floor(random() * TOOLS.length)];
      const toolSpan = tracer.startSpan(`execute_tool ${tool}`, {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': tool,
          'gen_ai.tool.call.id': `call_${hex(random, 20)}`,
          'gen_ai.tool.type': 'function',
        },
      });
      if (random() < 0.05) toolSpan.setStatus({ code: SpanStatusCode.ERROR, message: 'tool timed out' });
      toolSpan.end();
      const http = tracer.startSpan('POST', {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          'url.full': `https://internal.example.test/v1/${tool}`,
          'http.response.status_code': random() < 0.97 ? 200 : 503,
          'network.protocol.version': '1.1',
          'server.address': 'internal.example.test',
          'server.port': 443,
        },
      });
      http.end();
    }
    root.end();
  }
  return exporter.getFinishedSpans();
}

/** The Go Collector's spelling: int64 as strings, zero counts, empty lists and zero status left out. */
function collectorShape(value) {
  if (Array.isArray(value)) return value.map(collectorShape);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (/^dropped\w*Count$/.test(key) && v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (key === 'intValue') out[key] = String(v);
    else if (key === 'status' && v.code === 0 && v.message === undefined) out[key] = {};
    else out[key] = collectorShape(v);
  }
  return out;
}

/**
 * One template: a request whose ids and times are placeholders. Returns the text cut at the placeholders and,
 * per slot, what goes there: a trace id (by turn), a span id (by span), or a time (ms offset into the batch).
 */
function makeTemplate(random, index, groups) {
  const turns = 1 + Math.floor(random() * 8);
  const spans = makeTemplateSpans(random, turns, SERVICES[index % SERVICES.length], groups);
  const request = collectorShape(
    JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))),
  );
  const traceSlots = new Map();
  const spanSlots = new Map();
  let timeSlots = 0;
  const times = [];
  const origin = BigInt(spans.reduce((m, s) => Math.min(m, s.startTime[0]), Infinity)) * 1_000_000_000n;
  const place = (kind, n) => `@@${kind}${n}@@`;
  const timeSlot = (nanos) => {
    // Keep the offset from the batch's first second, at µs resolution; a fresh base is added per line.
    times.push(Number((BigInt(nanos) - origin) / 1000n));
    return place('N', timeSlots++);
  };
  for (const rs of request.resourceSpans) {
    for (const ss of rs.scopeSpans) {
      for (const span of ss.spans) {
        if (!traceSlots.has(span.traceId)) traceSlots.set(span.traceId, traceSlots.size);
        if (!spanSlots.has(span.spanId)) spanSlots.set(span.spanId, spanSlots.size);
      }
      for (const span of ss.spans) {
        span.traceId = place('T', traceSlots.get(span.traceId));
        span.spanId = place('S', spanSlots.get(span.spanId));
        if (span.parentSpanId !== undefined) span.parentSpanId = place('S', spanSlots.get(span.parentSpanId));
        span.startTimeUnixNano = timeSlot(span.startTimeUnixNano);
        span.endTimeUnixNano = timeSlot(span.endTimeUnixNano);
        for (const ev of span.events ?? []) ev.timeUnixNano = timeSlot(ev.timeUnixNano);
      }
    }
  }
  const text = JSON.stringify(request);
  const parts = [];
  const slots = [];
  let last = 0;
  for (const m of text.matchAll(/@@([TSN])(\d+)@@/g)) {
    parts.push(text.slice(last, m.index));
    slots.push(m[1] === 'N' ? { kind: 'N', offsetUs: times[Number(m[2])] } : { kind: m[1], n: Number(m[2]) });
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return {
    parts,
    slots,
    traces: traceSlots.size,
    spanIds: spanSlots.size,
    spans: spans.length,
    routingSpans: spans.filter((s) => s.name === 'agentfootprint.routing.tier2').length,
    verdicts: spans
      .map((s) => s.attributes['agentfootprint.routing.verdict'])
      .filter((v) => typeof v === 'string'),
  };
}

/** Chat/tool/HTTP groups per turn for one routing span in `routingEvery` spans (2 + 3 per group). */
function groupsFor(routingEvery) {
  const groups = (routingEvery - 2) / 3;
  if (!Number.isInteger(groups) || groups < 1) {
    throw new RangeError(`routingEvery must be 2 + 3k spans (5, 20, 200, …), not ${routingEvery}`);
  }
  return groups;
}

/** Build the templates once (deterministic for a seed and a routing share). */
export function makeTemplates(seed = 1, routingEvery = 20) {
  const random = createRandom(seed);
  const groups = groupsFor(routingEvery);
  return Array.from({ length: TEMPLATES }, (_, i) => makeTemplate(random, i, groups));
}

/** One line of `template` with fresh ids and times. */
function renderLine(template, random, baseMs) {
  const traceIds = Array.from({ length: template.traces }, () => hex(random, 32));
  const spanIds = Array.from({ length: template.spanIds }, () => hex(random, 16));
  let out = template.parts[0];
  for (let i = 0; i < template.slots.length; i++) {
    const slot = template.slots[i];
    if (slot.kind === 'T') out += traceIds[slot.n];
    else if (slot.kind === 'S') out += spanIds[slot.n];
    else {
      const us = baseMs * 1000 + slot.offsetUs;
      out += `${Math.floor(us / 1000)}${String(us % 1000).padStart(3, '0')}000`;
    }
    out += template.parts[i + 1];
  }
  return out;
}

/**
 * Write about `bytes` bytes of JSON lines to `path`. Returns what was written: bytes, lines, spans, routing
 * spans and the verdict counts (what the analyzer, the naive script and jq must all find).
 */
export async function generateTraceFile(path, bytes, seed = 1, routingEvery = 20) {
  const templates = makeTemplates(seed, routingEvery);
  const random = createRandom(seed ^ 0x9e3779b9);
  const out = createWriteStream(path);
  const totals = { bytes: 0, lines: 0, spans: 0, routingSpans: 0, verdicts: {} };
  let baseMs = 1_767_225_600_000; // 2026-01-01T00:00:00Z
  let pending = [];
  let pendingBytes = 0;
  while (totals.bytes < bytes) {
    const template = templates[Math.floor(random() * templates.length)];
    const line = renderLine(template, random, baseMs) + '\n';
    baseMs += 500 + Math.floor(random() * 4000);
    totals.bytes += Buffer.byteLength(line);
    totals.lines++;
    totals.spans += template.spans;
    totals.routingSpans += template.routingSpans;
    for (const v of template.verdicts) totals.verdicts[v] = (totals.verdicts[v] ?? 0) + 1;
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes >= 4 * 1024 * 1024) {
      if (!out.write(pending.join(''))) await once(out, 'drain');
      pending = [];
      pendingBytes = 0;
    }
  }
  out.write(pending.join(''));
  out.end();
  await once(out, 'finish');
  return totals;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, sizeMb, seed, routingEvery] = process.argv.slice(2);
  if (path === undefined || sizeMb === undefined) {
    console.error('usage: node bench/generateTraces.js OUT_FILE SIZE_MB [SEED] [ROUTING_EVERY]');
    process.exit(2);
  }
  const totals = await generateTraceFile(
    path,
    Number(sizeMb) * 1024 * 1024,
    Number(seed ?? 1),
    Number(routingEvery ?? 20),
  );
  console.log(JSON.stringify(totals));
}
