/**
 * packedValues — the bytes packedRecords writes, read back: the tags, and the two walks over a packed value
 * (reading it whole with the packer's tables, and finding the shared strings it holds). See packedRecords for
 * the encoding. Pure. No I/O.
 */
import { WireReader } from '../formats/protoWire.js';

export const TAG_UNDEFINED = 0;
export const TAG_NULL = 1;
export const TAG_FALSE = 2;
export const TAG_TRUE = 3;
export const TAG_INT = 4;
export const TAG_FLOAT = 5;
export const TAG_UTF8 = 6;
export const TAG_UTF16 = 7;
export const TAG_ARRAY = 8;
export const TAG_OBJECT = 9;
export const TAG_HEX = 10;
export const TAG_SHARED = 11;

/** Each lowercase hex digit's value by its character code; -1 for the other codes below 128. */
export const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) HEX_VALUE['0123456789abcdef'.charCodeAt(d)] = d;

/** Is `s` lowercase hex of 1 to 64 whole bytes (a trace, span or parent id)? A loop: a pattern cost more. */
export function isHexId(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > 128 || (n & 1) === 1) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || HEX_VALUE[c]! < 0) return false;
  }
  return true;
}

/** Walk the packed value in `bytes[start, end)`, calling `onShared` with each shared-string id it holds. */
export function walkPackedValue(
  bytes: Buffer,
  start: number,
  end: number,
  onShared: (id: number) => void,
): void {
  const r = new WireReader(bytes, start, end);
  const skip = (): void => {
    const tag = bytes[r.pos++];
    switch (tag) {
      case TAG_INT:
        r.varint();
        return;
      case TAG_FLOAT:
        r.pos += 8;
        return;
      case TAG_UTF8:
      case TAG_HEX: {
        // Read the length first: `r.pos += r.varint()` would add it to `pos` as it was before the varint.
        const n = r.varint();
        r.pos += n;
        return;
      }
      case TAG_UTF16: {
        const n = r.varint();
        r.pos += n * 2;
        return;
      }
      case TAG_SHARED:
        onShared(r.varint());
        return;
      case TAG_ARRAY: {
        const n = r.varint();
        for (let i = 0; i < n; i++) skip();
        return;
      }
      case TAG_OBJECT: {
        const n = r.varint();
        for (let i = 0; i < n; i++) {
          const ref = r.varint();
          if (ref % 2 === 1) r.pos += (ref - 1) / 2;
          skip();
        }
        return;
      }
      default:
        return;
    }
  };
  skip();
  if (r.pos !== end) throw new RangeError(`packed record: ${end - r.pos} bytes left over`);
}

/** The value packed in `bytes[start, end)`, its keys and shared strings read from the tables given. */
export function readPackedValue(
  bytes: Buffer,
  start: number,
  end: number,
  keys: readonly string[],
  shared: readonly (string | undefined)[],
): unknown {
  const r = new WireReader(bytes, start, end);
  /** The next `n` bytes as a string in `encoding`. */
  const text = (encoding: BufferEncoding, n: number): string => {
    const t = bytes.toString(encoding, r.pos, r.pos + n);
    r.pos += n;
    return t;
  };
  const read = (): unknown => {
    const tag = bytes[r.pos++];
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
        const z = r.varint();
        return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
      }
      case TAG_FLOAT:
        return r.double();
      case TAG_UTF8:
        return text('utf8', r.varint());
      case TAG_UTF16:
        return text('utf16le', r.varint() * 2);
      case TAG_HEX:
        return text('hex', r.varint());
      case TAG_SHARED:
        return shared[r.varint()];
      case TAG_ARRAY: {
        const n = r.varint();
        const items = new Array<unknown>(n);
        for (let i = 0; i < n; i++) items[i] = read();
        return items;
      }
      case TAG_OBJECT: {
        const n = r.varint();
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const ref = r.varint();
          const k = ref % 2 === 0 ? keys[ref / 2]! : text('utf8', (ref - 1) / 2);
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
        throw new RangeError(`packed record: unknown tag ${tag} at byte ${r.pos - 1 - start}`);
    }
  };
  const result = read();
  if (r.pos !== end) throw new RangeError(`packed record: ${end - r.pos} bytes left over`);
  return result;
}
