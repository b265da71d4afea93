/**
 * escapeControlChars — make a string from a trace safe to print on a terminal or in Markdown.
 *
 * Ids, names and reasons in a trace are written by whoever produced the spans; printed raw, an ANSI or OSC
 * sequence could repaint the terminal or hide lines, a newline could forge a report line, and a bidi control
 * could reorder what a reader sees. Every C0 and C1 control, DEL, the line/paragraph separators and the bidi
 * controls are shown as visible escapes (`\n`, `\t`, `\x1b`, `\u202e`); nothing else changes. Markdown also
 * escapes the characters that would change its structure (table pipes, emphasis, links, HTML). Pure.
 */

// C0, DEL, C1, ALM, LRM/RLM, LRE..RLO, LS/PS, LRI..PDI, BOM.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One visible escape for a control character. */
function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Escape control, separator and bidi characters so the string prints as one inert line. */
export function escapeControlChars(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

const MARKDOWN_SPECIAL = /[\\|*_`[\]<>~]/g;

/** `escapeControlChars`, then backslash-escape what Markdown would read as structure (`|`, `*`, `_`, …). */
export function escapeMarkdown(text: string): string {
  return escapeControlChars(text).replace(MARKDOWN_SPECIAL, (ch) => `\\${ch}`);
}
