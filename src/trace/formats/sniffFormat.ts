/**
 * sniffFormat — what one input is, judged from its first bytes, not its name.
 *
 * gzip and zstd are decompressed and looked at again; a 4-byte big-endian length before a zstd frame or a
 * protobuf `resource_spans` field is the Collector file exporter's framing (`format: proto`, legacy
 * `compression: zstd`); text opening with `{`/`[` is JSON lines, or a JSON array written one element per line
 * (read as lines too), unless its first line is an unfinished pretty-printed document. Anything else is an
 * unknown format, with a reason that says what the bytes look like. No I/O.
 */
import { quoteForProblem } from '../normalizeSpanFields.js';
import { MAX_RECORD_BYTES } from './readLimits.js';

/** Bytes looked at to tell a format. */
export const SNIFF_BYTES = 64 * 1024;
/** A zstd frame's magic number. */
export const ZSTD_MAGIC = 0xfd2fb528; // little-endian on the wire: 28 b5 2f fd

/** What one input file is, judged from its first bytes. */
export type Sniffed =
  | {
      readonly kind:
        'empty' | 'gzip' | 'zstd' | 'framed' | 'json-lines' | 'json-array-lines' | 'json-document';
    }
  | { readonly kind: 'unknown'; readonly reason: string };

export function isJsonStart(byte: number | undefined): boolean {
  return byte === 0x7b || byte === 0x5b || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Does the text open with a UTF-8 byte order mark? */
export function hasBom(buf: Buffer): boolean {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON lines, a JSON array written one element per line, or the start of one pretty-printed document? Looks at
 * the first two non-blank lines (the second may be cut short by the end of the head).
 */
export function sniffJsonText(head: Buffer, ended: boolean): Sniffed {
  const lines: string[] = [];
  let pos = hasBom(head) ? 3 : 0;
  let secondWhole = true;
  while (lines.length < 2 && pos < head.length) {
    let nl = head.indexOf(0x0a, pos);
    if (nl === -1 && !ended) {
      // The first line must be whole; of the second, its start is enough to tell an array's element.
      if (lines.length === 0) break;
      secondWhole = false;
    }
    if (nl === -1) nl = head.length;
    const line = head.toString('utf8', pos, nl).trimEnd();
    pos = nl + 1;
    if (line.trim() !== '') lines.push(line);
  }
  const first = lines[0]?.trim();
  const second = lines[1];
  if (first === undefined || second === undefined || !(first.startsWith('{') || first.startsWith('[')))
    return { kind: 'json-lines' };
  if (parsesAsJson(first)) return { kind: 'json-lines' };
  // `[` (or `[` and the first element, with its comma), then elements unindented, one a line: a script's or
  // Jaeger's anonymizer's array. Pretty-printed, the next line would be indented or a lone `{`.
  if (first.startsWith('[') && (first === '[' || first.endsWith(',')) && /^\{\s*"/.test(second))
    return { kind: 'json-array-lines' };
  if (!secondWhole) return { kind: 'json-lines' };
  // In JSON lines the next line is another whole object; in a document it is a key or a nested opener.
  const next = second.trim();
  return { kind: next.startsWith('{') && next !== '{' ? 'json-lines' : 'json-document' };
}

/** What an input whose first bytes are `head` holds (`ended`: the input has no more). */
export function sniffFormat(head: Buffer, ended: boolean): Sniffed {
  if (head.length === 0) return { kind: 'empty' };
  if (head[0] === 0x1f && head[1] === 0x8b) return { kind: 'gzip' };
  if (head.length >= 4 && head.readUInt32LE(0) === ZSTD_MAGIC) return { kind: 'zstd' };
  if (hasBom(head) || isJsonStart(head[0])) {
    let i = hasBom(head) ? 3 : 0;
    while (i < head.length && isJsonStart(head[i]) && head[i] !== 0x7b && head[i] !== 0x5b) i++;
    if (i === head.length) return ended ? { kind: 'empty' } : { kind: 'json-lines' };
    if (head[i] !== 0x7b && head[i] !== 0x5b) {
      // Protobuf's first tag byte is a newline; the bytes after it tell it from text.
      if (looksLikeOtlpProto(head)) {
        return {
          kind: 'unknown',
          reason:
            "binary protobuf (an OTLP export request, it seems) without the file exporter's 4-byte length framing; export it with the file exporter's format: proto, or as OTLP/JSON",
        };
      }
      return { kind: 'unknown', reason: 'text that is not JSON (it does not start with { or [)' };
    }
    return sniffJsonText(head, ended);
  }
  if (head.length >= 5 && head.readUInt32BE(0) <= MAX_RECORD_BYTES) {
    if (head.length >= 8 && head.readUInt32LE(4) === ZSTD_MAGIC) return { kind: 'framed' };
    if (head[4] === 0x0a) return { kind: 'framed' };
  }
  // Garbage first (a torn write at the start), then lines that open like JSON: JSON lines, line 1 reported.
  for (let nl = head.indexOf(0x0a); nl !== -1 && nl + 1 < head.length; nl = head.indexOf(0x0a, nl + 1)) {
    if (head[nl + 1] === 0x7b || head[nl + 1] === 0x5b) return { kind: 'json-lines' };
  }
  const start = head.subarray(0, 64);
  if (start.every((b) => b >= 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) {
    const text = start.toString('utf8').split('\n')[0]!.slice(0, 24);
    return { kind: 'unknown', reason: `text that is not JSON (it starts with ${quoteForProblem(text)})` };
  }
  const shown = [...head.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return { kind: 'unknown', reason: `an unknown format (first bytes ${shown})` };
}

/** Field 1 (`resource_spans`), length-delimited, with a length that fits: how a protobuf request starts. */
function looksLikeOtlpProto(head: Buffer): boolean {
  if (head[0] !== 0x0a) return false;
  let length = 0;
  for (let i = 1, shift = 1; i < Math.min(head.length, 6); i++, shift *= 128) {
    length += (head[i]! & 0x7f) * shift;
    if ((head[i]! & 0x80) === 0) return length > 0 && length <= MAX_RECORD_BYTES && head[i + 1] === 0x0a;
  }
  return false;
}

/** Is a file with these first bytes plain (uncompressed) JSON lines, so that it can be cut at line ends? */
export function isPlainJsonLines(head: Buffer, ended: boolean): boolean {
  return sniffFormat(head, ended).kind === 'json-lines';
}
