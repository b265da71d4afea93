/**
 * palette — every colour a report uses, in one place: the page's inks, the tones, the verdicts, the chart
 * series, and the terminal's SGR codes for the same tones.
 *
 * A verdict is the same blue, green, amber or red in a bar, a pill and a legend swatch, and a tone means the
 * same thing on a page as on a terminal, because both read it from here. Constants, and one shade. Pure.
 */

/** The page's neutral inks. */
export const INK = Object.freeze({
  text: '#1d2330',
  muted: '#6b7385',
  line: '#e4e7ee',
  background: '#f6f7fb',
  card: '#ffffff',
  header: '#1d2330',
  headerText: '#ffffff',
  headerMuted: '#b9c0d0',
  code: '#f0f2f7',
  emptyCell: '#f5f6f9',
});

/** The four verdicts. */
export const VERDICT_COLORS = Object.freeze({
  move: '#3b6fd8',
  stay: '#3a9d5d',
  menu: '#e3a21a',
  unmatched: '#c8463d',
});

/** Text tones on a page (figures, toned words). */
export const TONE_COLORS = Object.freeze({
  good: '#2f8a50',
  warn: '#b27800',
  bad: '#b8382f',
});

/** The same tones on a terminal (SGR sequences), plus dim and strong. */
export const TONE_SGR = Object.freeze({
  good: '\u001b[32m',
  bad: '\u001b[31m',
  warn: '\u001b[33m',
  dim: '\u001b[2m',
  strong: '\u001b[1m',
});
/** Ends an SGR sequence. */
export const SGR_RESET = '\u001b[0m';

/** What a chart draws, by meaning. */
export const CHART_COLORS = Object.freeze({
  /** A near-tie, a menu rate line, a flapping pair. */
  nearTie: '#e3a21a',
  /** A decisive gap, a neutral bar. */
  decisive: '#3b6fd8',
  /** A second rate line. */
  menuRate: '#8a5cc7',
  /** A threshold marker: the floor, the recorded margin; a floorless bar. */
  threshold: '#c8463d',
  /** The recommended setting. */
  recommended: '#2f8a50',
  /** A new setting (replay's margin). */
  newSetting: '#1d2330',
  /** The near-tie band behind ranked bars, and its label. */
  band: '#fbe7b5',
  bandLabel: '#9a6b00',
  /** Ranked bars: the top score, the runner-up, the others. */
  top: '#7f93c4',
  runnerUp: '#f0c36a',
  other: '#b3bac8',
  /** An unknown verdict's pill. */
  unknown: '#6b7385',
});

/** A neutral series palette. */
export const SERIES_COLORS = ['#3b6fd8', '#e3a21a', '#3a9d5d', '#c8463d', '#8a5cc7', '#2a9fb0'] as const;

/** A lighter shade of a #rrggbb colour (the "before" bars beside the "after" ones). */
export function fadeColor(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(c + (255 - c) * 0.55);
  const r = mix((n >> 16) & 255);
  const g = mix((n >> 8) & 255);
  const b = mix(n & 255);
  return `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;
}
