/**
 * jsonBytes — the bytes of JSON's syntax, named once for every reader that walks raw bytes.
 *
 * The selective scan, the JSON value check, the bracket check, the line splitter and the readers all test the
 * same few bytes; one module keeps them from drifting apart. No I/O.
 */

/** `"` */
export const QUOTE = 0x22;
/** `\\` */
export const BACKSLASH = 0x5c;
/** `{` */
export const OPEN_BRACE = 0x7b;
/** `}` */
export const CLOSE_BRACE = 0x7d;
/** `[` */
export const OPEN_BRACKET = 0x5b;
/** `]` */
export const CLOSE_BRACKET = 0x5d;
/** `:` */
export const COLON = 0x3a;
/** `,` */
export const COMMA = 0x2c;

/** JSON whitespace (space, tab, CR, LF) as a 256-entry table: 1 for whitespace, 0 for any other byte. */
export const JSON_SPACE = new Uint8Array(256);
for (const b of [0x20, 0x09, 0x0d, 0x0a]) JSON_SPACE[b] = 1;

/** Is `byte` JSON whitespace (space, tab, CR, LF)? */
export function isJsonSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}
