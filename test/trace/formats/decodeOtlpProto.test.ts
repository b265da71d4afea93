/**
 * decodeOtlpProto — the hand-rolled wire reader agrees with the real serializers and survives what the wire
 * format allows: fields in any order, unknown fields of every wire type, negative int64; malformed bytes throw
 * ProtoWireError, never anything else.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTraceRecordBuilder } from '../../../src/trace/buildTraceRecords.js';
import {
  ProtoWireError,
  countOtlpProtoSpans,
  decodeOtlpProtoRequest,
} from '../../../src/trace/formats/decodeOtlpProto.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import { readJsonTraceValue } from '../../../src/trace/formats/readJsonTraceValue.js';
import type { DecisionRecord, TraceRecord } from '../../../src/record/types.js';
import {
  recordPlainSpans,
  recordScenario,
  toOtlpJson,
  toOtlpProto,
  type Scenario,
} from '../traceScenario.js';

const SOURCE = { file: 't', line: 1 };

function varint(n: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? b | 0x80 : b);
  } while (v > 0n);
  return Buffer.from(out);
}
const tag = (field: number, wire: number): Buffer => varint(field * 8 + wire);
const len = (field: number, body: Buffer | string): Buffer => {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([tag(field, 2), varint(b.length), b]);
};
const fixed64 = (field: number, value: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(value);
  return Buffer.concat([tag(field, 1), b]);
};
const double = (field: number, value: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value);
  return Buffer.concat([tag(field, 1), b]);
};
const kv = (key: string, value: Buffer): Buffer => Buffer.concat([len(1, key), len(2, value)]);
/** Unknown fields of every wire type, under field numbers OTLP does not use here. */
const unknown = Buffer.concat([
  tag(900, 0),
  varint(7),
  tag(901, 1),
  Buffer.alloc(8),
  len(902, 'x'),
  tag(903, 5),
  Buffer.alloc(4),
]);

function decode(bytes: Buffer): { records: TraceRecord[]; stats: ReturnType<typeof createReadStats> } {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  decodeOtlpProtoRequest(bytes, SOURCE, createTraceRecordBuilder(stats), records);
  return { records, stats };
}

let scenario: Scenario;
beforeAll(async () => {
  scenario = await recordScenario();
});

describe('decodeOtlpProto', () => {
  it('law: the real protobuf serializer and the real JSON serializer of the same spans give the same records', () => {
    const fromProto = decode(toOtlpProto(scenario.spans));
    const stats = createReadStats();
    const fromJson: TraceRecord[] = [];
    expect(
      readJsonTraceValue(
        JSON.parse(toOtlpJson(scenario.spans)),
        SOURCE,
        createTraceRecordBuilder(stats),
        fromJson,
      ),
    ).toBeUndefined();
    expect(fromProto.records).toHaveLength(7);
    expect(fromProto.records).toEqual(fromJson);
    expect(fromProto.stats).toEqual(stats);
  });

  it('fields in reverse order, the resource after its spans, unknown fields everywhere: still read', () => {
    const ev = Buffer.concat([
      unknown,
      len(3, kv('agentfootprint.routing.misroute.expected', len(1, 'refunds'))),
      len(2, 'agentfootprint.routing.misrouted'),
      fixed64(1, 1_700_000_000_500_000_000n),
    ]);
    const strings = (xs: string[]): Buffer => len(5, Buffer.concat(xs.map((x) => len(1, len(1, x)))));
    const numbers = (xs: number[]): Buffer => len(5, Buffer.concat(xs.map((x) => len(1, double(4, x)))));
    const span = Buffer.concat([
      unknown,
      len(15, Buffer.concat([unknown, tag(3, 0), varint(2)])),
      len(11, ev),
      len(9, kv('agentfootprint.routing.verdict', len(1, 'stay'))),
      len(9, kv('agentfootprint.routing.decisive', Buffer.concat([tag(2, 0), varint(0)]))),
      len(9, kv('agentfootprint.routing.candidate.ids', strings(['a', 'b']))),
      len(9, kv('agentfootprint.routing.candidate.scores', numbers([0.5, 0.49]))),
      len(9, kv('agentfootprint.routing.candidate.relevances', numbers([0.6, 0.4]))),
      len(9, kv('agentfootprint.routing.policy.near_tie_margin', double(4, 0.15))),
      len(9, kv('agentfootprint.routing.policy.menu_size', Buffer.concat([tag(3, 0), varint(3)]))),
      len(9, kv('agentfootprint.routing.floor_declared', Buffer.concat([tag(2, 0), varint(0)]))),
      len(9, kv('app.negative', Buffer.concat([tag(3, 0), varint(-5n)]))),
      len(9, kv('app.bytes', len(7, Buffer.from([1, 2, 3])))),
      fixed64(7, 1_700_000_000_123_456_789n),
      len(5, 'agentfootprint.routing.tier2'),
      len(4, Buffer.alloc(0)),
      len(2, Buffer.from('00000000000000ab', 'hex')),
      len(1, Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex')),
    ]);
    const resource = len(1, Buffer.concat([unknown, len(1, kv('service.name', len(1, 'svc')))]));
    const scope = len(2, Buffer.concat([len(2, span), unknown, len(1, len(1, 'scope'))]));
    const request = Buffer.concat([unknown, len(1, Buffer.concat([scope, unknown, resource]))]);
    const { records, stats } = decode(request);
    expect(stats.problems).toEqual([]);
    expect(records).toHaveLength(1);
    const d = records[0] as DecisionRecord;
    expect(d).toMatchObject({
      kind: 'decision',
      verdict: 'stay',
      decisive: false,
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: '00000000000000ab',
      service: 'svc',
      error: true,
      ranked: [
        { id: 'a', score: 0.5, relevance: 0.6 },
        { id: 'b', score: 0.49, relevance: 0.4 },
      ],
      policy: { nearTieMargin: 0.15, menuSize: 3 },
      misroutes: [{ expected: 'refunds', timeUnixMs: 1_700_000_000_500 }],
    });
    expect(d.parentSpanId).toBeUndefined();
    expect(d.timeUnixMs).toBeCloseTo(1_700_000_000_123.4568, 3);
  });

  it('law: any truncation of a real request either reads or throws ProtoWireError — nothing else', () => {
    const bytes = toOtlpProto(scenario.spans);
    fc.assert(
      fc.property(fc.nat({ max: bytes.length - 1 }), (cut) => {
        try {
          decode(bytes.subarray(0, cut));
        } catch (error) {
          expect(error).toBeInstanceOf(ProtoWireError);
        }
      }),
    );
  });

  it('law: random bytes either read or throw ProtoWireError; never hang', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (raw) => {
        try {
          decode(Buffer.from(raw));
        } catch (error) {
          expect(error).toBeInstanceOf(ProtoWireError);
        }
      }),
    );
  });

  it("law: counting without decoding gives the decoder's span count; a cut request counts or throws ProtoWireError", async () => {
    const plain = await recordPlainSpans(37);
    for (const spans of [plain, scenario.spans, [...plain, ...scenario.spans]]) {
      const bytes = toOtlpProto(spans);
      expect(countOtlpProtoSpans(bytes)).toBe(spans.length);
      expect(decode(bytes).stats.spans).toBe(spans.length);
    }
    const bytes = toOtlpProto(plain);
    fc.assert(
      fc.property(fc.nat({ max: bytes.length - 1 }), (cut) => {
        try {
          expect(countOtlpProtoSpans(bytes.subarray(0, cut))).toBeLessThanOrEqual(plain.length);
        } catch (error) {
          expect(error).toBeInstanceOf(ProtoWireError);
        }
      }),
    );
  });
});
