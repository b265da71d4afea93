/**
 * jsonTape — one JSON value's tokens, found in one pass (AssemblyScript, built to dist/wasm/jsonTape.wasm by
 * `npm run build`): simdjson's first stage, a structural index, so the decoder reads values where they lie.
 *
 * The caller copies the value's bytes to `from` and asks for its tape: three i32 per token (kind, first byte,
 * end byte; a string's bytes without its quotes). A key or string whose bytes are one of the caller's known
 * names (a table it wrote once at `known`: see `nameOf`) carries the name's number in the kind word's upper bits
 * (`kind | number << 8`), so the decoder matches names by number instead of reading their text. The grammar is JSON's, checked here: the tokens of a value
 * that JSON.parse refuses are never written. What the decoder reads with a plain slice of the text is all that
 * is taken: a string holding a backslash, a control byte or a byte past ASCII, nesting past MAX_DEPTH, or more
 * tokens than `capacity` is declined (-1), and the caller parses that value with JSON.parse. Strings are
 * searched 16 bytes at a time (v128). No I/O; no allocation.
 */

// Token kinds on the tape.
const OPEN_OBJECT: i32 = 1;
const CLOSE_OBJECT: i32 = 2;
const OPEN_ARRAY: i32 = 3;
const CLOSE_ARRAY: i32 = 4;
const KEY: i32 = 5;
const STRING: i32 = 6;
const NUMBER: i32 = 7;
const TRUE: i32 = 8;
const FALSE: i32 = 9;
const NULL: i32 = 10;

/** Containers deeper than this are declined (the open containers are bits of one u64). */
const MAX_DEPTH: i32 = 60;
const DECLINED: i32 = -1;

/** The layout of `tokenize` this module speaks; loadJsonTape checks it. */
export function abi(): i32 {
  return 2;
}

/** Slots of the known names' table (a power of two); each 16 bytes: hash, number, first byte, length. */
const KNOWN_SLOTS: u32 = 1024;
/** Names longer than this are not looked up (no known name is). */
const LONGEST_NAME: u32 = 96;

/**
 * The hash of a name's `n` bytes at `at`, from its length and four 32-bit words: its first 8 bytes and its last
 * 8 (when shorter than 8, its bytes zero-padded, and zeros). Reading past a short name stays inside this
 * module's memory (the value window is followed by the tape). knownNames fills the table with the same
 * function; a hash only finds a slot, the bytes are compared before a number is given.
 */
function nameHash(at: usize, n: u32): u32 {
  let w0: u32, w1: u32, w2: u32, w3: u32;
  if (n >= 8) {
    w0 = load<u32>(at);
    w1 = load<u32>(at, 4);
    w2 = load<u32>(at + n - 8);
    w3 = load<u32>(at + n - 4);
  } else {
    const bytes = load<u64>(at) & (((<u64>1) << (<u64>n * 8)) - 1);
    w0 = <u32>bytes;
    w1 = <u32>(bytes >> 32);
    w2 = 0;
    w3 = 0;
  }
  let h: u32 = n * 0x9e3779b1;
  h = mixWord(h, w0);
  h = mixWord(h, w1);
  h = mixWord(h, w2);
  h = mixWord(h, w3);
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  return h;
}

/** One word into the hash (murmur3's step). */
function mixWord(h: u32, w: u32): u32 {
  const k = rotl<u32>(w * 0xcc9e2d51, 15) * 0x1b873593;
  return rotl<u32>(h ^ k, 13) * 5 + 0xe6546b64;
}

/** Are the `n` bytes at `a` and at `b` the same? */
function sameBytes(a: usize, b: usize, n: u32): bool {
  let i: u32 = 0;
  while (i + 8 <= n) {
    if (load<u64>(a + i) != load<u64>(b + i)) return false;
    i += 8;
  }
  while (i < n) {
    if (load<u8>(a + i) != load<u8>(b + i)) return false;
    i++;
  }
  return true;
}

/** The number of the known name whose bytes are the `n` at `at` (0: none), probing from its hash's slot. */
function nameOf(known: usize, at: usize, n: u32): i32 {
  if (known == 0 || n == 0 || n > LONGEST_NAME) return 0;
  const h = nameHash(at, n);
  let slot = h & (KNOWN_SLOTS - 1);
  while (true) {
    const entry = known + <usize>slot * 16;
    const number = load<i32>(entry, 4);
    if (number == 0) return 0;
    if (load<u32>(entry) == h && load<u32>(entry, 12) == n && sameBytes(<usize>load<u32>(entry, 8), at, n))
      return number;
    slot = (slot + 1) & (KNOWN_SLOTS - 1);
  }
}

function isSpace(b: u32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d;
}

function isDigit(b: u32): bool {
  return b >= 0x30 && b <= 0x39;
}

/** Where the string whose bytes start at `at` stops being plain: its quote, or the first byte to decline. */
function plainStringEnd(at: usize, end: usize): usize {
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const control = i8x16.splat(0x20);
  let q = at;
  while (q + 16 <= end) {
    const v = v128.load(q);
    const stop = v128.or(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)), i8x16.lt_u(v, control));
    // A byte past ASCII has its high bit set: i8x16.bitmask of the bytes themselves.
    const bits = i8x16.bitmask(stop) | i8x16.bitmask(v);
    if (bits != 0) return q + <usize>ctz(bits);
    q += 16;
  }
  while (q < end) {
    const c = <u32>load<u8>(q);
    if (c == 0x22 || c == 0x5c || c < 0x20 || c >= 0x80) return q;
    q++;
  }
  return q;
}

/** The end of the digits from `at` (at least one, else 0: no end). */
function digitsEnd(at: usize, end: usize): usize {
  let q = at;
  while (q < end && isDigit(<u32>load<u8>(q))) q++;
  return q == at ? 0 : q;
}

/** The end of the JSON number starting at `at`, or 0 when the grammar refuses it. */
function numberEnd(at: usize, end: usize): usize {
  let q = at;
  if (load<u8>(q) == 0x2d) q++;
  if (q >= end) return 0;
  if (load<u8>(q) == 0x30) q++;
  else {
    q = digitsEnd(q, end);
    if (q == 0) return 0;
  }
  if (q < end && load<u8>(q) == 0x2e) {
    q = digitsEnd(q + 1, end);
    if (q == 0) return 0;
  }
  if (q < end && (load<u8>(q) | 0x20) == 0x65) {
    q++;
    if (q < end && (load<u8>(q) == 0x2b || load<u8>(q) == 0x2d)) q++;
    q = digitsEnd(q, end);
  }
  return q;
}

function put(tape: usize, n: i32, kind: i32, first: usize, last: usize): void {
  const t = tape + <usize>n * 12;
  store<i32>(t, kind);
  store<i32>(t, <i32>first, 4);
  store<i32>(t, <i32>last, 8);
}

/**
 * The tokens of the one JSON value in [from, to) (whitespace around it allowed), written to `tape`: how many,
 * or -1 when declined. Positions are byte offsets in this module's memory; `known` is the names' table (0: none).
 */
export function tokenize(from: usize, to: usize, tape: usize, capacity: i32, known: usize): i32 {
  let p = from;
  let n: i32 = 0;
  let depth: i32 = 0;
  let objects: u64 = 0; // bit d: the container at depth d is an object
  let wantKey = false; // inside an object, before a key (or its closing brace right after `{`)
  let afterValue = false; // a value ended: a comma or a closer comes next
  let emptyAllowed = false; // just opened: the closer may come at once
  while (true) {
    while (p < to && isSpace(<u32>load<u8>(p))) p++;
    if (p >= to) break;
    if (n >= capacity) return DECLINED;
    const b = <u32>load<u8>(p);
    if (afterValue || emptyAllowed) {
      const inObject = depth > 0 && ((objects >> (<u64>(depth - 1))) & 1) == 1;
      if ((b == 0x7d && inObject) || (b == 0x5d && depth > 0 && !inObject)) {
        depth--;
        put(tape, n++, b == 0x7d ? CLOSE_OBJECT : CLOSE_ARRAY, p, p + 1);
        p++;
        afterValue = true;
        emptyAllowed = false;
        wantKey = false;
        continue;
      }
      if (afterValue) {
        if (b != 0x2c || depth == 0) return DECLINED;
        p++;
        afterValue = false;
        wantKey = inObject;
        continue;
      }
      emptyAllowed = false;
    }
    if (wantKey) {
      if (b != 0x22) return DECLINED;
      const q = plainStringEnd(p + 1, to);
      if (q >= to || load<u8>(q) != 0x22) return DECLINED;
      put(tape, n++, KEY | (nameOf(known, p + 1, <u32>(q - p - 1)) << 8), p + 1, q);
      p = q + 1;
      while (p < to && isSpace(<u32>load<u8>(p))) p++;
      if (p >= to || load<u8>(p) != 0x3a) return DECLINED;
      p++;
      wantKey = false;
      continue;
    }
    if (b == 0x7b || b == 0x5b) {
      if (depth >= MAX_DEPTH) return DECLINED;
      if (b == 0x7b) objects |= (<u64>1) << (<u64>depth);
      else objects &= ~((<u64>1) << (<u64>depth));
      depth++;
      put(tape, n++, b == 0x7b ? OPEN_OBJECT : OPEN_ARRAY, p, p + 1);
      p++;
      wantKey = b == 0x7b;
      emptyAllowed = true;
      continue;
    }
    if (b == 0x22) {
      const q = plainStringEnd(p + 1, to);
      if (q >= to || load<u8>(q) != 0x22) return DECLINED;
      put(tape, n++, STRING | (nameOf(known, p + 1, <u32>(q - p - 1)) << 8), p + 1, q);
      p = q + 1;
    } else if (b == 0x2d || isDigit(b)) {
      const q = numberEnd(p, to);
      if (q == 0) return DECLINED;
      put(tape, n++, NUMBER, p, q);
      p = q;
    } else if (b == 0x74 && p + 4 <= to && load<u32>(p) == 0x65757274) {
      put(tape, n++, TRUE, p, p + 4);
      p += 4;
    } else if (b == 0x66 && p + 5 <= to && load<u32>(p + 1) == 0x65736c61) {
      put(tape, n++, FALSE, p, p + 5);
      p += 5;
    } else if (b == 0x6e && p + 4 <= to && load<u32>(p) == 0x6c6c756e) {
      put(tape, n++, NULL, p, p + 4);
      p += 4;
    } else return DECLINED;
    afterValue = true;
  }
  return depth == 0 && afterValue ? n : DECLINED;
}
