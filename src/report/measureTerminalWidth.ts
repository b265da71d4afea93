/**
 * measureTerminalWidth — how many columns a terminal gives a string.
 *
 * ANSI escape sequences take none. Other text is cut into grapheme clusters (what a terminal draws as one
 * character): an emoji sequence takes two columns, a cluster with nothing visible (controls, combining and
 * enclosing marks, format characters) none, and any other cluster takes what its first visible code point
 * takes — two for East Asian wide and fullwidth characters, one otherwise. Printable ASCII is counted without
 * any of this, and the grapheme segmenter and the emoji pattern (~25 ms and ~17 ms to build) are only made the
 * first time a string needs them. The same rules as the string-width package for what a report shows (CJK,
 * Hangul, fullwidth forms, emoji, marks); its finer cases (trailing halfwidth forms inside a cluster,
 * unqualified emoji sequences) are not followed. Pure.
 */

/** CSI (ESC [ or 0x9B … final byte) and OSC (ESC ] … BEL or ST) sequences. */
const ANSI_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][\s\S]*?(?:\u0007|\u001b\\|\u009c)|\u001b[@-Z\\-_]/g;
/** Only printable ASCII: one column per character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** A code point that shows something (not a control, format character, mark or lone surrogate). */
const VISIBLE = /[^\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Cs}]/u;

/**
 * East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt, as [first, last] pairs in
 * code point order: Hangul Jamo, CJK radicals to Yi, Hangul syllables, compatibility ideographs, vertical and
 * small forms, fullwidth forms, and the supplementary ideographic planes. Emoji are handled as clusters.
 */
const WIDE_RANGES: readonly number[] = [
  0x1100, 0x115f, 0x231a, 0x231b, 0x2329, 0x232a, 0x2e80, 0x303e, 0x3041, 0x33ff, 0x3400, 0x4dbf, 0x4e00,
  0x9fff, 0xa000, 0xa4cf, 0xa960, 0xa97f, 0xac00, 0xd7a3, 0xf900, 0xfaff, 0xfe10, 0xfe19, 0xfe30, 0xfe6f,
  0xff00, 0xff60, 0xffe0, 0xffe6, 0x16fe0, 0x16fe4, 0x17000, 0x18cff, 0x1b000, 0x1b2ff, 0x1f200, 0x1f2ff,
  0x20000, 0x2fffd, 0x30000, 0x3fffd,
];

/** Made the first time a string is not printable ASCII. */
let segmenter: Intl.Segmenter | undefined;
/** A cluster that is one emoji, presentation and sequences included (the `v` flag is newer than our target's lib). */
let emojiCluster: RegExp | undefined;

/** Columns `text` takes on a terminal. */
export function measureTerminalWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  const plain = text.includes('\u001b') || text.includes('\u009b') ? text.replace(ANSI_SEQUENCE, '') : text;
  segmenter ??= new Intl.Segmenter();
  let columns = 0;
  for (const { segment } of segmenter.segment(plain)) columns += measureCluster(segment);
  return columns;
}

/** Columns of one grapheme cluster. */
function measureCluster(cluster: string): number {
  const code = cluster.charCodeAt(0);
  if (cluster.length === 1 && code >= 0x20 && code < 0x7f) return 1;
  emojiCluster ??= new RegExp('^\\p{RGI_Emoji}$', 'v');
  if (emojiCluster.test(cluster)) return 2;
  for (const char of cluster) {
    if (VISIBLE.test(char)) return isWide(char.codePointAt(0)!) ? 2 : 1;
  }
  return 0;
}

/** Is the code point East Asian wide or fullwidth? */
function isWide(codePoint: number): boolean {
  if (codePoint < WIDE_RANGES[0]!) return false;
  for (let i = 0; i < WIDE_RANGES.length; i += 2) {
    if (codePoint < WIDE_RANGES[i]!) return false;
    if (codePoint <= WIDE_RANGES[i + 1]!) return true;
  }
  return false;
}
