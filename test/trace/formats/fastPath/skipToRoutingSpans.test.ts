/**
 * skipToRoutingSpans — the skipping read of a Collector line gives exactly what a whole JSON.parse gives, or
 * declines and leaves the line to the walk.
 *
 * Laws (fast-check): any request in the Collector's compact shape — routing and plain spans spread over
 * resource items (with or without a resource, with or without schemaUrl) and scopes, empty `links` lists as the
 * JS exporter writes them — is read by skipping (never declined) into the same records and stats as JSON.parse
 * of the line, in one thread and in the `--jobs` hand-off; and a prefix of a request cut at any byte is always
 * declined, so the walk reports it. Named cases: each assumption broken is declined; and the two things it
 * cannot see (damage in the middle of a line outside routing spans, a span with no ids among spans with ids)
 * are seen by the exact read.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTraceRecordBuilder } from '../../../../src/trace/buildTraceRecords.js';
import type { FileContext } from '../../../../src/trace/formats/fileContext.js';
import { DEFAULT_EVENT_LOG_OPTIONS } from '../../../../src/trace/formats/readAgentfootprintEvent.js';
import { readJsonTraceValue } from '../../../../src/trace/formats/readJsonTraceValue.js';
import { ROUTING_MARKER } from '../../../../src/trace/formats/readLimits.js';
import { readWithoutParsing } from '../../../../src/trace/formats/fastPath/readWithoutParsing.js';
import { skipToRoutingSpans } from '../../../../src/trace/formats/fastPath/skipToRoutingSpans.js';
import { createReadStats } from '../../../../src/trace/readStats.js';
import { readTraceInputs } from '../../../../src/trace/readTraceInputs.js';
import type { ReadStats, ScannerChoice } from '../../../../src/trace/types.js';
import { loadSimdScanner } from '../../../../src/trace/formats/fastPath/simd/simdNeedles.js';
import type { TraceRecord } from '../../../../src/record/types.js';
import { recordPlainSpans, recordScenario, toOtlpJson, withTempDir } from '../../traceScenario.js';
import { propertyRuns } from '../../../helpers/propertyRuns.js';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

type Json = Record<string, unknown>;
const MARKER = Buffer.from(ROUTING_MARKER);

/** Routing spans (and the scenario's plain ones) and plain spans, as span objects, and one resource. */
let routingSpans: Json[];
let plainSpans: Json[];
let resource: Json;

function spansOf(request: Json): Json[] {
  const items = request.resourceSpans as Array<{ scopeSpans: Array<{ spans: Json[] }> }>;
  return items.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

beforeAll(async () => {
  const routing = JSON.parse(toOtlpJson((await recordScenario()).spans)) as Json;
  routingSpans = spansOf(routing);
  resource = (routing.resourceSpans as Json[])[0]!.resource as Json;
  plainSpans = spansOf(JSON.parse(toOtlpJson(await recordPlainSpans(6))) as Json);
});

/** What reading a line gives: the records, and the stats without the per-file figures. */
function readWhole(line: string): { records: TraceRecord[]; stats: ReadStats } {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  readJsonTraceValue(JSON.parse(line), { file: 'f', line: 1 }, createTraceRecordBuilder(stats), records);
  return { records, stats: withoutScan(stats) };
}

/** Stats with the scan path set aside: which scanner read is the one figure the paths may not share. */
function withoutScan(stats: ReadStats): ReadStats {
  return { ...stats, scan: createReadStats().scan };
}

/**
 * The line through the fast path's seam, in one thread (or with `exact`), by the SIMD scanner unless `scanner`
 * says otherwise: what it read, and whether it did. The stats leave out which scanner read (`scan`).
 */
function readFast(
  line: string,
  exact = false,
  scanner: ScannerChoice = 'simd',
): { records: TraceRecord[]; stats: ReadStats; read: boolean } {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  const ctx: FileContext = {
    file: 'f',
    named: true,
    stats,
    builder: createTraceRecordBuilder(stats),
    events: DEFAULT_EVENT_LOG_OPTIONS,
    exact,
    scanner,
    line: 1,
  };
  const read = readWithoutParsing(ctx, Buffer.from(line), 1, records, (c, value, at, out) => {
    readJsonTraceValue(value, { file: c.file, line: at }, c.builder, out);
  });
  return { records, stats: withoutScan(stats), read };
}

/**
 * What skipToRoutingSpans finds on a line written by JSON.stringify is exactly each span's and resource's
 * JSON text: the spans holding the marker, grouped by their resource item, in order, and every span counted.
 */
function expectExactRanges(line: string): void {
  const body = Buffer.from(line);
  const skipped = skipToRoutingSpans(body, MARKER);
  expect(skipped, line.slice(0, 120)).toBeDefined();
  const items = (
    JSON.parse(line) as { resourceSpans: Array<Json & { scopeSpans: Array<{ spans: Json[] }> }> }
  ).resourceSpans;
  const expected = items.flatMap((rs) => {
    const spans = rs.scopeSpans
      .flatMap((ss) => ss.spans)
      .map((span) => JSON.stringify(span))
      .filter((text) => text.includes(ROUTING_MARKER));
    if (spans.length === 0) return [];
    return [{ resource: rs.resource === undefined ? undefined : JSON.stringify(rs.resource), spans }];
  });
  const text = (r: { start: number; end: number }): string => body.toString('utf8', r.start, r.end);
  expect(
    skipped!.resources.map((r) => ({
      resource: r.resource === undefined ? undefined : text(r.resource),
      spans: r.spans.map(text),
    })),
  ).toEqual(expected);
  expect(skipped!.spans).toBe(items.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)).length);
}

/** A request from a layout: resource items, each with scopes, each a list of span picks. */
interface Layout {
  items: Array<{
    withResource: boolean;
    schemaUrl: boolean;
    scopes: Array<{ schemaUrl: boolean; picks: number[] }>;
  }>;
  emptyLinks: boolean;
}

function buildRequest(layout: Layout): string {
  const all = [...routingSpans, ...plainSpans];
  const request = {
    resourceSpans: layout.items.map((item) => ({
      ...(item.withResource ? { resource } : {}),
      scopeSpans: item.scopes.map((scope) => ({
        scope: { name: 'routescope' },
        spans: scope.picks.map((pick) => {
          const span = { ...all[pick % all.length]! };
          if (!layout.emptyLinks) delete span.links;
          else span.links = [];
          return span;
        }),
        ...(scope.schemaUrl ? { schemaUrl: 'https://opentelemetry.io/schemas/1.26.0' } : {}),
      })),
      ...(item.schemaUrl ? { schemaUrl: 'https://opentelemetry.io/schemas/1.26.0' } : {}),
    })),
  };
  return JSON.stringify(request);
}

const layoutArb: fc.Arbitrary<Layout> = fc.record({
  items: fc.array(
    fc.record({
      withResource: fc.boolean(),
      schemaUrl: fc.boolean(),
      scopes: fc.array(
        fc.record({ schemaUrl: fc.boolean(), picks: fc.array(fc.nat(40), { minLength: 1, maxLength: 8 }) }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  emptyLinks: fc.boolean(),
});

describe('skipToRoutingSpans', () => {
  it('cannot count a span with no ids among spans with ids; the exact read counts it', () => {
    const line = buildRequest({
      items: [
        { withResource: true, schemaUrl: false, scopes: [{ schemaUrl: false, picks: [32, 0, 1, 33] }] },
      ],
      emptyLinks: false,
    });
    // The first span is plain (a chat span): drop both of its ids.
    const first = line.indexOf('{"traceId":"');
    const idless =
      line.slice(0, first) + line.slice(first).replace(/"traceId":"[0-9a-f]+","spanId":"[0-9a-f]+",/, '');
    const whole = readWhole(idless);
    expect(whole.stats.spans).toBe(4);
    const skipped = readFast(idless);
    expect(skipped.read).toBe(true);
    expect(skipped.stats.spans).toBe(3);
    expect(skipped.records).toEqual(whole.records);
    const exact = readFast(idless, true);
    expect(exact.stats).toEqual(whole.stats);
  });

  it('reads any Collector-shaped request by skipping, into what a whole parse gives (fast-check)', () => {
    fc.assert(
      fc.property(layoutArb, (layout) => {
        const line = buildRequest(layout);
        expectExactRanges(line);
        const whole = readWhole(line);
        const fast = readFast(line);
        expect(fast.read).toBe(true);
        expect(fast.records).toEqual(whole.records);
        expect(fast.stats).toEqual(whole.stats);
        const javascript = readFast(line, false, 'javascript');
        expect(javascript.records).toEqual(whole.records);
        expect(javascript.stats).toEqual(whole.stats);
        // The exact read (the walk) agrees too.
        const exact = readFast(line, true);
        expect(exact.records).toEqual(whole.records);
        expect(exact.stats).toEqual(whole.stats);
      }),
      { numRuns: propertyRuns(120) },
    );
  });

  it('law: both scanners skip (or decline) any request, cut, spliced or with a byte changed, the same way', () => {
    const simd = loadSimdScanner();
    if (simd.kind !== 'simd') throw new Error(`the SIMD scanner did not load: ${simd.reason}`);
    const edits = fc.record({
      cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      insert: fc.constantFrom(
        '',
        '"',
        '\\u0041',
        '"links":[1]',
        ']',
        '"spanId":"ab",',
        ROUTING_MARKER,
        '"scopeSpans":[',
        'é',
      ),
      flip: fc.option(fc.nat(255)),
    });
    fc.assert(
      fc.property(layoutArb, edits, (layout, edit) => {
        let body = Buffer.from(buildRequest(layout));
        const at = Math.floor(edit.at * body.length);
        body = Buffer.concat([body.subarray(0, at), Buffer.from(edit.insert), body.subarray(at)]);
        if (edit.flip !== null) body[at] = edit.flip;
        if (edit.cut !== null) body = body.subarray(0, Math.floor(edit.cut * body.length));
        expect(skipToRoutingSpans(body, MARKER, simd.findNeedles)).toEqual(skipToRoutingSpans(body, MARKER));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('finds every span and routing span of a real request: counts and positions', () => {
    const line = buildRequest({
      items: [
        {
          withResource: true,
          schemaUrl: false,
          scopes: [{ schemaUrl: false, picks: [0, 1, 2, 3, 4, 5, 6] }],
        },
      ],
      emptyLinks: false,
    });
    const body = Buffer.from(line);
    const skipped = skipToRoutingSpans(body, MARKER)!;
    expect(skipped.spans).toBe(7);
    const found = skipped.resources
      .flatMap((r) => r.spans)
      .map((s) => JSON.parse(body.toString('utf8', s.start, s.end)) as Json);
    const expected = spansOf(JSON.parse(line) as Json).filter((s) =>
      JSON.stringify(s).includes(ROUTING_MARKER),
    );
    expect(found).toEqual(expected);
    expect(found.length).toBeGreaterThan(0);
    const r = skipped.resources[0]!.resource!;
    expect(JSON.parse(body.toString('utf8', r.start, r.end))).toEqual(resource);
  });

  it('declines a request cut at any byte, so the walk reports it', () => {
    const line = Buffer.from(
      buildRequest({
        items: [
          {
            withResource: true,
            schemaUrl: true,
            scopes: [
              { schemaUrl: true, picks: [0, 1, 2] },
              { schemaUrl: false, picks: [30] },
            ],
          },
          { withResource: false, schemaUrl: false, scopes: [{ schemaUrl: false, picks: [3, 31] }] },
        ],
        emptyLinks: true,
      }),
    );
    expect(skipToRoutingSpans(line, MARKER)).toBeDefined();
    const answered: number[] = [];
    for (let cut = 0; cut < line.length; cut++)
      if (skipToRoutingSpans(line.subarray(0, cut), MARKER) !== undefined) answered.push(cut);
    expect(answered).toEqual([]);
  });

  it('declines every line that breaks one of its assumptions', () => {
    const line = buildRequest({
      items: [{ withResource: true, schemaUrl: false, scopes: [{ schemaUrl: false, picks: [0, 1, 2, 3] }] }],
      emptyLinks: false,
    });
    expect(skipToRoutingSpans(Buffer.from(line), MARKER)).toBeDefined();
    const firstSpan = line.indexOf('{"traceId":"');
    // A routing span, then a plain one, then the later scope or item: the span search finds the plain one,
    // which ends before the marker.
    const plain = routingSpans.length;
    const twoScopes = buildRequest({
      items: [
        {
          withResource: true,
          schemaUrl: false,
          scopes: [
            { schemaUrl: false, picks: [0, 1, plain] },
            { schemaUrl: false, picks: [2, 3] },
          ],
        },
      ],
      emptyLinks: false,
    });
    const twoItems = buildRequest({
      items: [
        { withResource: true, schemaUrl: false, scopes: [{ schemaUrl: false, picks: [0, 1, plain] }] },
        { withResource: true, schemaUrl: false, scopes: [{ schemaUrl: false, picks: [2, 3] }] },
      ],
      emptyLinks: false,
    });
    // A routing span comes before the later scope and the later item, so the span search finds it first.
    expect(twoScopes.slice(0, twoScopes.lastIndexOf('"name":"routescope"'))).toContain(ROUTING_MARKER);
    expect(twoItems.slice(0, twoItems.lastIndexOf('"service.name"'))).toContain(ROUTING_MARKER);
    expectExactRanges(twoScopes);
    expectExactRanges(twoItems);
    const withLink = line.replace(
      '{"traceId":"',
      '{"links":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331"}],"traceId":"',
    );
    const broken: Record<string, string> = {
      'a span with a link (its ids would be counted)': withLink,
      'spaces between tokens (not compact)': line.replace('{"resourceSpans":[', '{"resourceSpans": ['),
      'another top-level key first (not the Collector order)': line.replace(
        '{"resourceSpans"',
        '{"x":1,"resourceSpans"',
      ),
      'a second request glued on': line + line,
      'a cut request with a whole one glued on': line.slice(0, 500) + line,
      'the legacy scope list name': line.replace('"scopeSpans"', '"instrumentationLibrarySpans"'),
      'a key spelled with a \\u escape': line.replace('"spanId"', '"span\\u0049d"'),
      'a span without ids at all': line.replace(/"traceId":"[0-9a-f]+","spanId":"[0-9a-f]+",/g, ''),
      'a span without its span id': `${line.slice(0, firstSpan)}${line.slice(firstSpan).replace(/"spanId":"[0-9a-f]+",/, '')}`,
      'the marker in the resource (outside every span)': line.replace(
        '"service.name"',
        '"agentfootprint.routing.note"',
      ),
      'the marker in the scope name': line.replace('"name":"routescope"', '"name":"agentfootprint.routing"'),
      'the marker in a later scope (after a routing span)': twoScopes.replace(
        /"name":"routescope"(?![\s\S]*"name":"routescope")/,
        '"name":"agentfootprint.routing"',
      ),
      'the marker in a later resource (after a routing span)': twoItems.replace(
        /"service\.name"(?![\s\S]*"service\.name")/,
        '"agentfootprint.routing.note"',
      ),
      'the resource after its scopes (not the Collector order)': line.replace(
        /\{"resource":(\{.*?\}),"scopeSpans":(\[.*\])\}\]\}$/,
        '{"scopeSpans":$2,"resource":$1}]}',
      ),
      'nothing after the last span but a bracket short': line.slice(0, -2) + '}',
      'a byte not a closer after the last span (1)': `${line.slice(0, -6)}x}]}]}`,
      'a byte not a closer after the last span (2)': `${line.slice(0, -5)}x]}]}`,
      'a byte not a closer after the last span (6)': `${line.slice(0, -1)}x`,
      'bytes after the request': `${line}]}`,
      'a member between the resource and the scopes': line.replace(
        ',"scopeSpans":[',
        ',"x":1,"scopeSpans":[',
      ),
      'an object member and no resource before the scopes': line.replace('{"resource":', '{"other":'),
      'an object member between the resource and the scopes': line.replace(
        ',"scopeSpans":[',
        ',"x":{},"scopeSpans":[',
      ),
    };
    for (const [what, text] of Object.entries(broken)) {
      expect(text, what).not.toBe(line);
      expect(skipToRoutingSpans(Buffer.from(text), MARKER), what).toBeUndefined();
    }
    // A routing span whose tokens are not JSON is found, but its parse fails: the line goes to the caller.
    const badTokens = line.replace('"kind":', '"kind":tru,"k":');
    expect(() => JSON.parse(badTokens)).toThrow();
    expect(readFast(badTokens).read).toBe(false);
  });

  it('reads the routing spans one by one, yet a later one that does not parse leaves nothing of the line behind', async () => {
    const line = buildRequest({
      items: [{ withResource: true, schemaUrl: false, scopes: [{ schemaUrl: false, picks: [0, 1, 32, 2] }] }],
      emptyLinks: false,
    });
    // The last routing span's kind becomes `01`: brackets and strings intact (the skip finds it), not JSON.
    const starts = [...line.matchAll(/\{"traceId"/g)].map((m) => m.index);
    const routing = starts.filter((at, i) =>
      line.slice(at, starts[i + 1] ?? line.length).includes(ROUTING_MARKER),
    );
    expect(routing.length).toBeGreaterThan(1);
    const kindAt = line.indexOf('"kind":', routing.at(-1)) + '"kind":'.length;
    const damaged = `${line.slice(0, kindAt)}0${line.slice(kindAt)}`;
    expect(() => JSON.parse(damaged)).toThrow();
    const fast = readFast(damaged);
    expect(fast.read).toBe(false);
    expect(fast.records).toEqual([]);
    expect(fast.stats).toEqual(createReadStats());
    // Through a file, the fast and the exact read agree: the good lines read, the damaged one reported, once.
    await withTempDir(async (dir) => {
      const file = join(dir, 'traces.jsonl');
      writeFileSync(file, `${line}\n${damaged}\n${line}\n`);
      const results = [];
      for (const exact of [false, true]) {
        const stats = createReadStats();
        const records: TraceRecord[] = [];
        for await (const record of readTraceInputs([file], stats, { exact })) records.push(record);
        expect(stats.problems.map((p) => [p.line, p.kind])).toEqual([[2, 'bad-line']]);
        results.push({ records, stats: withoutScan(stats) });
      }
      expect(results[0]!.records).toEqual(results[1]!.records);
      expect(results[0]!.stats).toEqual(results[1]!.stats);
      expect(results[0]!.records.length).toBeGreaterThan(0);
    });
  });

  it('cannot see damage in the middle of a line outside routing spans; the exact read reports it', async () => {
    const line = buildRequest({
      items: [
        { withResource: true, schemaUrl: false, scopes: [{ schemaUrl: false, picks: [32, 0, 1, 2, 3, 33] }] },
      ],
      emptyLinks: false,
    });
    // A bracket lost inside a plain span's attribute list: JSON.parse refuses the line.
    const plainAt = line.indexOf('"gen_ai.operation.name"');
    expect(plainAt).toBeGreaterThan(0);
    const damaged = `${line.slice(0, plainAt - 8)}${line.slice(plainAt - 7)}`;
    expect(() => JSON.parse(damaged)).toThrow();
    const content = `${line}\n${damaged}\n${line}\n`;
    await withTempDir(async (dir) => {
      const file = join(dir, 'traces.jsonl');
      writeFileSync(file, content);
      for (const exact of [false, true]) {
        const stats = createReadStats();
        for await (const record of readTraceInputs([file], stats, { exact })) void record;
        if (exact) expect(stats.problems.map((p) => p.line)).toEqual([2]);
        else expect(stats.problems).toEqual([]);
      }
    });
  });
});
