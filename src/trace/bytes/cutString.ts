/**
 * cutString — a string serve keeps, cut to a length serve chose rather than one a sender chose.
 *
 * Ids, names and attribute values come from whoever sends spans; kept whole, one 15 MiB conversation id in each
 * of 100,000 decisions would be terabytes. What serve stores (the window, the series' label values) is cut to a
 * limit: the start of the string, then how long it was and a hash of the whole, so two long strings that share
 * their start stay two, and a reader sees the cut. Pure. No I/O.
 */

/** The longest string the window stores whole (`--max-string`), in UTF-16 code units. */
export const DEFAULT_MAX_STORED_STRING = 1024;

/** The shortest limit a cut can honour (the marker needs room). */
export const MIN_STORED_STRING = 64;

/** `s` when it is at most `max` long, else its start and a marker, `max` long at most (`max` ≥ MIN_STORED_STRING). */
export function cutString(s: string, max: number): string {
  if (s.length <= max) return s;
  const marker = `… [cut from ${s.length} characters, #${hashOf(s)}]`;
  let keep = Math.max(0, max - marker.length);
  // Never between the two halves of a surrogate pair.
  const last = s.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return s.slice(0, keep) + marker;
}

/** FNV-1a over the UTF-16 code units, as 8 hex digits. */
function hashOf(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
