/**
 * isJsonValue — is a byte range exactly one JSON value (RFC 8259) that JSON.parse accepts once decoded as UTF-8?
 *
 * What JSON.parse accepts, byte by byte: whitespace is space, tab, CR and LF; strings hold no raw byte below
 * 0x20 and only the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`; numbers are `-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?`; the literals
 * are `true`, `false` and `null`; objects have string keys. Bytes from 0x80 up are accepted inside strings
 * whatever they are, as decoding turns bad UTF-8 into U+FFFD rather than failing. Nesting depth is not limited
 * (V8's JSON.parse is not recursive). A property test holds isJsonValue to JSON.parse. findJsonError says
 * where a range stops being JSON (V8's messages do not always say), for a damaged document's problem line
 * (readJsonDocument). No I/O.
 */
import { BACKSLASH, JSON_SPACE, QUOTE } from '../jsonBytes.js';

/** Bytes that may follow a backslash (besides `u`). */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** Where the checker is, between tokens. */
const EXPECT_VALUE = 0;
/** After a value: a comma, or the closer of the innermost container. */
const AFTER_VALUE = 1;
/** Just inside `{` or after a comma in an object: a key (or `}` right after `{`). */
const EXPECT_KEY = 2;

/** Is `buf[start, end)` one JSON value, with nothing but whitespace around it? */
export function isJsonValue(buf: Uint8Array, start: number, end: number): boolean {
  return findJsonError(buf, start, end) === -1;
}

/**
 * -1 when `buf[start, end)` is one JSON value with nothing but whitespace around it; otherwise the offset of
 * the token where it stops being one (`end` when it ends too soon).
 */
export function findJsonError(buf: Uint8Array, start: number, end: number): number {
  // Open containers, innermost last: true = object.
  const open: boolean[] = [];
  let state = EXPECT_VALUE;
  let emptyAllowed = false;
  let i = start;
  for (;;) {
    while (i < end && JSON_SPACE[buf[i]!] === 1) i++;
    if (i >= end) return state === AFTER_VALUE && open.length === 0 ? -1 : end;
    const c = buf[i]!;
    if (state === AFTER_VALUE) {
      if (open.length === 0) return i;
      const inObject = open[open.length - 1]!;
      if (c === 0x2c) {
        state = inObject ? EXPECT_KEY : EXPECT_VALUE;
        emptyAllowed = false;
        i++;
      } else if (c === (inObject ? 0x7d : 0x5d)) {
        open.pop();
        i++;
      } else {
        return i;
      }
      continue;
    }
    if (state === EXPECT_KEY) {
      if (c === 0x7d && emptyAllowed) {
        open.pop();
        state = AFTER_VALUE;
        i++;
        continue;
      }
      if (c !== QUOTE) return i;
      const key = i;
      i = skipString(buf, i, end);
      if (i === -1) return key;
      while (i < end && JSON_SPACE[buf[i]!] === 1) i++;
      if (buf[i] !== 0x3a) return Math.min(i, end);
      i++;
      state = EXPECT_VALUE;
      emptyAllowed = false;
      continue;
    }
    // EXPECT_VALUE
    if (c === 0x7b) {
      open.push(true);
      state = EXPECT_KEY;
      emptyAllowed = true;
      i++;
    } else if (c === 0x5b) {
      open.push(false);
      state = EXPECT_VALUE;
      emptyAllowed = true;
      i++;
    } else if (c === 0x5d && emptyAllowed && open[open.length - 1] === false) {
      open.pop();
      state = AFTER_VALUE;
      i++;
    } else {
      const token = i;
      if (c === QUOTE) i = skipString(buf, i, end);
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) i = skipNumber(buf, i, end);
      else if (c === 0x74) i = skipLiteral(buf, i, end, TRUE);
      else if (c === 0x66) i = skipLiteral(buf, i, end, FALSE);
      else if (c === 0x6e) i = skipLiteral(buf, i, end, NULL);
      else return i;
      if (i === -1) return token;
      state = AFTER_VALUE;
    }
  }
}

/** `i` at an opening quote: the index past the closing one, or -1. */
function skipString(buf: Uint8Array, i: number, end: number): number {
  for (i++; i < end; i++) {
    const c = buf[i]!;
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const e = buf[++i];
      if (e === undefined || i >= end) return -1;
      if (e === 0x75) {
        if (i + 4 >= end) return -1;
        if (HEX[buf[i + 1]!]! & HEX[buf[i + 2]!]! & HEX[buf[i + 3]!]! & HEX[buf[i + 4]!]!) i += 4;
        else return -1;
      } else if (SIMPLE_ESCAPE[e] !== 1) {
        return -1;
      }
    }
  }
  return -1;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** `i` at `-` or a digit: the index past the number, or -1. */
function skipNumber(buf: Uint8Array, i: number, end: number): number {
  const at = (k: number): number | undefined => (k < end ? buf[k] : undefined);
  if (at(i) === 0x2d) i++;
  if (at(i) === 0x30) i++;
  else if (isDigit(at(i))) while (isDigit(at(i))) i++;
  else return -1;
  if (at(i) === 0x2e) {
    i++;
    if (!isDigit(at(i))) return -1;
    while (isDigit(at(i))) i++;
  }
  const e = at(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = at(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(at(i))) return -1;
    while (isDigit(at(i))) i++;
  }
  return i;
}

function skipLiteral(buf: Uint8Array, i: number, end: number, word: readonly number[]): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (buf[i + k] !== word[k]) return -1;
  return i + word.length;
}
