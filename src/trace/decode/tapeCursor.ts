/**
 * tapeCursor — a JSON value read token by token from its tape (assembly/jsonTape), the text read only where a
 * value lies.
 *
 * The tape holds the grammar already checked: a cursor only follows it, and a value of a kind the decoder did
 * not ask for is a decline, never a guess. `decline()` throws one shared marker, and the decoder's caller reads
 * that value the slow way (JSON.parse), which gives JSON.parse's answer. Strings on a tape are plain (no
 * escape, control byte or byte past ASCII: the tokenizer declines those), so a string is a slice of the text
 * and a number is `Number` of its slice, which reads every JSON number as JSON.parse does. A key or string that
 * is a known name (knownNames) carries its number, so fields are matched by number, not by text. Pure.
 */
import { KNOWN_NAMES } from './knownNames.js';

/** The one value `decline()` throws: the bytes are not in a shape the decoder reads. */
const DECLINED: unique symbol = Symbol('declined');

/** Give up on this value: the caller reads it the slow way. */
export function decline(): never {
  throw DECLINED;
}

/** Was `thrown` a decline (and not a bug)? */
export function isDeclined(thrown: unknown): boolean {
  return thrown === DECLINED;
}

// Token kinds, as assembly/jsonTape.ts writes them.
export const OPEN_OBJECT = 1;
export const CLOSE_OBJECT = 2;
export const OPEN_ARRAY = 3;
export const CLOSE_ARRAY = 4;
export const KEY = 5;
export const STRING = 6;
export const NUMBER = 7;
export const TRUE = 8;
export const FALSE = 9;
export const NULL = 10;

/** What kind of value comes next. */
export type ValueStart = 'string' | 'object' | 'array' | 'number' | 'literal' | 'none';

/** Buffer's own latin1 decoder, without toString's argument checks (Node has it on every Buffer). */
interface Latin1Bytes {
  latin1Slice(start: number, end: number): string;
}

/**
 * Strings at least this long cut from a text by `slice` are views that keep the whole text alive (V8's sliced
 * strings): a string kept in a record or an analysis is copied out instead, or each would hold its span's text.
 */
const SLICED_STRING_MIN = 13;

/**
 * A reading position on a tape of `count` tokens over `text`, the bytes from `base` of `bytes` (the module's
 * memory) decoded whole.
 */
export class TapeCursor {
  private at = 0;

  constructor(
    private readonly tape: Int32Array,
    private readonly count: number,
    private readonly text: string,
    private readonly bytes: Buffer,
    private readonly base: number,
  ) {}

  private kind(): number {
    return this.at < this.count ? this.tape[this.at * 3]! & 0xff : 0;
  }

  /** The known name's number of the token here (knownNames; 0: not a known name, or no token). */
  private nameNumber(): number {
    return this.at < this.count ? this.tape[this.at * 3]! >> 8 : 0;
  }

  /** The text of the token here, and step past it. */
  private take(): string {
    const t = this.at * 3;
    this.at++;
    return this.text.slice(this.tape[t + 1]! - this.base, this.tape[t + 2]! - this.base);
  }

  /** What the next value is. */
  valueStart(): ValueStart {
    switch (this.kind()) {
      case STRING:
        return 'string';
      case NUMBER:
        return 'number';
      case OPEN_OBJECT:
        return 'object';
      case OPEN_ARRAY:
        return 'array';
      case TRUE:
      case FALSE:
      case NULL:
        return 'literal';
      default:
        return 'none';
    }
  }

  /**
   * Enter an object: true when it has a member (the cursor then on its key), false when it is `{}`. Walked as
   * `if (c.openObject()) do { field = c.readKeyNumber(); …value… } while (c.nextMember());`.
   */
  openObject(): boolean {
    if (this.kind() !== OPEN_OBJECT) decline();
    this.at++;
    return this.nextMember();
  }

  /** After a member's value (or on entering): true when a key follows, false (stepped past `}`) at the end. */
  nextMember(): boolean {
    if (this.kind() !== CLOSE_OBJECT) return true;
    this.at++;
    return false;
  }

  /** Enter an array: true when it has an item, false when it is `[]`. */
  openArray(): boolean {
    if (this.kind() !== OPEN_ARRAY) decline();
    this.at++;
    return this.nextItem();
  }

  /** After an item (or on entering): true when another follows, false (stepped past `]`) at the end. */
  nextItem(): boolean {
    if (this.kind() !== CLOSE_ARRAY) return true;
    this.at++;
    return false;
  }

  /** Step past the key here: the number of the known name it is (FIELD), 0 when it is none. */
  readKeyNumber(): number {
    if (this.kind() !== KEY) decline();
    const number = this.nameNumber();
    this.at++;
    return number;
  }

  /**
   * The string here, as the one string kept for it when it is a known name (the conventions' constant), else a
   * string of its own: an attribute's key, used as a map key and looked up by the record builder.
   */
  readName(): string {
    if (this.kind() !== STRING) decline();
    const number = this.nameNumber();
    if (number === 0) return this.readString();
    this.at++;
    return KNOWN_NAMES[number - 1]!;
  }

  /** The string here, a string of its own (kept in a record, it holds nothing else alive). */
  readString(): string {
    if (this.kind() !== STRING) decline();
    const t = this.at * 3;
    const first = this.tape[t + 1]!;
    const end = this.tape[t + 2]!;
    if (end - first < SLICED_STRING_MIN) return this.take();
    this.at++;
    return (this.bytes as unknown as Latin1Bytes).latin1Slice(first, end);
  }

  /** The string here, for use while the span is read (an attribute's key, a number's text): a view of the text. */
  readTransientString(): string {
    if (this.kind() !== STRING) decline();
    return this.take();
  }

  /** The number here, as JSON.parse reads it. */
  readNumber(): number {
    if (this.kind() !== NUMBER) decline();
    return Number(this.take());
  }

  /** `true`, `false` or `null`. */
  readLiteral(): boolean | null {
    const kind = this.kind();
    if (kind !== TRUE && kind !== FALSE && kind !== NULL) decline();
    this.at++;
    return kind === NULL ? null : kind === TRUE;
  }

  /** Step over the value here, containers whole. */
  skipValue(): void {
    let depth = 0;
    do {
      const kind = this.kind();
      if (kind === 0) decline();
      if (kind === OPEN_OBJECT || kind === OPEN_ARRAY) depth++;
      else if (kind === CLOSE_OBJECT || kind === CLOSE_ARRAY) depth--;
      this.at++;
    } while (depth > 0);
  }

  /** Every token was read: the value was the whole tape. */
  expectEnd(): void {
    if (this.at !== this.count) decline();
  }
}
