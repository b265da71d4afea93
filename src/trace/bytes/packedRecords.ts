/**
 * packedRecords — a record as bytes and back: how `serve`'s window holds 100,000 decisions in tens of MiB, and
 * how a `--jobs` worker hands what it read to the main thread (the bytes and the packer's `tables()` travel;
 * packedValues' readPackedValue reads them with those tables).
 *
 * A decision record as JavaScript objects costs about 1.4 KB of heap (the record, its ranked candidates, its
 * policy and traits objects, its strings), and the garbage collector walks all of them on every major
 * collection. Packed, the same record is a few hundred bytes in a buffer the collector never looks into.
 *
 * The encoding is generic, so every field of every record kind survives, present and future: a tag byte, then
 * the value. Numbers are a zig-zag varint when they are small integers, else the float64 itself (-0, NaN and
 * the infinities included). Strings come in four forms:
 * - lowercase hex of whole bytes (trace and span ids): the bytes, half the length;
 * - other short strings (skill ids, names, verdicts; up to `SHARED_STRING_MAX` characters): an index into a
 *   table of strings shared by the records that hold them, each entry counted, and let go by `release` when
 *   the last record holding it is evicted, so the table never holds more than the window does;
 * - longer strings: UTF-8 with their byte length;
 * - strings with a lone surrogate, which UTF-8 cannot carry: UTF-16.
 * Arrays and plain objects carry their length and then their items, a key as an index into a table of the keys
 * seen (records have a few dozen) or, past `MAX_KEYS`, inline. A property whose value is `undefined` is kept as
 * such. `unpack(pack(r))` is equal to `r` in every field (test/trace/bytes/packedRecords.test.ts), but for strings
 * and keys over `maxString` (when given), which are stored cut (cutString) and counted. The varints are
 * protobuf's, read with the one wire reader (protoWire). Pure. No I/O.
 */
import { cutString } from './cutString.js';
import {
  isHexId,
  HEX_VALUE,
  readPackedValue,
  TAG_ARRAY,
  TAG_FALSE,
  TAG_FLOAT,
  TAG_HEX,
  TAG_INT,
  TAG_NULL,
  TAG_OBJECT,
  TAG_SHARED,
  TAG_TRUE,
  TAG_UNDEFINED,
  TAG_UTF16,
  TAG_UTF8,
  walkPackedValue,
} from './packedValues.js';

/** Strings up to this many characters go to the shared table (hex ids excepted). */
export const SHARED_STRING_MAX = 64;

/** Object keys given a table index; further keys are written out in full. */
export const MAX_KEYS = 4096;

const SMALL_INT = 2 ** 30;

/** With the u flag a pair is one code point, so this matches only a surrogate that has no partner. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** How a packer treats what it packs. */
export interface RecordPackerOptions {
  /**
   * Strings and keys longer than this are stored cut (cutString) and counted in `stringsCut`; the one place
   * packing is not lossless. @default Infinity
   */
  readonly maxString?: number;
}

/** A packer's key and shared-string tables, as plain arrays (to unpack its bytes elsewhere). */
export interface PackerTables {
  readonly keys: readonly string[];
  readonly shared: readonly (string | undefined)[];
}

/** Packs values into bytes and unpacks them; one per window (its tables are its own). */
export interface RecordPacker {
  /**
   * The bytes of `value`: a view of a scratch buffer, valid until the next call to `pack`. The shared strings
   * it uses are held until `release` is called with the same bytes.
   */
  pack(value: unknown): Buffer;
  /** The value packed in `bytes[start, end)`. */
  unpack(bytes: Buffer, start: number, end: number): unknown;
  /** The packed value in `bytes[start, end)` is gone: let go of the shared strings it held. */
  release(bytes: Buffer, start: number, end: number): void;
  /** Strings in the shared table now. */
  readonly sharedStrings: number;
  /** About how many bytes of memory the shared table's strings take now. */
  readonly sharedBytes: number;
  /** Strings (and keys) stored cut since the start (`maxString`). */
  readonly stringsCut: number;
  /** The tables now, copied: with them readPackedValue reads every value packed so far. */
  tables(): PackerTables;
}

/** What one entry of the shared table costs besides its characters (the string's header, the map's slot). */
const SHARED_ENTRY_BYTES = 48;

/** A packer with an empty key table. */
export function createRecordPacker(options: RecordPackerOptions = {}): RecordPacker {
  const maxString = options.maxString ?? Infinity;
  let stringsCut = 0;
  let sharedBytes = 0;
  const bounded = (s: string): string => {
    if (s.length <= maxString) return s;
    stringsCut++;
    return cutString(s, maxString);
  };
  const keyIds = new Map<string, number>();
  const keys: string[] = [];
  let buf = Buffer.allocUnsafeSlow(4096);
  let pos = 0;

  // The shared strings: id → string and its count of holders; ids of let-go entries are used again.
  const sharedIds = new Map<string, number>();
  const shared: (string | undefined)[] = [];
  let holders = new Uint32Array(1024);
  const freeIds: number[] = [];
  // The ids one pack refers to, counted only once the pack succeeded.
  const taken: number[] = [];

  const sharedId = (s: string): number => {
    let id = sharedIds.get(s);
    if (id === undefined) {
      id = freeIds.pop() ?? shared.length;
      if (id === shared.length) shared.push(s);
      else shared[id] = s;
      sharedBytes += s.length * 2 + SHARED_ENTRY_BYTES;
      if (id >= holders.length) {
        const next = new Uint32Array(holders.length * 2);
        next.set(holders);
        holders = next;
      }
      sharedIds.set(s, id);
    }
    taken.push(id);
    return id;
  };

  const room = (n: number): void => {
    if (pos + n <= buf.length) return;
    let size = buf.length * 2;
    while (size < pos + n) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    buf.copy(next, 0, 0, pos);
    buf = next;
  };
  const byte = (b: number): void => {
    room(1);
    buf[pos++] = b;
  };
  const varint = (n: number): void => {
    room(5);
    while (n >= 0x80) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
  };
  const string = (whole: string): void => {
    const s = bounded(whole);
    if (isHexId(s)) {
      const n = s.length / 2;
      byte(TAG_HEX);
      varint(n);
      room(n);
      // Digit by digit: the ids are short, and a call into Buffer#write cost more than the loop.
      for (let i = 0; i < n; i++)
        buf[pos++] = (HEX_VALUE[s.charCodeAt(2 * i)]! << 4) | HEX_VALUE[s.charCodeAt(2 * i + 1)]!;
      return;
    }
    // A string in the table is known to have no lone surrogate: looked up before it is searched for one.
    if (s.length <= SHARED_STRING_MAX && (sharedIds.has(s) || !LONE_SURROGATE.test(s))) {
      byte(TAG_SHARED);
      varint(sharedId(s));
      return;
    }
    if (LONE_SURROGATE.test(s)) {
      byte(TAG_UTF16);
      varint(s.length);
      room(s.length * 2);
      pos += buf.write(s, pos, 'utf16le');
      return;
    }
    byte(TAG_UTF8);
    const most = s.length * 3;
    varint(Buffer.byteLength(s, 'utf8'));
    room(most);
    pos += buf.write(s, pos, 'utf8');
  };
  const key = (whole: string): void => {
    const k = bounded(whole);
    let id = keyIds.get(k);
    if (id === undefined && keys.length < MAX_KEYS) {
      id = keys.length;
      keys.push(k);
      keyIds.set(k, id);
    }
    if (id !== undefined) varint(id * 2);
    else {
      const n = Buffer.byteLength(k, 'utf8');
      varint(n * 2 + 1);
      room(n);
      pos += buf.write(k, pos, 'utf8');
    }
  };
  const value = (v: unknown): void => {
    switch (typeof v) {
      case 'undefined':
        return byte(TAG_UNDEFINED);
      case 'boolean':
        return byte(v ? TAG_TRUE : TAG_FALSE);
      case 'number':
        if (Number.isInteger(v) && v > -SMALL_INT && v < SMALL_INT && !Object.is(v, -0)) {
          byte(TAG_INT);
          return varint(v < 0 ? -v * 2 - 1 : v * 2);
        }
        byte(TAG_FLOAT);
        room(8);
        pos = buf.writeDoubleLE(v, pos);
        return;
      case 'string':
        return string(v);
      case 'object': {
        if (v === null) return byte(TAG_NULL);
        if (Array.isArray(v)) {
          byte(TAG_ARRAY);
          varint(v.length);
          for (const item of v) value(item);
          return;
        }
        // for-in walks own keys in Object.keys' order (plain objects inherit none) without an array of them,
        // and reads each value by the enumeration's index; the count is known after, so it takes one byte,
        // widened in place past 127.
        byte(TAG_OBJECT);
        const countAt = pos;
        byte(0);
        let n = 0;
        for (const k in v as Record<string, unknown>) {
          key(k);
          value((v as Record<string, unknown>)[k]);
          n++;
        }
        if (n < 0x80) buf[countAt] = n;
        else {
          const end = pos;
          const width = n < 2 ** 14 ? 2 : n < 2 ** 21 ? 3 : n < 2 ** 28 ? 4 : 5;
          room(width - 1);
          buf.copyWithin(countAt + width, countAt + 1, end);
          pos = countAt;
          varint(n);
          pos = end + width - 1;
        }
        return;
      }
      default:
        throw new TypeError(`a record cannot hold a ${typeof v}`);
    }
  };

  const letGo = (id: number): void => {
    sharedBytes -= shared[id]!.length * 2 + SHARED_ENTRY_BYTES;
    sharedIds.delete(shared[id]!);
    shared[id] = undefined;
    freeIds.push(id);
  };

  return {
    pack(v) {
      pos = 0;
      taken.length = 0;
      try {
        value(v);
      } catch (error) {
        // Nothing was packed: entries this call added, held by nobody, go again.
        for (const id of taken) if (holders[id] === 0 && shared[id] !== undefined) letGo(id);
        throw error;
      }
      for (const id of taken) holders[id]!++;
      return buf.subarray(0, pos);
    },
    release(bytes, start, end) {
      walkPackedValue(bytes, start, end, (id) => {
        if (--holders[id]! === 0) letGo(id);
      });
    },
    get sharedStrings() {
      return sharedIds.size;
    },
    get sharedBytes() {
      return sharedBytes;
    },
    get stringsCut() {
      return stringsCut;
    },
    tables: () => ({ keys: [...keys], shared: [...shared] }),
    unpack: (bytes, start, end) => readPackedValue(bytes, start, end, keys, shared),
  };
}
