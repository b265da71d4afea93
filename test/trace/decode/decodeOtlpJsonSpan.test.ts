import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlpJsonSpan } from '../../../src/trace/decode/decodeOtlpJsonSpan.js';
import { loadJsonTape, loadTapeFrom } from '../../../src/trace/decode/loadJsonTape.js';
import { isRoutingCandidate, type TraceRecordBuilder } from '../../../src/trace/buildTraceRecords.js';
import type { SpanView } from '../../../src/trace/internal-types.js';
import { readOtlpResourceSpans } from '../../../src/trace/formats/readOtlpJson.js';
import { propertyRuns } from '../../helpers/propertyRuns.js';

/** The span view readOtlpJson gives for `text` parsed (the oracle); undefined when JSON.parse refuses it. */
function parsedView(text: string): SpanView | 'not-routing' | 'not-json' {
  let span: unknown;
  try {
    span = JSON.parse(text);
  } catch {
    return 'not-json';
  }
  let view: SpanView | 'not-routing' = 'not-routing';
  const builder: TraceRecordBuilder = {
    addSpan(s) {
      view = s;
    },
    countPlainSpans() {},
  };
  readOtlpResourceSpans([{ scopeSpans: [{ spans: [span] }] }], { file: 't', line: 1 }, builder, []);
  return view;
}

/** The view, when readOtlpJson would read the span at all (a routing candidate); else 'not-routing'. */
function decodedIfRouting(text: string): SpanView | undefined | 'not-routing' {
  const view = decoded(text);
  if (view === undefined) return undefined;
  const routing = isRoutingCandidate(
    view.name,
    (key) => view.attributes.has(key),
    (name) => view.events.some((e) => e.name === name),
  );
  return routing ? view : 'not-routing';
}

function decoded(text: string): SpanView | undefined {
  const bytes = Buffer.from(`xx${text}yy`, 'utf8');
  return decodeOtlpJsonSpan(bytes, 2, bytes.length - 2);
}

const ROUTING = { key: 'agentfootprint.routing.verdict', value: { stringValue: 'menu' } };

/** Strings with what JSON escapes and what it does not: quotes, backslashes, controls, non-ASCII. */
const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('billing', 'a"b', 'c\\d', 'tab\there', 'é✓', '\u2028', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(-0, 1e21, 5e-324, 0.1 + 0.2, 2 ** 53 + 1),
);

const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { weight: 4, arbitrary: fc.record({ stringValue: text }) },
    { weight: 3, arbitrary: fc.record({ doubleValue: number }) },
    {
      weight: 2,
      arbitrary: fc.record({
        intValue: fc.oneof(
          fc.integer().map(String),
          fc.integer(),
          fc.constantFrom(' ', '', '12x', '-0', '1e3'),
        ),
      }),
    },
    { weight: 2, arbitrary: fc.record({ boolValue: fc.oneof(fc.boolean(), fc.constantFrom('true', null)) }) },
    {
      weight: 1,
      arbitrary: fc.record({ arrayValue: fc.record({ values: fc.array(tie('value'), { maxLength: 3 }) }) }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom({}, { arrayValue: {} }, { bytesValue: 'AAE=' }, { kvlistValue: {} }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom({ stringValue: 'a', intValue: '1' }, { stringValue: 7 }, 'plain', null),
    },
  ),
})).value;

const attribute = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ key: fc.oneof(text, fc.constantFrom('a.b', '__proto__')), value: anyValue }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom({ key: 'k' }, { value: { stringValue: 'v' } }, { key: 3, value: {} }),
  },
);

const span = fc.record(
  {
    traceId: fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), fc.constantFrom('', 'zz', 7)),
    spanId: fc.stringMatching(/^[0-9a-f]{16}$/),
    parentSpanId: fc.constantFrom('', 'aaaaaaaaaaaaaaaa'),
    name: fc.oneof(fc.constantFrom('agentfootprint.routing.tier2', 'other'), text),
    kind: fc.integer({ min: 0, max: 5 }),
    startTimeUnixNano: fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 63n }).map(String),
      fc.integer({ min: 0 }),
      fc.constant('x'),
    ),
    status: fc.oneof(
      fc.constantFrom(
        {},
        { code: 2 },
        { code: '2' },
        { code: 'STATUS_CODE_ERROR' },
        { code: 1, message: 'm' },
      ),
    ),
    attributes: fc.array(attribute, { maxLength: 8 }).map((list) => [ROUTING, ...list]),
    events: fc.array(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom('agentfootprint.routing.misrouted'), text),
          timeUnixNano: fc.bigInt({ min: 0n, max: 2n ** 62n }).map(String),
          attributes: fc.array(attribute, { maxLength: 3 }),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 2 },
    ),
    links: fc.constantFrom([], [{ traceId: 'a' }]),
    extra: fc.jsonValue({ maxDepth: 3 }),
  },
  { requiredKeys: [] },
);

/** The span's JSON as writers write it: compact, spaced, or with a field written twice. */
const spanText = fc.tuple(span, fc.constantFrom('compact', 'spaced', 'twice')).map(([s, style]) => {
  if (style === 'spaced') return JSON.stringify(s, null, 1);
  const json = JSON.stringify(s);
  return style === 'twice' && json.length > 2 ? `${json.slice(0, -1)},"name":"second"}` : json;
});

/** Spans as writers write them: compact, plain strings, the value kinds the decoder reads. */
const plain = fc.record({
  traceId: fc.stringMatching(/^[0-9a-f]{32}$/),
  spanId: fc.stringMatching(/^[0-9a-f]{16}$/),
  name: fc.constantFrom('agentfootprint.routing.tier2'),
  startTimeUnixNano: fc.bigInt({ min: 0n, max: 2n ** 62n }).map(String),
  attributes: fc.array(
    fc.record({
      key: fc.stringMatching(/^[a-z._]{1,30}$/),
      value: fc.oneof(
        fc.record({ stringValue: fc.stringMatching(/^[a-z0-9 -]{0,20}$/) }),
        fc.record({ doubleValue: number }),
        fc.record({ intValue: fc.integer().map(String) }),
        fc.record({ boolValue: fc.boolean() }),
      ),
    }),
    { maxLength: 10 },
  ),
  status: fc.constantFrom({}, { code: 2 }),
});

describe('decodeOtlpJsonSpan', () => {
  it('the JSON tape module is built and loads here (else every span is parsed, and this law would hold vacuously)', () => {
    expect(loadJsonTape().kind).toBe('tape');
  });

  it('law: it declines, or gives exactly the span view readOtlpJson gives for the same bytes parsed', () => {
    fc.assert(
      fc.property(spanText, (json) => {
        const view = decodedIfRouting(json);
        if (view !== undefined) expect(view).toEqual(parsedView(json));
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('law: the spans writers write (compact, plain strings, kinds it reads) are decoded, not declined', () => {
    fc.assert(
      fc.property(plain, (s) => {
        const json = JSON.stringify(s);
        const view = decoded(json);
        expect(view).toBeDefined();
        expect(view).toEqual(parsedView(json));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('law: bytes JSON.parse refuses are never decoded (a span cut, or a byte changed)', () => {
    fc.assert(
      fc.property(
        spanText,
        fc.nat(),
        fc.integer({ min: 0, max: 127 }),
        fc.boolean(),
        (json, at, byte, cut) => {
          const i = at % json.length;
          const broken = cut
            ? json.slice(0, i)
            : json.slice(0, i) + String.fromCharCode(byte) + json.slice(i + 1);
          const oracle = parsedView(broken);
          const view = decodedIfRouting(broken);
          if (oracle === 'not-json') expect(view).toBeUndefined();
          else if (view !== undefined) expect(view).toEqual(oracle);
        },
      ),
      { numRuns: propertyRuns(600) },
    );
  });

  it('a span longer than the window, or a string with an escape, is declined to JSON.parse', () => {
    const long = JSON.stringify({ name: 'x'.repeat(300 * 1024), attributes: [ROUTING] });
    expect(decoded(long)).toBeUndefined();
    expect(decoded(JSON.stringify({ name: 'a"b', attributes: [ROUTING] }))).toBeUndefined();
    expect(decoded(JSON.stringify({ name: 'ab', attributes: [ROUTING] }))?.name).toBe('ab');
  });

  it('the tape takes one whole value: two values, or one followed by anything, are declined', () => {
    const tape = loadJsonTape();
    if (tape.kind !== 'tape') throw new Error(tape.reason);
    const read = (text: string) => tape.readTape(Buffer.from(text), 0, Buffer.byteLength(text));
    for (const text of ['1 2', '{}{}', '[] 3', '{"a":1} {"b":2}', '"x""y"', 'true false', '{"a":1},', ''])
      expect(read(text)).toBeUndefined();
    expect(read(' {"a":[1,{},[]],"b":null} ')).toBeDefined();
  });

  it('a module that is not built says so, and nothing is decoded through it', () => {
    const missing = loadTapeFrom(undefined);
    expect(missing).toEqual({
      kind: 'unavailable',
      reason: expect.stringMatching(/jsonTape\.wasm is not built/),
    });
  });
});
