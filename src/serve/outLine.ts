/**
 * outLine — the line `serve --out` writes for one request: what the request was, as one line of the file the
 * other commands read, made before the request is answered so that a request whose line cannot be made is
 * refused, never answered 200 and lost.
 *
 * An OTLP/JSON body is written as it came, its line breaks made spaces: outside strings they are JSON's white
 * space, and inside a string no JSON allows them raw, so the line means what the body meant and is read by the
 * same reader (a body damaged in a span that is not a routing span is read from the file exactly as serve read
 * it). An event log is written as its own lines. A protobuf body becomes the OTLP/JSON of the same request
 * (otlpProtoToJson), at most `maxChars` long (`--max-body`: a few bytes of protobuf can ask for many times
 * their size in JSON), its writing paused between spans whenever it has held the event loop for a slice
 * (sliceWork). No I/O.
 */
import { countOtlpProtoSpans } from '../trace/formats/decodeOtlpProto.js';
import { OutFormTooLarge, writeOtlpJson } from '../trace/formats/otlpProtoToJson.js';
import { ProtoWireError } from '../trace/formats/protoWire.js';
import type { PayloadKind } from './ingestPayload.js';
import { createSlicer } from './sliceWork.js';

/** The line for one body, or why there is none. */
export type OutLine =
  | {
      readonly kind: 'ok';
      /** The line, in parts written one after the other (the body itself where it can be, never copied). */
      readonly parts: readonly Buffer[];
      /** Bytes of those parts made anew (not the body's own): what the line adds to the bytes held. */
      readonly made: number;
    }
  | { readonly kind: 'too-large'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly reason: string };

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const NEWLINE = Buffer.from('\n');

/** The fewest characters one span takes as OTLP/JSON, its comma included. */
const MIN_SPAN_CHARS = '{"attributes":[],"events":[],"links":[]},'.length;

/** Make the `--out` line of one body (read and staged already). */
export async function outLineOf(kind: PayloadKind, body: Buffer, maxChars: number): Promise<OutLine> {
  if (kind === 'event-log') {
    const ends = body.length === 0 || body[body.length - 1] === LF;
    return { kind: 'ok', parts: ends ? [body] : [body, NEWLINE], made: 0 };
  }
  if (kind === 'otlp-json') {
    if (body.indexOf(LF) === -1 && body.indexOf(CR) === -1)
      return { kind: 'ok', parts: [body, NEWLINE], made: 0 };
    const line = Buffer.from(body);
    for (let i = 0; i < line.length; i++) if (line[i] === LF || line[i] === CR) line[i] = SPACE;
    return { kind: 'ok', parts: [line, NEWLINE], made: line.length };
  }
  try {
    // Every span is at least `{"attributes":[],"events":[],"links":[]},` as OTLP/JSON: counted on the wire
    // first (no object made), a body of millions of empty spans is refused before any is written.
    const most = Math.floor(maxChars / MIN_SPAN_CHARS);
    if (countOtlpProtoSpans(body, most) > most) throw new OutFormTooLarge(maxChars);
    const writing = writeOtlpJson(body, maxChars);
    const slicer = createSlicer(undefined, 1);
    for (;;) {
      const step = writing.next();
      if (step.done === true) {
        const line = Buffer.from(`${step.value}\n`);
        return { kind: 'ok', parts: [line], made: line.length };
      }
      const pause = slicer.pause();
      if (pause !== undefined) await pause;
    }
  } catch (error) {
    if (error instanceof OutFormTooLarge)
      return {
        kind: 'too-large',
        reason: `the request cannot be kept in --out: ${error.message} (--max-body); raise --max-body or send smaller batches`,
      };
    if (error instanceof ProtoWireError || error instanceof RangeError)
      return {
        kind: 'invalid',
        reason: `the request cannot be written to --out as OTLP/JSON: ${error.message}`,
      };
    throw error;
  }
}
