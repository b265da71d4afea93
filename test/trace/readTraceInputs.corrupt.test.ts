/**
 * readTraceInputs under damaged input: every bad line is counted and reported with its file and line, every
 * good line still read; what cannot be read at all is an InputError that says what to do.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ATTR_ROUTING_CANDIDATE_SCORES,
  ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN,
  ATTR_ROUTING_RUNNER_UP_GAP,
} from '../../src/semconv/semconv.js';
import { InputError } from '../../src/trace/inputError.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { MAX_LINE_BYTES } from '../../src/trace/formats/readLimits.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { DecisionRecord, TraceRecord } from '../../src/record/types.js';
import type { ReadStats } from '../../src/trace/types.js';
import {
  frameRecords,
  recordPlainSpans,
  recordScenario,
  toOtlpJson,
  toOtlpProto,
  withTempDir,
  zstdCompress,
  type Scenario,
} from './traceScenario.js';

let scenario: Scenario;
let line: string; // the whole scenario as one OTLP/JSON line
/** Records a clean read of the scenario yields (routing, turn and feedback spans). */
const RECORDS = 7;

beforeAll(async () => {
  scenario = await recordScenario();
  line = toOtlpJson(scenario.spans);
});

async function readAll(inputs: string[]): Promise<{ records: TraceRecord[]; stats: ReadStats }> {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  for await (const r of readTraceInputs(inputs, stats)) records.push(r);
  return { records, stats };
}

async function readText(dir: string, content: string | Buffer, name = 'traces.jsonl') {
  const file = join(dir, name);
  writeFileSync(file, content);
  return { file, ...(await readAll([file])) };
}

/** The same spans under fresh trace ids (consistently within the text), so they are not duplicates. */
function renewTraceIds(text: string): string {
  const fresh = new Map<string, string>();
  return text.replace(/"traceId":"([0-9a-f]{32})"/g, (_m, id: string) => {
    if (!fresh.has(id)) fresh.set(id, randomBytes(16).toString('hex'));
    return `"traceId":"${fresh.get(id)!}"`;
  });
}

/** Records without where they came from, to compare reads of differently spelled inputs. */
function withoutSource(records: TraceRecord[]): unknown[] {
  return records.map(({ source: _source, ...rest }) => rest);
}

type Json = Record<string, unknown>;

/** Apply `edit` to every span of an OTLP/JSON line, returning the new line. */
function editSpans(text: string, edit: (span: Json) => void): string {
  const doc = JSON.parse(text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Json[] }> }> };
  for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) edit(s);
  return JSON.stringify(doc);
}

function attribute(span: Json, key: string): Json | undefined {
  const list = span.attributes as Array<{ key: string; value: Json }>;
  return list.find((kv) => kv.key === key)?.value;
}

describe('bad lines are reported, good lines kept', () => {
  it('a truncated last line (a crash mid-write) is one bad line; the lines before it are read', async () => {
    await withTempDir(async (dir) => {
      const good = toOtlpJson(scenario.spans.slice(0, 3));
      const { file, records, stats } = await readText(
        dir,
        `${good}\n${renewTraceIds(good)}\n${line.slice(0, line.length / 2)}`,
      );
      expect(stats.problems).toEqual([expect.objectContaining({ file, line: 3, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/not valid JSON/);
      const fromGood = (await readText(dir, good + '\n', 'good.jsonl')).records.length;
      expect(records).toHaveLength(2 * fromGood);
    });
  });

  it('a truncated line without any routing span is still reported (not silently counted)', async () => {
    await withTempDir(async (dir) => {
      const plain = toOtlpJson(await recordPlainSpans(4));
      const { stats, records } = await readText(dir, `${line}\n${plain.slice(0, -40)}\n${plain}\n`);
      expect(records).toHaveLength(RECORDS);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 2, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/truncated/);
      expect(stats.spans).toBe(scenario.spans.length + 4);
    });
  });

  it('law: a plain line cut anywhere and glued to the next write: the cut reported, the next write read', async () => {
    await withTempDir(async (dir) => {
      const plain = toOtlpJson(await recordPlainSpans(3));
      const glued: string[] = [];
      for (let cut = 1; cut < plain.length; cut += 3) glued.push(plain.slice(0, cut) + plain);
      const { stats } = await readText(dir, glued.join('\n') + '\n');
      expect(stats.problems).toHaveLength(glued.length);
      expect(stats.problems.every((p) => p.kind === 'bad-line' && /glued/.test(p.reason))).toBe(true);
      expect(stats.spans).toBe(3 * glued.length);
    });
  });

  it('a routing request cut short with the next write glued on: the glued request is read', async () => {
    await withTempDir(async (dir) => {
      const { records, stats } = await readText(dir, `${line.slice(0, 5000)}${renewTraceIds(line)}\n`);
      expect(records).toHaveLength(RECORDS);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/cut short.*read on its own/);
    });
  });

  it('binary garbage between good lines is one bad line at its number', async () => {
    await withTempDir(async (dir) => {
      const garbage = Buffer.from(randomBytes(4096).filter((b) => b !== 0x0a));
      const content = Buffer.concat([
        Buffer.from(line + '\n'),
        garbage,
        Buffer.from('\n' + renewTraceIds(line) + '\n'),
      ]);
      const { file, records, stats } = await readText(dir, content);
      expect(stats.problems.filter((p) => p.line === 2)).toEqual([
        expect.objectContaining({ file, kind: 'bad-line' }),
      ]);
      expect(records.filter((r) => r.source.line === 1)).toHaveLength(RECORDS);
      expect(records.filter((r) => r.source.line === 3)).toHaveLength(RECORDS);
      expect(stats.lines).toBe(3);
    });
  });

  it('a 10 MB line with a routing span among thousands of plain spans is read whole', async () => {
    await withTempDir(async (dir) => {
      const plain = await recordPlainSpans(30_000);
      const big = toOtlpJson([...plain, ...scenario.spans]);
      expect(big.length).toBeGreaterThan(10_000_000);
      const { records, stats } = await readText(dir, `${big}\n`);
      expect(stats.problems).toEqual([]);
      expect(records).toHaveLength(RECORDS);
      expect(stats.spans).toBe(30_000 + scenario.spans.length);
      expect(stats.nonRoutingSpans).toBe(30_000 + scenario.plainSpans);
    });
  });

  it('a line longer than MAX_LINE_BYTES is reported by number and skipped; the next line is read', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'huge.jsonl');
      const filler = Buffer.alloc(MAX_LINE_BYTES + 1024, 0x61);
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from(line + '\n{"x":"'),
          filler,
          Buffer.from('"}\n' + renewTraceIds(line) + '\n'),
        ]),
      );
      const { records, stats } = await readAll([file]);
      expect(stats.problems).toEqual([expect.objectContaining({ file, line: 2, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/longer than/);
      expect(records.filter((r) => r.source.line === 3)).toHaveLength(RECORDS);
    });
  });

  it('JSON of the wrong shape is a bad line naming what was found', async () => {
    await withTempDir(async (dir) => {
      const wrong = [
        '{"foo":1}',
        '[1,2]',
        '{"resourceSpans":{}}',
        '"just a string"',
        'null',
        '{"agentfootprint.routing.verdict":"move"}',
        '{"data":5}',
        '{"traces":[]}',
      ];
      const { records, stats } = await readText(dir, [line, ...wrong].join('\n') + '\n');
      expect(records).toHaveLength(RECORDS);
      expect(stats.problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
      expect(stats.problems.every((p) => p.kind === 'bad-line')).toBe(true);
      expect(stats.problems[0]!.reason).toMatch(/not a trace export.*"foo"/);
      expect(stats.problems[2]!.reason).toMatch(/resourceSpans is an object/);
      expect(stats.problems[7]!.reason).toMatch(/Tempo search/);
    });
  });

  it('deeply nested JSON (an attribute 200,000 arrays deep) is a problem of that line, not of the file', async () => {
    await withTempDir(async (dir) => {
      const depth = 200_000;
      const deep = '{"arrayValue":{"values":['.repeat(depth) + ']}}'.repeat(depth);
      const hostile = editSpans(line, () => undefined).replace(
        '"attributes":[',
        `"attributes":[{"key":"deep","value":${deep}},`,
      );
      const { records, stats } = await readText(dir, `${hostile}\n${renewTraceIds(line)}\n`);
      expect(records.filter((r) => r.source.line === 2)).toHaveLength(RECORDS);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/could not be read/);
    });
  });

  it('__proto__ and constructor keys are plain data: the record is read, nothing is polluted', async () => {
    await withTempDir(async (dir) => {
      const hostile = editSpans(line, (span) => {
        (span.attributes as unknown[]).push(
          { key: '__proto__', value: { stringValue: 'polluted' } },
          { key: 'constructor', value: { kvlistValue: { values: [] } } },
        );
      }).replace(
        '{"resourceSpans"',
        '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"resourceSpans"',
      );
      const { records, stats } = await readText(dir, hostile + '\n');
      expect(stats.problems).toEqual([]);
      expect(records).toHaveLength(RECORDS);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(records[0])).toBe(Object.prototype);
    });
  });

  it('control characters in a routing span id: reported as incomplete, escaped in the reason', async () => {
    await withTempDir(async (dir) => {
      const target = scenario.calls[0]!.spanId;
      const hostile = editSpans(line, (span) => {
        if (span.spanId === target) span.traceId = '\u001b[31m\u0007evil\r\n\u202e';
      });
      const { records, stats } = await readText(dir, hostile + '\n');
      expect(records).toHaveLength(RECORDS - 1);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'incomplete' })]);
      // eslint-disable-next-line no-control-regex -- the point: no control character survives
      expect(stats.problems[0]!.reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
      expect(stats.problems[0]!.reason).toMatch(/trace id/);
    });
  });

  it('duplicate spans (an exporter retry) are counted once and yielded once', async () => {
    await withTempDir(async (dir) => {
      const { records, stats } = await readText(dir, `${line}\n${line}\n`);
      expect(records).toHaveLength(RECORDS);
      expect(stats.duplicates).toBe(RECORDS);
      expect(stats.spans).toBe(2 * scenario.spans.length);
      expect(stats.routingSpans).toBe(scenario.calls.length);
    });
  });

  it('a routing span missing an attribute is incomplete (reported with the key), never guessed', async () => {
    await withTempDir(async (dir) => {
      const target = scenario.calls[1]!.spanId;
      const broken = editSpans(line, (span) => {
        if (span.spanId !== target) return;
        span.attributes = (span.attributes as Array<{ key: string }>).filter(
          (kv) => kv.key !== ATTR_ROUTING_CANDIDATE_SCORES,
        );
      });
      const { records, stats } = await readText(dir, broken + '\n');
      expect(records.filter((r) => r.kind === 'decision')).toHaveLength(scenario.calls.length - 1);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'incomplete' })]);
      expect(stats.problems[0]!.reason).toContain(ATTR_ROUTING_CANDIDATE_SCORES);
      expect(stats.problems[0]!.reason).toContain(target);
    });
  });
});

describe('every spelling producers use', () => {
  it('intValue as string (Go collector) or number (JS), upper-case hex ids, base64 ids: same records', async () => {
    await withTempDir(async (dir) => {
      const plain = await readText(dir, line + '\n', 'js.jsonl');
      const goStyle = JSON.stringify(
        JSON.parse(line, (key, value: unknown) =>
          key === 'intValue' && typeof value === 'number' ? String(value) : value,
        ),
      );
      expect(goStyle).toMatch(/"intValue":"\d+"/);
      const upper = editSpans(goStyle, (span) => {
        span.traceId = String(span.traceId).toUpperCase();
        span.spanId = String(span.spanId).toUpperCase();
      });
      const base64 = editSpans(line, (span) => {
        span.traceId = Buffer.from(String(span.traceId), 'hex').toString('base64');
        span.spanId = Buffer.from(String(span.spanId), 'hex').toString('base64');
        if (typeof span.parentSpanId === 'string') {
          span.parentSpanId = Buffer.from(span.parentSpanId, 'hex').toString('base64');
        }
      });
      for (const variant of [goStyle, upper, base64]) {
        const { records, stats } = await readText(dir, variant + '\n', `variant-${Math.random()}.jsonl`);
        expect(stats.problems).toEqual([]);
        expect(withoutSource(records)).toEqual(withoutSource(plain.records));
      }
    });
  });

  it('"NaN" / "Infinity" strings and null doubles are read as non-finite numbers', async () => {
    await withTempDir(async (dir) => {
      const target = scenario.calls[0]!.spanId;
      const edited = editSpans(line, (span) => {
        if (span.spanId !== target) return;
        attribute(span, ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN)!.doubleValue = 'NaN';
        delete attribute(span, ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN)!.intValue;
        const gap = attribute(span, ATTR_ROUTING_RUNNER_UP_GAP)!;
        delete gap.doubleValue;
        gap.doubleValue = 'Infinity';
        const scores = attribute(span, ATTR_ROUTING_CANDIDATE_SCORES)!.arrayValue as { values: Json[] };
        scores.values[2] = { doubleValue: null };
      });
      const { records, stats } = await readText(dir, edited + '\n');
      expect(stats.problems).toEqual([]);
      const d = records.find((r): r is DecisionRecord => r.kind === 'decision' && r.spanId === target)!;
      expect(d.policy.nearTieMargin).toBeNaN();
      expect(d.runnerUp?.gap).toBe(Infinity);
      expect(d.ranked[2]!.score).toBeNaN();
    });
  });
});

describe('damaged binary inputs', () => {
  let batches: ReadableSpan[][];
  beforeAll(() => {
    const s = scenario.spans;
    batches = [s.slice(0, 4), s.slice(4, 8), s.slice(8)];
  });

  it('framed proto: a garbage record is reported, the records around it are read', async () => {
    await withTempDir(async (dir) => {
      const records = batches.map(toOtlpProto);
      const garbage = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]);
      const {
        file,
        stats,
        records: out,
      } = await readText(dir, frameRecords([records[0]!, garbage, records[1]!, records[2]!]), 'traces.pb');
      expect(stats.problems).toEqual([expect.objectContaining({ file, line: 2, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/protobuf/);
      expect(out).toHaveLength(RECORDS);
    });
  });

  it('framed proto: a record cut short at the end, or a lying length, stops there with a report', async () => {
    await withTempDir(async (dir) => {
      const framed = frameRecords(batches.map(toOtlpProto));
      const cut = await readText(dir, framed.subarray(0, framed.length - 10), 'cut.pb');
      expect(cut.stats.problems).toEqual([expect.objectContaining({ line: 3, kind: 'bad-line' })]);
      expect(cut.stats.problems[0]!.reason).toMatch(/cut short/);
      const firstTwo = frameRecords(batches.slice(0, 2).map(toOtlpProto));
      const lying = Buffer.concat([firstTwo, Buffer.from([0x7f, 0xff, 0xff, 0xff, 0x0a, 0x00])]);
      const lie = await readText(dir, lying, 'lying.pb');
      expect(lie.stats.problems).toEqual([expect.objectContaining({ line: 3, kind: 'bad-line' })]);
      expect(lie.stats.problems[0]!.reason).toMatch(/corrupt framing/);
      expect(lie.records.length).toBe(cut.records.length);
    });
  });

  it('a truncated zstd stream or gzip file keeps what was read and says where it stopped', async () => {
    await withTempDir(async (dir) => {
      const plain = toOtlpJson(await recordPlainSpans(2000));
      const text = `${line}\n${plain}\n${plain}\n${plain}\n`;
      for (const [name, packed] of [
        ['cut.jsonl.zst', zstdCompress(Buffer.from(text))],
        ['cut.jsonl.gz', gzipSync(text)],
      ] as const) {
        const { file, records, stats } = await readText(
          dir,
          packed.subarray(0, Math.floor(packed.length * 0.7)),
          name,
        );
        expect(records).toHaveLength(RECORDS);
        expect(stats.problems).toHaveLength(1);
        expect(stats.problems[0]).toMatchObject({ file, kind: 'bad-line' });
        expect(stats.problems[0]!.reason).toMatch(/stopped reading/);
      }
    });
  });
});

describe('inputs that cannot be read at all throw InputError saying what to do', () => {
  async function readError(inputs: string[]): Promise<InputError> {
    try {
      await readAll(inputs);
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return error as InputError;
    }
    throw new Error('expected an InputError');
  }

  it('a missing path', async () => {
    await withTempDir(async (dir) => {
      const e = await readError([join(dir, 'nope.jsonl')]);
      expect(e.message).toMatch(/no such file or folder.*Check the path/);
      expect(e.input).toBe(join(dir, 'nope.jsonl'));
    });
  });

  it('a missing path among several fails before anything is read', async () => {
    await withTempDir(async (dir) => {
      const good = join(dir, 'good.jsonl');
      writeFileSync(good, line + '\n');
      const stats = createReadStats();
      const reading = readTraceInputs([good, join(dir, 'typo.jsonl')], stats);
      await expect(reading.next()).rejects.toThrow(/typo\.jsonl: no such file or folder/);
      expect(stats.files).toBe(0);
    });
  });

  it('a named file in no known format', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'image.png');
      writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
      const e = await readError([file]);
      expect(e.message).toMatch(/unknown format \(first bytes 89 50 4e 47/);
      expect(e.message).toMatch(/routescope reads OTLP\/JSON/);
      const text = join(dir, 'notes.txt');
      writeFileSync(text, 'hello\n');
      expect((await readError([text])).message).toMatch(/not JSON/);
    });
  });

  it('a whole JSON document that is not a trace', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'package.json');
      writeFileSync(file, JSON.stringify({ name: 'x', version: '1.0.0' }, null, 2));
      expect((await readError([file])).message).toMatch(/JSON that is not a trace.*"name"/);
    });
  });

  it('an empty folder', async () => {
    await withTempDir(async (dir) => {
      mkdirSync(join(dir, 'empty'));
      expect((await readError([join(dir, 'empty')])).message).toMatch(/holds no trace files/);
    });
  });

  it('an empty file is not an error: nothing to read', async () => {
    await withTempDir(async (dir) => {
      const { records, stats } = await readText(dir, '');
      expect(records).toEqual([]);
      expect(stats).toMatchObject({ files: 1, spans: 0, problems: [] });
    });
  });
});
