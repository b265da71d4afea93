/**
 * packedRecords — a record as bytes and back: how `serve`'s window holds 100,000 decisions in tens of MiB.
 *
 * A decision record as JavaScript objects costs about 1.4 KB of heap (the record, its ranked candidates, its
 * policy and traits objects, its strings), and the garbage collector walks all of them on every major
 * collection. Packed, the same record is a few hundred bytes in a buffer the collector never looks into.
 *
 * The encoding is generic, so every field of every record kind survives, present and future: a tag byte, then
 * the value. Numbers are a zig-zag varint when they are small integers, else the float64 itself (-0, NaN and
 * the infinities included); strings are UTF-8 with their byte length, or UTF-16 when they hold a lone
 * surrogate that UTF-8 cannot carry; arrays and plain objects carry their length and then their items, a key
 * as an index into a table of the keys seen (records have a few dozen) or, past `MAX_KEYS`, inline. A property
 * whose value is `undefined` is kept as such. `unpackRecord(packRecord(r))` is equal to `r` in every field
 * (test/serve/packedRecords.test.ts). Pure. No I/O.
 */

const TAG_UNDEFINED = 0;
const TAG_NULL = 1;
const TAG_FALSE = 2;
const TAG_TRUE = 3;
const TAG_INT = 4;
const TAG_FLOAT = 5;
const TAG_UTF8 = 6;
const TAG_UTF16 = 7;
const TAG_ARRAY = 8;
const TAG_OBJECT = 9;

/** Object keys given a table index; further keys are written out in full. */
export const MAX_KEYS = 4096;

const SMALL_INT = 2 ** 30;

/** With the u flag a pair is one code point, so this matches only a surrogate that has no partner. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Packs values into bytes and unpacks them; one per window (its key table is its own). */
export interface RecordPacker {
  /** The bytes of `value`: a view of a scratch buffer, valid until the next call to `pack`. */
  pack(value: unknown): Buffer;
  /** The value packed in `bytes[start, end)`. */
  unpack(bytes: Buffer, start: number, end: number): unknown;
}

/** A packer with an empty key table. */
export function createRecordPacker(): RecordPacker {
  const keyIds = new Map<string, number>();
  const keys: string[] = [];
  let buf = Buffer.allocUnsafeSlow(4096);
  let pos = 0;

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
  const string = (s: string): void => {
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
  const key = (k: string): void => {
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
        const entries = Object.keys(v);
        byte(TAG_OBJECT);
        varint(entries.length);
        for (const k of entries) {
          key(k);
          value((v as Record<string, unknown>)[k]);
        }
        return;
      }
      default:
        throw new TypeError(`a record cannot hold a ${typeof v}`);
    }
  };

  return {
    pack(v) {
      pos = 0;
      value(v);
      return buf.subarray(0, pos);
    },
    unpack(bytes, start, end) {
      let at = start;
      const readVarint = (): number => {
        let result = 0;
        let scale = 1;
        for (;;) {
          const b = bytes[at++]!;
          result += (b & 0x7f) * scale;
          if ((b & 0x80) === 0) return result;
          scale *= 128;
        }
      };
      const read = (): unknown => {
        const tag = bytes[at++];
        switch (tag) {
          case TAG_UNDEFINED:
            return undefined;
          case TAG_NULL:
            return null;
          case TAG_FALSE:
            return false;
          case TAG_TRUE:
            return true;
          case TAG_INT: {
            const z = readVarint();
            return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
          }
          case TAG_FLOAT: {
            const d = bytes.readDoubleLE(at);
            at += 8;
            return d;
          }
          case TAG_UTF8: {
            const n = readVarint();
            const s = bytes.toString('utf8', at, at + n);
            at += n;
            return s;
          }
          case TAG_UTF16: {
            const n = readVarint();
            const s = bytes.toString('utf16le', at, at + n * 2);
            at += n * 2;
            return s;
          }
          case TAG_ARRAY: {
            const n = readVarint();
            const items = new Array<unknown>(n);
            for (let i = 0; i < n; i++) items[i] = read();
            return items;
          }
          case TAG_OBJECT: {
            const n = readVarint();
            const o: Record<string, unknown> = {};
            for (let i = 0; i < n; i++) {
              const ref = readVarint();
              let k: string;
              if (ref % 2 === 0) k = keys[ref / 2]!;
              else {
                const len = (ref - 1) / 2;
                k = bytes.toString('utf8', at, at + len);
                at += len;
              }
              // A key named __proto__ is a property like any other, never the object's prototype.
              if (k === '__proto__')
                Object.defineProperty(o, k, {
                  value: read(),
                  enumerable: true,
                  writable: true,
                  configurable: true,
                });
              else o[k] = read();
            }
            return o;
          }
          default:
            throw new RangeError(`packed record: unknown tag ${tag} at byte ${at - 1 - start}`);
        }
      };
      const result = read();
      if (at !== end) throw new RangeError(`packed record: ${end - at} bytes left over`);
      return result;
    },
  };
}
