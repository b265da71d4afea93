/**
 * escapesAWordCharacter — does a line spell a key or marker character as a `\u` escape?
 *
 * The selective scan (scanOtlpJsonLine) finds keys and ROUTING_MARKER by their bytes, so a key or marker
 * written with `\u` escapes would be missed; a line holding such an escape is declined and parsed whole.
 * Escapes of anything else are fine. No I/O.
 */

const UNICODE_ESCAPE = Buffer.from('\\u');

/** Characters of keys and of the marker: an escape spelling one of them makes the scan decline. */
const WORD_CHARACTER = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-')
  WORD_CHARACTER[c.charCodeAt(0)] = 1;
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(d)] = d;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(d)] = d;
}

/**
 * Does `body` hold a `\u` escape of a word character (or one that is not four hex digits)? A `\\u` that is an
 * escaped backslash before a plain `u` is taken for an escape too: that can only decline, never misread.
 */
export function escapesAWordCharacter(body: Buffer): boolean {
  for (let at = body.indexOf(UNICODE_ESCAPE); at !== -1; at = body.indexOf(UNICODE_ESCAPE, at + 2)) {
    let code = 0;
    for (let k = at + 2; k < at + 6; k++) {
      const digit = k < body.length ? HEX_VALUE[body[k]!]! : -1;
      if (digit === -1) return true;
      code = code * 16 + digit;
    }
    if (code < 128 && WORD_CHARACTER[code] === 1) return true;
  }
  return false;
}
