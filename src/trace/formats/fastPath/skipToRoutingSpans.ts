/**
 * skipToRoutingSpans — a Collector line's spans counted and its routing spans found by native searches alone,
 * without walking the bytes in between.
 *
 * The walk (scanOtlpJsonLine) looks at every byte of every line, although one span in twenty is a routing
 * span. Here every search is Buffer#indexOf, which runs at memory speed over what it skips: a line's spans
 * are counted by their `"spanId":"` keys, its routing spans found by ROUTING_MARKER, each sliced from its
 * `{"traceId":"` to the next span's (or, for the last of a list, walked to its end), and each one's resource
 * found by the `"scopeSpans":[` key of its resource item, which comes before it. In valid JSON a quote inside
 * a string is escaped, so none of these needles, each holding an unescaped quote, can match inside a string:
 * each hit is a key.
 *
 * What that rests on, each checked on every line, which otherwise is walked as before (undefined):
 * - the Collector's compact JSON in its field order: the line opens with `{"resourceSpans":[{`, a span with
 *   `{"traceId":"`, a resource item's `resource` comes before its `scopeSpans`;
 * - one request on the line (no second `"resourceSpans":[`: a cut write with the next one glued on);
 * - the line ends as a whole request does: its last span, walked, is followed by nothing but the closers of
 *   its `spans`, scope, `scopeSpans`, resource item, `resourceSpans` and request (a scope's and a resource
 *   item's `schemaUrl` allowed). A span opener is at that depth in a whole request, so a line cut short at
 *   any byte (a crash mid-write, the next write glued on or not) fails this and is walked, and reported;
 * - every span has one trace id and one span id (the two counts must be equal), and no span has a link (whose
 *   own ids would be counted; an empty `"links":[]`, as the JS exporter writes, is fine);
 * - no `\u` escape of a key or marker character (escapesAWordCharacter), no legacy `instrumentationLibrarySpans`;
 * - every marker lies inside a span, whose slice must parse (or pass isJsonValue) as one whole value.
 *
 * What it cannot see, unlike the walk: damage in the middle of a line outside routing spans that leaves both
 * its ends whole (a lost bracket in a plain span); on a line where other spans have ids, a span with neither
 * id (or one missing its trace id and another its span id) is not counted; a line compact where it starts and
 * spaced later. No writer makes these; the walk reports them (`--exact-read`, ReadOptions.exact). No I/O.
 */
import { bytesAre, findNeedlesByIndexOf, SPAN_OPENER, type FindNeedles } from './lineNeedles.js';
import { endOfJsonValue, type Slice } from './scanOtlpJsonLine.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE } from '../jsonBytes.js';

/** One `resourceSpans` item holding routing spans: its resource's bytes (when it has one) and theirs. */
export interface SkippedResource {
  readonly resource: Slice | undefined;
  readonly spans: Slice[];
}

/** What a skipped line holds: how many spans in all, and the resources holding routing spans. */
export interface SkippedLine {
  readonly spans: number;
  readonly resources: SkippedResource[];
}

const OPENER = Buffer.from('{"resourceSpans":[{');
/** Where `Spans":[` is in OPENER (the request's own `resourceSpans` key). */
const REQUEST_KEY_TAIL_AT = OPENER.indexOf('Spans":[');
const RESOURCE_KEY = Buffer.from('{"resource":');
const SCHEMA_URL_MEMBER = Buffer.from(',"schemaUrl":"');

/**
 * The line's span count and routing spans by native searches, or undefined when one of the assumptions above
 * does not hold (the caller walks the line). `body` is trimmed; `marker` is ROUTING_MARKER's bytes. Each
 * routing span's range is its bytes exactly; each resource's, its value's.
 */
export function skipToRoutingSpans(
  body: Buffer,
  marker: Buffer,
  findNeedles: FindNeedles = findNeedlesByIndexOf,
): SkippedLine | undefined {
  if (!bytesAre(body, 0, OPENER) || !endsAsWholeRequest(body)) return undefined;
  const needles = findNeedles(body, marker, REQUEST_KEY_TAIL_AT);
  // Every span has one trace id and one span id: when the counts differ, one is missing and the count doubtful.
  if (needles === undefined || needles.spanIdKeys !== needles.traceIdKeys) return undefined;
  // At least one: the line has a span opener (endsAsWholeRequest).
  const spans = needles.spanIdKeys;
  const scopeKeys = needles.scopeKeys;
  const resources: SkippedResource[] = [];
  let current: SkippedResource | undefined;
  let nextScope = 0;
  let from = 0;
  for (let at = needles.markerFrom(0); at !== -1; at = needles.markerFrom(from)) {
    // The span holding the marker opens after the last routing span ended; its walked end must be past it.
    const spanStart = needles.spanOpenerBefore(from, at);
    if (spanStart === -1) return undefined;
    const spanEnd = endOfSpan(body, spanStart, needles.spanOpenerFrom(at));
    if (spanEnd < at + marker.length) return undefined;
    // Its resource item is the one whose `scopeSpans` key came last before it.
    let scopeKey = -1;
    while (nextScope < scopeKeys.length && scopeKeys[nextScope]! < spanStart)
      scopeKey = scopeKeys[nextScope++]!;
    if (scopeKey !== -1) {
      const resource = resourceBefore(body, scopeKey, from);
      if (resource === null) return undefined;
      current = { resource, spans: [] };
      resources.push(current);
    } else if (current === undefined) {
      return undefined;
    }
    current.spans.push({ start: spanStart, end: spanEnd });
    from = spanEnd;
  }
  return { spans, resources };
}

/**
 * Where the span opening at `start` ends, `next` being the first span opener after its marker (-1: none):
 * just before the `,` of that opener when it follows the span (`},{"traceId":"`) — not walked, as the caller
 * parses the slice (or checks it with isJsonValue), which fails unless it is one whole value — else found by
 * walking it. -1 when not one.
 */
function endOfSpan(body: Buffer, start: number, next: number): number {
  if (body[next - 1] === COMMA && body[next - 2] === CLOSE_BRACE) return next - 1;
  return endOfJsonValue(body, start);
}

/**
 * Is what follows the line's last span exactly the closers of a whole request (`]}]}]}`, each `}` of a scope
 * or resource item maybe after its `,"schemaUrl":"…"`)? The last span is walked to find where it ends.
 */
function endsAsWholeRequest(body: Buffer): boolean {
  // No span, or one that does not end: -1, where no closer is read.
  let at = endOfJsonValue(body, body.lastIndexOf(SPAN_OPENER));
  for (let level = 0; level < 3; level++) {
    if (body[at] !== CLOSE_BRACKET) return false;
    at++;
    // The scope's and the resource item's schemaUrl follow their spans lists (one on the request, which a
    // whole parse would ignore too, is read the same).
    if (bytesAre(body, at, SCHEMA_URL_MEMBER)) at = endOfJsonValue(body, at + SCHEMA_URL_MEMBER.length - 1);
    if (body[at] !== CLOSE_BRACE) return false;
    at++;
  }
  return at === body.length;
}

/**
 * The resource of the item whose `"scopeSpans"` key is at `scopeKey`: undefined when the item has none (it
 * opens with that key), its value's bytes when `{"resource":…,` comes just before, null when neither (another
 * shape). `floor` bounds the backward search: the item opens after it.
 */
function resourceBefore(body: Buffer, scopeKey: number, floor: number): Slice | undefined | null {
  const before = body[scopeKey - 1];
  if (before === OPEN_BRACE) return undefined;
  if (before !== COMMA) return null;
  const found = body.subarray(floor, scopeKey).lastIndexOf(RESOURCE_KEY);
  if (found === -1) return null;
  const start = floor + found + RESOURCE_KEY.length;
  // Its value must be one value that ends just before the comma (read as a whole parse reads it).
  if (endOfJsonValue(body, start) !== scopeKey - 1) return null;
  return { start, end: scopeKey - 1 };
}
