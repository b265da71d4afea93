/**
 * formatJson — the `--format json` serializer: stable, valid JSON whatever the trace contained.
 *
 * JSON has no NaN or Infinity, so non-finite numbers (a NaN score, an Infinity margin) are written as the
 * strings "NaN", "Infinity", "-Infinity" — the spelling the attribute layout already uses. JSON.stringify
 * escapes C0 controls but not DEL, C1, bidi controls or the line separators; those are written as \u escapes
 * too, which keeps every value identical for a parser and inert for a terminal that shows the file. Pure.
 */

const UNESCAPED = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/g;

/** Pretty-printed JSON with non-finite numbers spelled as strings; ends with a newline. */
export function formatJson(value: unknown): string {
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v))
        return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
      return v;
    },
    2,
  );
  return text.replace(UNESCAPED, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}
