/**
 * `__proto__`, `constructor` and `prototype` in a trace are data, never a way into Object.prototype.
 *
 * A real trace (real SDK and instrumentation) whose skill ids, router, scorer, service and conversation ids are
 * `__proto__`, `constructor`, `prototype`, `toString`, `hasOwnProperty`, whose attributes include such keys,
 * and whose every JSON object was given an own `"__proto__": {"polluted": …}` and `"constructor":
 * {"prototype": {"polluted": …}}` member — written as OTLP/JSON lines, as a Jaeger v1 document and as framed
 * protobuf — is read by every reader and reported on by every command (JSON output, `--where` included).
 * Afterwards the built-in prototypes have exactly the properties they had, nothing reads as `polluted`, and
 * the hostile ids are counted and reported like any other id.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { createReadStats } from '../../src/trace/readStats.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { frameRecords, toJaegerV1 } from '../trace/traceScenario.js';

const EVIL = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;
const DECISIONS = 40;

const PROTOTYPES: ReadonlyArray<[string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Map.prototype', Map.prototype],
];

function snapshotPrototypes(): Record<string, string[]> {
  return Object.fromEntries(
    PROTOTYPES.map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String).sort()]),
  );
}

function recordEvilSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': '__proto__', constructor: 'x', __proto__: 'y' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  let n = 0;
  const decide = instrumentDecideTier2(decideTier2, {
    tracerProvider: provider,
    routerName: '__proto__',
    scorerName: 'constructor',
    context: () => ({ conversationId: EVIL[n % EVIL.length], agentName: 'prototype' }),
    attributesHook: (span) => {
      span.setAttribute('__proto__', 'polluted');
      span.setAttribute('constructor', 'polluted');
      span.setAttribute('constructor.prototype.polluted', 'polluted');
      if (n % 4 === 0)
        markMisrouted(span, { expected: '__proto__', reason: 'constructor', source: 'prototype' });
    },
  });
  for (n = 0; n < DECISIONS; n++) {
    const a = EVIL[n % EVIL.length]!;
    const b = EVIL[(n + 1) % EVIL.length]!;
    decide(
      [
        { id: a, score: 0.5 },
        { id: b, score: 0.49 },
        { id: 'billing', score: 0.1 },
      ],
      n % 2 === 0 ? undefined : b,
      { nearTieMargin: 0.15, menuSize: 3 },
    );
  }
  return exporter.getFinishedSpans().slice();
}

/** A deep copy in which every object also owns `__proto__` and `constructor` members carrying a payload. */
function withPollutingMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withPollutingMembers);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) copy[k] = withPollutingMembers(v);
  Object.defineProperty(copy, '__proto__', { value: { polluted: 'yes' }, enumerable: true, writable: true });
  copy['constructor'] = { prototype: { polluted: 'yes' } };
  return copy;
}

let dir: string;
const files: Record<string, string> = {};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-proto-'));
  const spans = recordEvilSpans();
  const request = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8'));
  const line = JSON.stringify(withPollutingMembers(request));
  expect(line).toContain('"__proto__":{"polluted":"yes"}');
  files.otlp = join(dir, 'otlp.jsonl');
  writeFileSync(files.otlp, `${line}\n`);
  files.jaeger = join(dir, 'jaeger.json');
  writeFileSync(files.jaeger, JSON.stringify(withPollutingMembers(toJaegerV1(spans)), null, 2));
  files.proto = join(dir, 'otlp.binpb');
  writeFileSync(files.proto, frameRecords([Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!)]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectClean(before: Record<string, string[]>): void {
  expect(snapshotPrototypes()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

describe('prototype pollution through trace keys and ids', () => {
  for (const format of ['otlp', 'jaeger', 'proto'] as const) {
    it(`${format}: every decision read with its hostile ids intact; prototypes untouched`, async () => {
      const before = snapshotPrototypes();
      const stats = createReadStats();
      const decisions: DecisionRecord[] = [];
      for await (const r of readTraceInputs([files[format]!], stats))
        if (r.kind === 'decision') decisions.push(r);
      expectClean(before);
      expect(stats.problems).toEqual([]);
      expect(decisions).toHaveLength(DECISIONS);
      expect(new Set(decisions.flatMap((d) => d.ranked.map((c) => c.id)))).toEqual(
        new Set([...EVIL, 'billing']),
      );
      expect(new Set(decisions.map((d) => d.router))).toEqual(new Set(['__proto__']));
      expect(new Set(decisions.map((d) => d.conversationId))).toEqual(new Set(EVIL));
      expect(decisions.some((d) => d.misroutes.some((m) => m.expected === '__proto__'))).toBe(true);
      for (const d of decisions) expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    });
  }

  it('every command over every format, JSON output and --where on a hostile name: prototypes untouched', async () => {
    const before = snapshotPrototypes();
    const all = Object.values(files);
    const runs: string[][] = [
      ['analyze', ...all],
      ['hotspots', ...all],
      ['floorless', ...all],
      ['explain', '__proto__', ...all],
      ['explain', 'constructor', ...all],
      ['replay', ...all, '--margin', '0.001', '--where', 'router=__proto__', '--list'],
      ['replay', ...all, '--where', 'scorer=constructor', '--where', 'service=__proto__'],
      ['tune', ...all],
      ['flapping', ...all],
    ];
    for (const argv of runs) {
      let stdout = '';
      let stderr = '';
      const code = await runCli([...argv, '--format', 'json'], {
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
        isTTY: false,
        env: {},
      });
      expect(code, `${argv.join(' ')}: ${stderr}`).toBe(0);
      expect(stdout, argv[0]).toContain('__proto__');
      expect(() => JSON.parse(stdout) as unknown, argv[0]).not.toThrow();
      expectClean(before);
    }
  });
});
