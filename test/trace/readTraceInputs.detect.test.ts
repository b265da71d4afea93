/**
 * readTraceInputs format detection — JSON lines vs a pretty-printed document, byte-order marks, CRLF, JSON
 * arrays — judged from the first bytes, with every good line kept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { ReadStats } from '../../src/trace/types.js';
import type { TraceRecord } from '../../src/record/types.js';
import { recordScenario, toOtlpJson, withTempDir, type Scenario } from './traceScenario.js';

let scenario: Scenario;
let request: unknown;
const RECORDS = 7;

beforeAll(async () => {
  scenario = await recordScenario();
  request = JSON.parse(toOtlpJson(scenario.spans));
});

async function readContent(content: string | Buffer): Promise<{ records: TraceRecord[]; stats: ReadStats }> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'input');
    writeFileSync(file, content);
    const stats = createReadStats();
    const records: TraceRecord[] = [];
    for await (const r of readTraceInputs([file], stats)) records.push(r);
    return { records, stats };
  });
}

describe('format detection', () => {
  it('a document whose first line is "{" is parsed whole', async () => {
    const { records, stats } = await readContent(JSON.stringify(request, null, 2));
    expect(stats.problems).toEqual([]);
    expect(records).toHaveLength(RECORDS);
    expect(records[0]!.source.line).toBe(0);
  });

  it('a document whose first line opens an object inline ({"resourceSpans": [) is parsed whole', async () => {
    const text = JSON.stringify(request, null, 1).replace(/^\{\n\s*/, '{');
    expect(text.split('\n')[0]).toBe('{"resourceSpans": [');
    const { records, stats } = await readContent(text);
    expect(stats.problems).toEqual([]);
    expect(records).toHaveLength(RECORDS);
  });

  it('JSON lines whose first line is broken stay JSON lines: line 1 reported, the rest read', async () => {
    const line = JSON.stringify(request);
    const { records, stats } = await readContent(`{"resourceSpans":[{"resou\n${line}\n`);
    expect(records).toHaveLength(RECORDS);
    expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'bad-line' })]);
  });

  it('a pretty document cut short is one bad-line problem at the line where it stops, not an exception', async () => {
    const text = JSON.stringify(request, null, 2);
    const cut = text.slice(0, text.length / 2);
    const { records, stats } = await readContent(cut);
    expect(records).toEqual([]);
    const lastLine = cut.trimEnd().split('\n').length;
    expect(lastLine).toBeGreaterThan(1);
    expect(stats.problems).toEqual([expect.objectContaining({ line: lastLine, kind: 'bad-line' })]);
    expect(stats.problems[0]!.reason).toMatch(/JSON document is not valid \(truncated or corrupt\)/);
  });

  it('a pretty document broken in the middle is reported at the broken line', async () => {
    const lines = JSON.stringify(request, null, 2).split('\n');
    lines[5] = lines[5]!.replace(/^(\s*)/, '$1@');
    const { records, stats } = await readContent(lines.join('\n'));
    expect(records).toEqual([]);
    expect(stats.problems).toEqual([expect.objectContaining({ line: 6, kind: 'bad-line' })]);
  });

  it('a byte-order mark, CRLF line ends and blank lines are accepted', async () => {
    const line = JSON.stringify(request);
    const lines = await readContent(Buffer.from(`\ufeff${line}\r\n\r\n  \n`));
    expect(lines.stats.problems).toEqual([]);
    expect(lines.records).toHaveLength(RECORDS);
    expect(lines.stats.lines).toBe(1);
    const doc = await readContent(
      Buffer.from(`\ufeff${JSON.stringify(request, null, 2).replaceAll('\n', '\r\n')}`),
    );
    expect(doc.stats.problems).toEqual([]);
    expect(doc.records).toHaveLength(RECORDS);
  });

  it('a JSON array of export requests (pretty or on one line)', async () => {
    const half = Math.ceil(scenario.spans.length / 2);
    const parts = [scenario.spans.slice(0, half), scenario.spans.slice(half)].map(
      (s) => JSON.parse(toOtlpJson(s)) as unknown,
    );
    for (const text of [JSON.stringify(parts, null, 2), JSON.stringify(parts)]) {
      const { records, stats } = await readContent(text);
      expect(stats.problems).toEqual([]);
      expect(records).toHaveLength(RECORDS);
    }
  });

  it('a line without a routing span is counted without parsing, one span per item of each spans list', async () => {
    const plain = JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                { startTimeUnixNano: '1', name: 'a' },
                { startTimeUnixNano: 2, events: [{ timeUnixNano: '3' }] },
              ],
            },
          ],
        },
      ],
    });
    const { stats } = await readContent(`${plain}\n`);
    expect(stats).toMatchObject({ spans: 2, nonRoutingSpans: 2, problems: [] });
  });

  it('the count is exact: a span without a start time counts, a string or key named like one does not', async () => {
    const plain = JSON.stringify({
      resourceSpans: [
        {
          resource: {
            attributes: [{ key: 'startTimeUnixNano', value: { stringValue: '"startTimeUnixNano"' } }],
          },
          scopeSpans: [
            { spans: [{ name: 'no start time' }, { name: 'startTimeUnixNano', startTimeUnixNano: '1' }] },
          ],
        },
      ],
    });
    const { stats } = await readContent(`${plain}\n`);
    expect(stats).toMatchObject({ spans: 2, nonRoutingSpans: 2, problems: [] });
  });

  it('a line of JSON that is not a trace is reported, and none of its keys is counted as a span', async () => {
    const lines = [
      JSON.stringify({ foo: { startTimeUnixNano: '1' }, operationName: 'x' }),
      JSON.stringify({ traces: [{ traceID: 'abc', rootServiceName: 'svc', startTimeUnixNano: '1' }] }),
      JSON.stringify(request),
    ];
    const { records, stats } = await readContent(`${lines.join('\n')}\n`);
    expect(records).toHaveLength(RECORDS);
    expect(stats.spans).toBe(scenario.spans.length);
    expect(stats.problems.map((p) => [p.line, p.kind])).toEqual([
      [1, 'bad-line'],
      [2, 'bad-line'],
    ]);
    expect(stats.problems[0]!.reason).toMatch(/not a trace export .*found keys "foo", "operationName"/);
    expect(stats.problems[1]!.reason).toMatch(/Tempo search result holds no full spans/);
  });

  it('metrics and logs requests sharing the file with traces are skipped, not reported', async () => {
    const metrics = JSON.stringify({
      resourceMetrics: [
        {
          scopeMetrics: [
            { metrics: [{ name: 'm', sum: { dataPoints: [{ startTimeUnixNano: '1', asInt: '3' }] } }] },
          ],
        },
      ],
    });
    const logs = JSON.stringify({
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: '1', body: { stringValue: 'x' } }] }] }],
    });
    const { records, stats } = await readContent(`${metrics}\n${JSON.stringify(request)}\n${logs}\n`);
    expect(stats.problems).toEqual([]);
    expect(records).toHaveLength(RECORDS);
    expect(stats.spans).toBe(scenario.spans.length);
  });

  it('a torn first line ("{" alone, or binary garbage) before JSON lines: line 1 reported, every request read', async () => {
    const line = JSON.stringify(request);
    const other = line.replace(
      /"traceId":"([0-9a-f]{32})"/g,
      (_m, id: string) => `"traceId":"${id.slice(1)}f"`,
    );
    for (const torn of [Buffer.from('{'), Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x01])]) {
      const { records, stats } = await readContent(
        Buffer.concat([torn, Buffer.from(`\n${line}\n${other}\n`)]),
      );
      expect(records).toHaveLength(2 * RECORDS);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'bad-line' })]);
    }
  });

  describe('a JSON array written one element per line', () => {
    const element = (k: number): string =>
      JSON.stringify(request).replace(
        /"traceId":"([0-9a-f]{32})"/g,
        (_m, id: string) => `"traceId":"${k.toString(16).padStart(2, '0')}${id.slice(2)}"`,
      );

    it('[ / {…}, / {…} / ]: every element read, none reported', async () => {
      const { records, stats } = await readContent(`[\n${element(1)},\n${element(2)},\n${element(3)}\n]\n`);
      expect(stats.problems).toEqual([]);
      expect(records).toHaveLength(3 * RECORDS);
      expect(records.map((r) => r.source.line).filter((l, i, a) => a.indexOf(l) === i)).toEqual([2, 3, 4]);
      expect(stats.spans).toBe(3 * scenario.spans.length);
    });

    it("[{…}, / {…}] with CRLF: the brackets on the element lines are the array's", async () => {
      const { records, stats } = await readContent(`[${element(1)},\r\n${element(2)}]\r\n`);
      expect(stats.problems).toEqual([]);
      expect(records).toHaveLength(2 * RECORDS);
    });

    it('cut short after an element: the elements before are read, one problem says the array was not closed', async () => {
      const { records, stats } = await readContent(`[\n${element(1)},\n${element(2)},\n`);
      expect(records).toHaveLength(2 * RECORDS);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 4, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/without its closing \]/);
    });

    it('cut inside an element: that element is the one problem, at its line', async () => {
      const cut = element(2).slice(0, 300);
      const { records, stats } = await readContent(`[\n${element(1)},\n${cut}`);
      expect(records).toHaveLength(RECORDS);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 3, kind: 'bad-line' })]);
    });

    it('a pretty-printed array is still one document', async () => {
      const { records, stats } = await readContent(JSON.stringify([request], null, 2));
      expect(stats.problems).toEqual([]);
      expect(records).toHaveLength(RECORDS);
      expect(records[0]!.source.line).toBe(0);
    });
  });

  it('a pretty document torn after two lines, then JSON lines: read as lines once the document fails', async () => {
    const { records, stats } = await readContent(`{\n  "resourceSpans": [\n${JSON.stringify(request)}\n`);
    expect(records).toHaveLength(RECORDS);
    expect(stats.problems.map((p) => p.line)).toEqual([1, 2]);
    expect(stats.lines).toBe(3);
  });
});
