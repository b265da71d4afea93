/**
 * otlpProtoToJson — a protobuf request becomes the OTLP/JSON of the same request: every field the real OTel JSON
 * serializer writes for the same spans is there with the same value (64-bit integers as strings, which OTLP/JSON
 * allows for both), the CLI's reader gets the same records from either, and malformed bytes throw ProtoWireError.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createTraceRecordBuilder } from '../../../src/trace/buildTraceRecords.js';
import { otlpProtoToJson } from '../../../src/trace/formats/otlpProtoToJson.js';
import { ProtoWireError } from '../../../src/trace/formats/protoWire.js';
import { readJsonTraceValue } from '../../../src/trace/formats/readJsonTraceValue.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import type { TraceRecord } from '../../../src/record/types.js';
import {
  recordPlainSpans,
  recordScenario,
  toOtlpJson,
  toOtlpProto,
  type Scenario,
} from '../traceScenario.js';

let scenario: Scenario;
beforeAll(async () => {
  scenario = await recordScenario();
});

/** `actual` holds every field of `expected` with an equal value; an integer may be written as its string. */
function expectSubset(actual: unknown, expected: unknown, at: string): void {
  if (typeof expected === 'number' && typeof actual === 'string' && Number.isInteger(expected)) {
    expect(actual, at).toBe(String(expected));
    return;
  }
  if (expected === null || typeof expected !== 'object') {
    expect(actual, at).toEqual(expected);
    return;
  }
  expect(typeof actual, at).toBe('object');
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), at).toBe(true);
    expect((actual as unknown[]).length, at).toBe(expected.length);
    expected.forEach((e, i) => expectSubset((actual as unknown[])[i], e, `${at}[${i}]`));
    return;
  }
  for (const [key, value] of Object.entries(expected as Record<string, unknown>)) {
    if (value === undefined) continue;
    expectSubset((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
  }
}

function recordsOf(value: unknown): TraceRecord[] {
  const stats = createReadStats();
  const out: TraceRecord[] = [];
  expect(
    readJsonTraceValue(value, { file: 'x', line: 1 }, createTraceRecordBuilder(stats), out),
  ).toBeUndefined();
  return out.map((r) => ({ ...r, source: { file: 'x', line: 1 } }));
}

describe('otlpProtoToJson', () => {
  it('writes every field the real JSON serializer writes, with the same values', async () => {
    const spans = [...scenario.spans, ...(await recordPlainSpans(5))];
    const converted = otlpProtoToJson(toOtlpProto(spans));
    expectSubset(converted, JSON.parse(toOtlpJson(spans)) as unknown, 'request');
  });

  it('the CLI reads the same records from the converted request as from the JSON one', () => {
    const fromProto = recordsOf(otlpProtoToJson(toOtlpProto(scenario.spans)));
    const fromJson = recordsOf(JSON.parse(toOtlpJson(scenario.spans)) as unknown);
    expect(fromProto.length).toBeGreaterThan(0);
    expect(fromProto).toEqual(fromJson);
  });

  it('an empty request is an empty list; bytes cut short throw ProtoWireError', () => {
    expect(otlpProtoToJson(Buffer.alloc(0))).toEqual({ resourceSpans: [] });
    const bytes = toOtlpProto(scenario.spans);
    for (const cut of [1, 7, Math.floor(bytes.length / 2), bytes.length - 1])
      expect(() => otlpProtoToJson(bytes.subarray(0, cut)), `cut at ${cut}`).toThrow(ProtoWireError);
  });
});
