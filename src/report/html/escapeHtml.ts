/**
 * escapeHtml — make any text taken from a trace safe to put into the HTML report, as text.
 *
 * Service, router, scorer, skill and conversation ids come from other people's spans: they may hold `<script>`,
 * `</style>`, quotes control or bidi characters. Everything the report shows goes through here, in element content
 * and in attribute values alike (quotes are escaped too), and control characters are shown as `\xNN` so a
 * person sees that they are there. Pure.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escape `text` for element content and quoted attribute values; control characters become `\xNN`. */
export function escapeHtml(text: string): string {
  return showControlCharacters(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Control characters (C0, DEL, C1, line/paragraph separators, bidi controls, BOM) spelled out as `\xNN` / `\uNNNN`. */
export function showControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
  return text.replace(controls, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

/** An id for display: escaped, cut to `max` characters with an ellipsis (the full id goes in a title). */
export function escapeId(id: string, max = 64): string {
  const shown = [...showControlCharacters(id)];
  const cut = shown.length > max ? `${shown.slice(0, max - 1).join('')}…` : shown.join('');
  return escapeHtml(cut);
}

/** `<span title="full">cut…</span>` when the id is long, the escaped id alone otherwise. */
export function htmlId(id: string, max = 64): string {
  const short = escapeId(id, max);
  const full = escapeHtml(id);
  return short === full ? full : `<span title="${full}">${short}</span>`;
}
