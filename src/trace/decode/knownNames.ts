/**
 * knownNames — the names a routing span's decoder meets on every span (OTLP's field names, the routing
 * attribute keys and span names), numbered, and the table the tape module finds them by.
 *
 * The tape (assembly/jsonTape.ts) gives each key or string whose bytes are a known name that name's number, so
 * the decoder matches fields by number and hands an attribute's key out as the one string kept here (a
 * constant of the conventions: the record builder's lookups meet the very string they ask for). The table is
 * open addressing over `nameHash` (of the length and the first and last 8 bytes, murmur3's mixing), written once into the
 * module's memory when it loads; the module compares the bytes before it gives a number. Pure.
 */
import * as semconv from '../../semconv/semconv.js';

/** OTLP/JSON's field names the decoder reads, numbered 1… in this order (FIELD below). */
const FIELD_NAMES = [
  'key',
  'value',
  'stringValue',
  'doubleValue',
  'intValue',
  'boolValue',
  'arrayValue',
  'values',
  'traceId',
  'spanId',
  'parentSpanId',
  'name',
  'startTimeUnixNano',
  'status',
  'code',
  'attributes',
  'events',
  'timeUnixNano',
] as const;

type FieldName = (typeof FIELD_NAMES)[number];

/** Each field name's number on the tape. */
export const FIELD = Object.fromEntries(FIELD_NAMES.map((name, i) => [name, i + 1])) as Record<
  FieldName,
  number
>;

/** Every known name, its number its index plus one: the fields, then the conventions' names. */
export const KNOWN_NAMES: readonly string[] = [
  ...new Set<string>([
    ...FIELD_NAMES,
    ...(Object.values(semconv) as unknown[]).filter(
      (v): v is string => typeof v === 'string' && v.length > 0 && v.length <= 96 && /^[\x20-\x7e]*$/.test(v),
    ),
  ]),
];

/** The bytes the names take (each byte a character: they are printable ASCII). */
export const KNOWN_NAMES_BYTES = KNOWN_NAMES.reduce((n, name) => n + name.length, 0);

/** Slots of the table (assembly/jsonTape.ts' KNOWN_SLOTS), 16 bytes each. */
export const KNOWN_SLOTS = 1024;

/** The 32-bit little-endian word of `bytes` at `at`, zeros past `end`. */
function wordAt(bytes: Uint8Array, at: number, end: number): number {
  let w = 0;
  for (let i = 3; i >= 0; i--) w = (w << 8) | (at + i < end ? bytes[at + i]! : 0);
  return w >>> 0;
}

/** One word into the hash (murmur3's step), as assembly/jsonTape.ts' `mixWord`. */
function mixWord(h: number, w: number): number {
  let k = Math.imul(w, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  const x = h ^ k;
  return (Math.imul((x << 13) | (x >>> 19), 5) + 0xe6546b64) >>> 0;
}

/**
 * The hash of the `n` bytes at `at` (assembly/jsonTape.ts' `nameHash`): the length and four words, the first 8
 * bytes and the last 8 (a shorter name: its bytes zero-padded, then zeros).
 */
export function nameHash(bytes: Uint8Array, at: number, n: number): number {
  const end = at + n;
  const [w0, w1, w2, w3] =
    n >= 8
      ? [
          wordAt(bytes, at, end),
          wordAt(bytes, at + 4, end),
          wordAt(bytes, end - 8, end),
          wordAt(bytes, end - 4, end),
        ]
      : [wordAt(bytes, at, end), wordAt(bytes, at + 4, end), 0, 0];
  let h = Math.imul(n, 0x9e3779b1) >>> 0;
  h = mixWord(h, w0);
  h = mixWord(h, w1);
  h = mixWord(h, w2);
  h = mixWord(h, w3);
  h = (h ^ (h >>> 16)) >>> 0;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

/**
 * Write the table at `tableAt` of `memory` and the names' bytes (KNOWN_NAMES_BYTES) from `bytesAt`. Each slot:
 * the hash, the number (0: empty), where the name's bytes are, its length (little-endian u32s).
 */
export function writeKnownNames(memory: Buffer, tableAt: number, bytesAt: number): void {
  memory.fill(0, tableAt, tableAt + KNOWN_SLOTS * 16);
  let at = bytesAt;
  KNOWN_NAMES.forEach((name, i) => {
    const n = memory.write(name, at, 'latin1');
    const h = nameHash(memory, at, n);
    let slot = h & (KNOWN_SLOTS - 1);
    while (memory.readUInt32LE(tableAt + slot * 16 + 4) !== 0) slot = (slot + 1) & (KNOWN_SLOTS - 1);
    const entry = tableAt + slot * 16;
    memory.writeUInt32LE(h, entry);
    memory.writeUInt32LE(i + 1, entry + 4);
    memory.writeUInt32LE(at, entry + 8);
    memory.writeUInt32LE(n, entry + 12);
    at += n;
  });
}
