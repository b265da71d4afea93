/**
 * scanOtlpJsonLine — the selective read of a routing line gives exactly what a whole JSON.parse gives.
 *
 * Law (fast-check): for any OTLP/JSON request built from real routing and plain spans, reshaped the ways
 * writers differ (key order, whitespace, int64 as strings, extra keys holding any JSON, strings full of
 * brackets and quotes, non-object span items), reading the scan's value yields the same records and the
 * same stats as reading JSON.parse of the line — or the scan declines (undefined) and the caller parses whole.
 * Lines it must decline: cut short, glued, a duplicate key it depends on, the legacy scope name, \u escapes of
 * letters, digits, `.`, `_` and `-` (what keys and the marker are made of); other escapes are read.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTraceRecordBuilder } from '../../../../src/trace/buildTraceRecords.js';
import { createReadStats } from '../../../../src/trace/readStats.js';
import { readJsonTraceValue } from '../../../../src/trace/formats/readJsonTraceValue.js';
import { ROUTING_MARKER } from '../../../../src/trace/formats/readLimits.js';
import { scanOtlpJsonLine } from '../../../../src/trace/formats/fastPath/scanOtlpJsonLine.js';
import type { TraceRecord } from '../../../../src/record/types.js';
import { recordPlainSpans, recordScenario, toOtlpJson } from '../../traceScenario.js';
import { propertyRuns } from '../../../helpers/propertyRuns.js';

type Json = Record<string, unknown>;
const MARKER = Buffer.from(ROUTING_MARKER);

let routingRequest: Json;
let plainRequest: Json;

beforeAll(async () => {
  routingRequest = JSON.parse(toOtlpJson((await recordScenario()).spans)) as Json;
  plainRequest = JSON.parse(toOtlpJson(await recordPlainSpans(6))) as Json;
});

function readValue(value: unknown): { records: TraceRecord[]; stats: unknown; reason: string | undefined } {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  const reason = readJsonTraceValue(value, { file: 'f', line: 1 }, createTraceRecordBuilder(stats), records);
  return { records, stats, reason };
}

/** Read `line` both ways; the scan must agree with the whole parse whenever it answers. */
function expectSameAsWholeParse(line: string): boolean {
  const body = Buffer.from(line);
  const scanned = scanOtlpJsonLine(body, MARKER);
  if (scanned === undefined) return false;
  expect(readValue(scanned)).toEqual(readValue(JSON.parse(line)));
  return true;
}

/** Every object's keys in a shuffled order (by the seed), int64-ish numbers as strings when asked. */
function reshape(value: unknown, seed: number, int64AsStrings: boolean): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reshape(v, seed + i, int64AsStrings));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Json);
  entries.sort((a, b) => ((a[0].length * 31 + seed) % 7) - ((b[0].length * 31 + seed) % 7) || 0);
  const out: Json = {};
  for (const [k, v] of entries) {
    out[k] = int64AsStrings && k === 'intValue' ? String(v) : reshape(v, seed * 3 + 1, int64AsStrings);
  }
  return out;
}

/** JSON text with random whitespace between tokens (outside strings). */
function spaced(text: string, gaps: readonly number[]): string {
  let out = '';
  let inString = false;
  let g = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    out += c;
    if (inString) {
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if ('{[,:'.includes(c)) out += ' \t\r\n '.slice(0, (gaps[g++ % Math.max(gaps.length, 1)] ?? 0) % 5);
  }
  return out;
}

const extraArb = fc.dictionary(
  fc
    .string({ maxLength: 8 })
    .filter((k) => !/^(resourceSpans|resource|scopeSpans|spans|instrumentationLibrarySpans)$/.test(k)),
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.string().map((s) => `{[${s}"]}\\`),
    // Long strings: past its first bytes the scanner searches natively; an escaped quote must not end them.
    fc.string({ minLength: 40, maxLength: 160 }).map((s) => `${s}\\"\\\\${s}\\`),
  ),
  { maxKeys: 3 },
);

describe('scanOtlpJsonLine', () => {
  it('reads what a whole parse reads, for any reshaped request (fast-check)', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.nat(1000),
        fc.boolean(),
        fc.array(fc.nat(9), { maxLength: 40 }),
        extraArb,
        extraArb,
        fc.array(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ name: 'plain {"x":[1]}' })), {
          maxLength: 3,
        }),
        fc.boolean(),
        (seed, int64AsStrings, gaps, spanExtra, scopeExtra, oddSpans, withPlain) => {
          const request = structuredClone(routingRequest) as {
            resourceSpans: Array<Json & { scopeSpans: Array<Json & { spans: unknown[] }> }>;
          };
          if (withPlain)
            request.resourceSpans.push(...(structuredClone(plainRequest).resourceSpans as never[]));
          const firstScope = request.resourceSpans[0]!.scopeSpans[0]!;
          Object.assign(firstScope, scopeExtra);
          const firstSpan = firstScope.spans[0] as Json;
          for (const [k, v] of Object.entries(spanExtra)) if (!Object.hasOwn(firstSpan, k)) firstSpan[k] = v;
          firstScope.spans.push(...oddSpans);
          const line = spaced(JSON.stringify(reshape(request, seed, int64AsStrings)), gaps);
          if (expectSameAsWholeParse(line)) answered++;
        },
      ),
      { numRuns: propertyRuns(150) },
    );
    // Declining is always allowed; declining everything would make the fast path useless.
    expect(answered).toBeGreaterThan(100);
  });

  it('finds the routing records of a real request and counts the rest', () => {
    const line = JSON.stringify(routingRequest);
    expect(expectSameAsWholeParse(line)).toBe(true);
    const { records, stats } = readValue(scanOtlpJsonLine(Buffer.from(line), MARKER));
    expect(records.length).toBeGreaterThan(0);
    expect((stats as { nonRoutingSpans: number }).nonRoutingSpans).toBeGreaterThan(0);
  });

  it('walks nesting deeper than its first bracket stack, and refuses brackets that close the wrong kind', () => {
    const request = structuredClone(routingRequest) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Json[] }> }>;
    };
    const spans = request.resourceSpans[0]!.scopeSpans[0]!.spans;
    spans.push({ name: 'deep', extra: JSON.parse(`${'['.repeat(300)}1${']'.repeat(300)}`) as unknown });
    const line = JSON.stringify(request);
    expect(expectSameAsWholeParse(line)).toBe(true);
    const wrongKind = line.replace(`1${']'.repeat(300)}`, `1${']'.repeat(299)}}`);
    expect(scanOtlpJsonLine(Buffer.from(wrongKind), MARKER)).toBeUndefined();
  });

  it('walks nesting on both sides of its fast-path depth, and refuses a wrong closer at any depth', () => {
    for (const depth of [1, 2, 28, 29, 30, 31, 32, 60]) {
      const request = structuredClone(routingRequest) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: Json[] }> }>;
      };
      const nested = `${'[{"a":'.repeat(depth)}424242${'}]'.repeat(depth)}`;
      request.resourceSpans[0]!.scopeSpans[0]!.spans.push({
        name: 'nested',
        extra: JSON.parse(nested) as unknown,
      });
      const line = JSON.stringify(request);
      expect(expectSameAsWholeParse(line), `depth ${depth}`).toBe(true);
      // The innermost object closed with `]`, or the innermost array closed with `}`.
      // Bracket counts stay balanced, so only the kind check can tell.
      const tail = `424242${'}]'.repeat(depth)}`;
      expect(line).toContain(tail);
      const objectWrong = line.replace(tail, `424242]${'}]'.repeat(depth - 1)}}`);
      const arrayWrong = line.replace(tail, `424242}}${'}]'.repeat(depth - 1)}`);
      expect(scanOtlpJsonLine(Buffer.from(objectWrong), MARKER), `depth ${depth}`).toBeUndefined();
      expect(scanOtlpJsonLine(Buffer.from(arrayWrong), MARKER), `depth ${depth}`).toBeUndefined();
    }
    // A whole span item closed by the wrong kind: nothing after it can give the mistake away.
    const line = JSON.stringify(routingRequest);
    const lastSpan = line.lastIndexOf('{"traceId"');
    expect(lastSpan).toBeGreaterThan(0);
    const withItem = (item: string): string => `${line.slice(0, lastSpan)}${item},${line.slice(lastSpan)}`;
    expect(expectSameAsWholeParse(withItem('{"a":[424242]}'))).toBe(true);
    for (const wrong of ['{"a":424242]', '[424242}'])
      expect(scanOtlpJsonLine(Buffer.from(withItem(wrong)), MARKER), wrong).toBeUndefined();
  });

  it('reads lines whose strings hold \\u escapes of other characters, as HTML-escaping and ASCII-only encoders write them', () => {
    /** The same JSON text with <, > and & escaped (Go's default) and every non-ASCII character escaped (ASCII-only writers). */
    const escaped = (text: string): string =>
      text
        .replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
        (inRoutingSpan, elsewhere) => {
          const request = structuredClone(routingRequest) as {
            resourceSpans: Array<Json & { resource: Json; scopeSpans: Array<Json & { spans: Json[] }> }>;
          };
          const first = request.resourceSpans[0]!;
          first.resource.note = `<b>${elsewhere}</b> & é`;
          const spans = first.scopeSpans[0]!.spans;
          spans[0]!.name = `<${inRoutingSpan}> & 漢 😀`;
          spans.push({ name: `plain <${elsewhere}> & ü`, traceId: 'x' });
          const line = escaped(JSON.stringify(request));
          expect(line).toContain('\\u003c');
          expect(expectSameAsWholeParse(line)).toBe(true);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('declines what it does not handle, so the caller parses the line whole', () => {
    const line = JSON.stringify(routingRequest);
    const declined = [
      line.slice(0, -1),
      line.slice(0, Math.floor(line.length / 2)),
      line + line,
      line + ' x',
      line.replace('{"resourceSpans":', '{"resourceSpans":[],"resourceSpans":'),
      line.replace('"scopeSpans"', '"instrumentationLibrarySpans"'),
      line.replace('"scopeSpans":[{', '"scopeSpans":[{"spans":[],'),
      line.replace('{"resourceSpans"', '{"other":1,"resourceSpans"'),
      line.replace('agentfootprint.routing.verdict', 'agentfootprint.routing.\\u0076erdict'),
      line.replace('agentfootprint.routing', 'agentfootprint\\u002erouting'),
      line.replace('"spans":', '"span\\u0073":'),
      line.replace('"resource":', '"resourc\\u0045":'),
      line.replace('"name":"', '"name":"\\u005f'),
      line.replace('"name":"', '"name":"\\u00zz'),
      `${line.slice(0, -1)}\\u0`,
      line.replace(':', ':\u00ff'),
      line.replace('"resource":', '"resource":{},"resource":'),
      `[${line}]`,
    ];
    for (const text of declined)
      expect(scanOtlpJsonLine(Buffer.from(text), MARKER), text.slice(0, 80)).toBeUndefined();
  });

  it('a routing span whose brackets balance but whose tokens are not JSON is declined', () => {
    const line = JSON.stringify(routingRequest);
    // The walk checks brackets and which bytes stand between tokens; the tokens themselves are checked by
    // JSON.parse of the routing span's slice.
    const span = line.indexOf('"agentfootprint.routing.verdict"');
    expect(span).toBeGreaterThan(0);
    const inRoutingSpan = (from: string, to: string): string => {
      const at = line.indexOf(from, span);
      expect(at, from).toBeGreaterThan(0);
      return line.slice(0, at) + to + line.slice(at + from.length);
    };
    const broken = [
      inRoutingSpan('"kind":1,', '"kind":01,'),
      inRoutingSpan('"kind":1,', '"kind":-,'),
      inRoutingSpan('"kind":1,', '"kind":1.,'),
      inRoutingSpan('"kind":1,', '"kind":1e,'),
      inRoutingSpan('"kind":1,', '"kind":1e+,'),
      inRoutingSpan('"kind":1,', '"kind":+1,'),
      inRoutingSpan('"kind":', '"kind":tru,"k":'),
      inRoutingSpan('"kind":', '"kind":nul,"k":'),
      inRoutingSpan('"kind":', '"kind":1 2,"k":'),
      inRoutingSpan('"stringValue":"', '"stringValue":"\\x'),
      inRoutingSpan('"stringValue":"', '"stringValue":"\\u12g4'),
      inRoutingSpan('"stringValue":"', '"stringValue":"	'),
      inRoutingSpan('"key":', '"key"::'),
      inRoutingSpan('"key":', '"key",'),
      inRoutingSpan('"key":', ',"key":'),
      inRoutingSpan('{"key":', '{,"key":'),
      inRoutingSpan('"stringValue"', '"stringValue":1,'),
      inRoutingSpan('"key":', '1:'),
    ];
    for (const text of broken) {
      expect(() => JSON.parse(text), text.slice(span, span + 60)).toThrow();
      expect(scanOtlpJsonLine(Buffer.from(text), MARKER), text.slice(span, span + 60)).toBeUndefined();
    }
  });
});
