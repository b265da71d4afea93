/**
 * Readers under hostile input: N good spans among M corruptions give exactly N decisions and M problems,
 * each problem naming its line; random JSON of right and wrong shapes, deep nesting, invalid UTF-8 and lying
 * lengths in proto, zstd and gzip framing never crash, hang or lose a good record before the damage.
 *
 * Good spans are real: routing spans from the real SDK and instrumentation, one per export request, each
 * serialized by the OTLP serializers. A corruption is a whole line (or framed record) of its own: a good
 * line cut short, binary garbage, JSON of a shape that is not a trace, invalid UTF-8 in the JSON structure,
 * a routing span with a required attribute renamed away (incomplete), or nesting deep enough to exhaust
 * the stack.
 */
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { ATTR_ROUTING_VERDICT } from '../../src/semconv/semconv.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import { MAX_RECORD_BYTES } from '../../src/trace/formats/readLimits.js';
import { tier2CallArb } from '../instrument/tier2Call.arbitrary.js';
import { frameRecords } from '../trace/traceScenario.js';
import { problemCount, readBytes } from './readerHarness.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const POOL = 48;
/** Spans used only to build corruptions (one each, so no corrupt line shares a span id with another line). */
const SPARES = 12;

interface GoodSpan {
  readonly spanId: string;
  readonly json: string;
  readonly proto: Buffer;
}

let pool: GoodSpan[];
let spares: GoodSpan[];

beforeAll(() => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const decide = instrumentDecideTier2(decideTier2, { tracerProvider: provider, routerName: 'fuzz' });
  for (const c of fc.sample(tier2CallArb(8), { numRuns: POOL + SPARES, seed: 11 })) {
    decide(c.scores, c.incumbentId, c.policy, c.scorer);
  }
  const all = exporter.getFinishedSpans().map((span) => ({
    spanId: span.spanContext().spanId,
    json: Buffer.from(JsonTraceSerializer.serializeRequest([span])!).toString('utf8'),
    proto: Buffer.from(ProtobufTraceSerializer.serializeRequest([span])!),
  }));
  pool = all.slice(0, POOL);
  spares = all.slice(POOL);
  expect(spares).toHaveLength(SPARES);
});

/** Keys that would make an object a trace shape or another OTLP signal; wrong-shape objects avoid them. */
const SHAPE_KEYS =
  /^(resourceSpans|resourceMetrics|resourceLogs|resourceProfiles|batches|data|result|trace|spans|traceID|processes)$/;

const wrongShapeArb: fc.Arbitrary<string> = fc
  .oneof(
    fc.jsonValue({ maxDepth: 3 }).filter((v) => !Array.isArray(v)),
    fc.dictionary(
      fc.string({ maxLength: 12 }).filter((k) => !SHAPE_KEYS.test(k)),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 6 },
    ),
  )
  .map((v) => JSON.stringify(v))
  .filter((text) => text.trim() !== '');

type Corruption =
  | { readonly kind: 'cut'; readonly at: number }
  | { readonly kind: 'garbage'; readonly bytes: Uint8Array }
  | { readonly kind: 'wrong-shape'; readonly text: string }
  | { readonly kind: 'bad-utf8'; readonly seq: number }
  | { readonly kind: 'incomplete' }
  | { readonly kind: 'deep'; readonly depth: number };

const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xe2, 0x28, 0xa1],
  [0xf0, 0x28, 0x8c, 0x28],
  [0xc0, 0xaf], // overlong '/'
  [0xed, 0xa0, 0x80], // an encoded lone surrogate
];

const corruptionArb: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({
    kind: fc.constant('cut' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('garbage' as const),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 200 }),
  }),
  fc.record({ kind: fc.constant('wrong-shape' as const), text: wrongShapeArb }),
  fc.record({
    kind: fc.constant('bad-utf8' as const),
    seq: fc.nat(INVALID_UTF8.length - 1),
  }),
  fc.record({ kind: fc.constant('incomplete' as const) }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 50_000, max: 150_000 }) }),
);

/** The bytes of corrupt line number `index` of a file (no newline inside, never blank). */
function corruptLine(c: Corruption, index: number): Buffer {
  const spare = spares[index % SPARES]!;
  switch (c.kind) {
    case 'cut': {
      const json = spare.json;
      return Buffer.from(json.slice(0, 1 + Math.floor(c.at * (json.length - 2))));
    }
    case 'garbage':
      // '!' first: never blank, never JSON; newlines inside become spaces so the garbage stays one line.
      return Buffer.concat([Buffer.from('!'), Buffer.from(c.bytes.map((b) => (b === 0x0a ? 0x20 : b)))]);
    case 'wrong-shape':
      return Buffer.from(c.text);
    case 'bad-utf8': {
      // Invalid bytes where JSON structure is expected: the line cannot parse.
      const json = spare.json;
      return Buffer.concat([
        Buffer.from(json.slice(0, 1)),
        Buffer.from(INVALID_UTF8[c.seq]!),
        Buffer.from(json.slice(1)),
      ]);
    }
    case 'incomplete':
      return Buffer.from(
        spare.json.replace(`"${ATTR_ROUTING_VERDICT}"`, '"agentfootprint.routing.verdict_gone"'),
      );
    case 'deep':
      return Buffer.from(`${'['.repeat(c.depth)}"agentfootprint.routing"${']'.repeat(c.depth)}`);
  }
}

describe('N good spans among M corruptions', () => {
  it('JSON lines: exactly N decisions and M problems, each problem at its corrupt line', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: POOL - 1 }), { maxLength: 30 }),
        fc.array(corruptionArb, { maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 42, maxLength: 42 }),
        fc.constantFrom('\n', '\r\n'),
        async (goods, corruptions, order, eol) => {
          // Interleave in a random order: good lines by pool index, corrupt lines by kind.
          type Entry = { good: number } | { bad: Corruption };
          const entries: Entry[] = [
            ...goods.map((good) => ({ good })),
            ...corruptions.map((bad) => ({ bad })),
          ];
          entries.sort((a, b) => (order[entries.indexOf(a)] ?? 0) - (order[entries.indexOf(b)] ?? 0));
          // The file opens with a good line: what a file is, is judged from its start (a file of nothing but
          // garbage is refused as a whole, which the InputError tests cover).
          const lines: Buffer[] = [Buffer.from(pool[0]!.json)];
          const badLines: number[] = [];
          const goodIds: string[] = [pool[0]!.spanId];
          for (const e of entries) {
            if ('good' in e) {
              lines.push(Buffer.from(pool[e.good]!.json));
              goodIds.push(pool[e.good]!.spanId);
            } else {
              lines.push(corruptLine(e.bad, badLines.length));
              badLines.push(lines.length);
            }
          }
          const file = Buffer.concat(lines.flatMap((l) => [l, Buffer.from(eol)]));
          const r = await readBytes(file);
          expect(r.inputError?.message).toBeUndefined();
          expect(r.decisions.map((d) => d.spanId).sort()).toEqual(goodIds.sort());
          expect(problemCount(r.stats)).toBe(corruptions.length);
          expect(r.stats.problems.map((p) => p.line).sort((a, b) => a - b)).toEqual(badLines);
          for (const p of r.stats.problems) expect(p.reason.length).toBeGreaterThan(10);
        },
      ),
      { numRuns: propertyRuns(120), seed: 42 },
    );
  });

  it('framed protobuf: exactly N decisions and M problems for garbage records among good ones', async () => {
    const zstd = (b: Buffer): Buffer => execFileSync('zstd', ['-q', '-c'], { input: b });
    const badZstd = Buffer.concat([zstd(Buffer.from(pool[0]!.json)).subarray(0, 12), Buffer.alloc(24, 0xee)]);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.nat(POOL - 1), { maxLength: 20 }),
        fc.array(fc.oneof(fc.constant('proto'), fc.constant('zstd'), fc.constant('json')), { maxLength: 8 }),
        fc.array(fc.nat(), { minLength: 28, maxLength: 28 }),
        async (goods, bads, order) => {
          type Entry = { good: number } | { bad: string };
          const entries: Entry[] = [...goods.map((good) => ({ good })), ...bads.map((bad) => ({ bad }))];
          entries.sort((a, b) => (order[entries.indexOf(a)] ?? 0) - (order[entries.indexOf(b)] ?? 0));
          const records: Buffer[] = [];
          const badRecords: number[] = [];
          for (const e of entries) {
            if ('good' in e) records.push(pool[e.good]!.proto);
            else {
              // A length-delimited field whose length overruns the record; a zstd frame of junk; broken JSON.
              records.push(
                e.bad === 'proto'
                  ? Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01])
                  : e.bad === 'zstd'
                    ? badZstd
                    : Buffer.from('{"resourceSpans":[{"scopeSpans":'),
              );
              badRecords.push(records.length);
            }
          }
          // A file must start with something recognizable; a first record of junk JSON would not be framed proto.
          const r = await readBytes(frameRecords([pool[0]!.proto, ...records]));
          expect(r.inputError?.message).toBeUndefined();
          expect(r.decisions).toHaveLength(new Set([0, ...goods]).size);
          expect(problemCount(r.stats)).toBe(bads.length);
          expect(r.stats.problems.map((p) => p.line)).toEqual(badRecords.map((n) => n + 1));
        },
      ),
      { numRuns: propertyRuns(80), seed: 43 },
    );
  });
});

describe('random and hostile JSON', () => {
  it('random JSON lines of any shape: no crash, one problem per line that is not a trace, lines counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 20 }),
        async (values) => {
          const text = values.map((v) => JSON.stringify(v)).join('\n') + '\n';
          const r = await readBytes(Buffer.from(text));
          if (r.inputError !== undefined) return; // a first line that is not JSON at all: refused as a whole
          expect(r.decisions).toEqual([]);
          expect(problemCount(r.stats)).toBeLessThanOrEqual(values.length);
        },
      ),
      { numRuns: propertyRuns(300), seed: 44 },
    );
  });

  it('OTLP of the right shape with random field types: no crash, every routing span a decision or a problem', async () => {
    const anyValue = fc.jsonValue({ maxDepth: 2 });
    const attr = fc.record({
      key: fc.oneof(
        fc.constantFrom(ATTR_ROUTING_VERDICT, 'agentfootprint.routing.candidate.ids'),
        fc.string(),
      ),
      value: fc.oneof(
        anyValue,
        fc.record({ stringValue: anyValue }),
        fc.record({ arrayValue: fc.record({ values: anyValue }) }),
      ),
    });
    const span = fc.record(
      {
        traceId: fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), anyValue),
        spanId: fc.oneof(fc.stringMatching(/^[0-9a-f]{16}$/), anyValue),
        name: fc.oneof(fc.constant('agentfootprint.routing.tier2'), anyValue),
        startTimeUnixNano: fc.oneof(fc.constant('1700000000000000000'), anyValue),
        attributes: fc.oneof(fc.array(attr, { maxLength: 5 }), anyValue),
        events: anyValue,
      },
      { requiredKeys: [] },
    );
    const request = fc.record({
      resourceSpans: fc.array(
        fc.record({
          resource: fc.oneof(fc.record({ attributes: fc.array(attr, { maxLength: 2 }) }), anyValue),
          scopeSpans: fc.oneof(
            fc.array(fc.record({ spans: fc.oneof(fc.array(span, { maxLength: 3 }), anyValue) }), {
              maxLength: 2,
            }),
            anyValue,
          ),
        }),
        { maxLength: 2 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 8 }), async (requests) => {
        const r = await readBytes(Buffer.from(requests.map((q) => JSON.stringify(q)).join('\n') + '\n'));
        expect(r.inputError?.message).toBeUndefined();
        // Each routing-named span either decoded or was reported; none vanished silently.
        expect(r.stats.routingSpans).toBeLessThanOrEqual(
          r.decisions.length + problemCount(r.stats) + r.stats.duplicates,
        );
      }),
      { numRuns: propertyRuns(300), seed: 45 },
    );
  });

  it('a JSON document nested 1,000,000 arrays deep: one problem, the file goes on', async () => {
    const depth = 1_000_000;
    const deep = `${'['.repeat(depth)}"agentfootprint.routing"${']'.repeat(depth)}`;
    const r = await readBytes(Buffer.from(`${pool[0]!.json}\n${deep}\n${pool[1]!.json}\n`));
    expect(r.decisions.map((d) => d.spanId)).toEqual([pool[0]!.spanId, pool[1]!.spanId]);
    expect(r.stats.problems.map((p) => p.line)).toEqual([2]);
  });

  it('invalid UTF-8 inside string values: the span is still read, the bytes shown as U+FFFD, nothing else lost', async () => {
    const lines = INVALID_UTF8.map((seq, i) => {
      const good = pool[i]!;
      const [head, tail] = [
        good.json.slice(0, good.json.indexOf('"stringValue":"') + 15),
        good.json.slice(good.json.indexOf('"stringValue":"') + 15),
      ];
      return Buffer.concat([Buffer.from(head), Buffer.from(seq), Buffer.from(tail)]);
    });
    const r = await readBytes(Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    expect(r.inputError).toBeUndefined();
    expect(r.decisions.length + problemCount(r.stats)).toBe(INVALID_UTF8.length);
    expect(r.decisions.length).toBeGreaterThan(0);
  });

  it('UTF-16 text (not UTF-8 at all) is refused as a whole with a message, not misread', async () => {
    const r = await readBytes(Buffer.from(`\ufeff${pool[0]!.json}\n`, 'utf16le'));
    expect(r.decisions).toEqual([]);
    expect(r.inputError?.message ?? r.stats.problems[0]?.reason).toMatch(/\S/);
  });
});

describe('lying lengths in proto, zstd and gzip framing', () => {
  const frame = (n: number): Buffer => {
    const h = Buffer.alloc(4);
    h.writeUInt32BE(n >>> 0, 0);
    return h;
  };

  it('proto frame headers that lie (huge, past the end, too short): good records before kept, a problem at the lie', async () => {
    const good = frameRecords([pool[0]!.proto, pool[1]!.proto]);
    const next = pool[2]!.proto;
    const cases: Array<[string, Buffer]> = [
      ['4 GiB', Buffer.concat([good, frame(0xffffffff), next])],
      ['one past the limit', Buffer.concat([good, frame(MAX_RECORD_BYTES + 1), next])],
      ['past the end', Buffer.concat([good, frame(next.length + 1000), next])],
      ['too short', Buffer.concat([good, frame(next.length - 7), next])],
      ['zero', Buffer.concat([good, frame(0), next])],
    ];
    for (const [name, bytes] of cases) {
      const r = await readBytes(bytes);
      expect(r.inputError, name).toBeUndefined();
      expect(
        r.decisions.slice(0, 2).map((d) => d.spanId),
        name,
      ).toEqual([pool[0]!.spanId, pool[1]!.spanId]);
      if (name !== 'zero') {
        expect(problemCount(r.stats), name).toBeGreaterThanOrEqual(1);
        expect(r.stats.problems[0]!.line, name).toBe(3);
      }
    }
  });

  it('a legacy zstd record declaring 1 TiB of content is refused without allocating it; the next record is read', async () => {
    // Single-segment frame, 8-byte content size field = 2^40.
    const lying = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0x00, 0x00]);
    const before = process.memoryUsage().rss;
    const r = await readBytes(frameRecords([pool[0]!.proto, lying, pool[1]!.proto]));
    const grown = process.memoryUsage().rss - before;
    console.log(`lying zstd record: RSS grew ${(grown / 2 ** 20).toFixed(1)} MiB`);
    expect(r.decisions.map((d) => d.spanId)).toEqual([pool[0]!.spanId, pool[1]!.spanId]);
    expect(r.stats.problems.map((p) => p.line)).toEqual([2]);
    expect(grown).toBeLessThan(256 * 2 ** 20);
  });

  it('a zstd stream whose second frame asks for a 2 GiB window: the first frame is read, one problem, no 2 GiB', async () => {
    const first = execFileSync('zstd', ['-q', '-c'], { input: Buffer.from(`${pool[0]!.json}\n`) });
    // Window descriptor: exponent 21 → 2^31 bytes.
    const lying = Buffer.concat([
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3]),
      Buffer.alloc(64, 0x42),
    ]);
    const before = process.memoryUsage().rss;
    const r = await readBytes(Buffer.concat([first, lying]));
    const grown = process.memoryUsage().rss - before;
    console.log(`lying zstd window in a stream: RSS grew ${(grown / 2 ** 20).toFixed(1)} MiB`);
    expect(r.decisions.map((d) => d.spanId)).toEqual([pool[0]!.spanId]);
    expect(problemCount(r.stats)).toBe(1);
    expect(grown).toBeLessThan(512 * 2 ** 20);
  });

  it('gzip with a lying length or CRC trailer: every line before it read, the mismatch reported', async () => {
    const text = Buffer.from(`${pool[0]!.json}\n${pool[1]!.json}\n`);
    for (const [name, offset] of [
      ['ISIZE', 4],
      ['CRC32', 8],
    ] as const) {
      const gz = gzipSync(text);
      gz[gz.length - offset]! ^= 0xff;
      const r = await readBytes(gz);
      expect(r.inputError, name).toBeUndefined();
      expect(
        r.decisions.map((d) => d.spanId),
        name,
      ).toEqual([pool[0]!.spanId, pool[1]!.spanId]);
      expect(problemCount(r.stats), name).toBe(1);
      expect(r.stats.problems[0]!.reason, name).toMatch(/stopped reading/);
    }
  });

  it('a gzip bomb (256 MiB of zeros in well under 1 MiB) streams through with bounded memory', async () => {
    const bomb = gzipSync(Buffer.alloc(256 * 2 ** 20), { level: 9 });
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    try {
      const r = await readBytes(Buffer.concat([gzipSync(`${pool[0]!.json}\n`), bomb]));
      console.log(
        `gzip bomb: ${(bomb.length / 2 ** 20).toFixed(2)} MiB → 256 MiB; RSS ${(before / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
      );
      expect(r.decisions.map((d) => d.spanId)).toEqual([pool[0]!.spanId]);
      expect(r.stats.problems).toEqual([expect.objectContaining({ line: 2, kind: 'bad-line' })]);
      expect(peak - before).toBeLessThan(128 * 2 ** 20);
    } finally {
      clearInterval(sampler);
    }
  });
});
