/**
 * svgCharts — the report's charts, drawn as inline SVG strings: bars, lines over time, a histogram with a
 * marker, a heatmap, and ranked bars with threshold marks.
 *
 * The HTML report must open with no network and run no script, so there is no chart library: each chart is a
 * few dozen SVG elements computed here from data that is already aggregated (a handful of bars, a few hundred
 * points at most), which is what keeps the file small for a million decisions. Every element that carries a
 * datum has class `mark` (the browser test counts them) and a `<title>` tooltip; every label goes through
 * escapeHtml. An empty chart says so instead of drawing empty axes. Pure.
 */
import { CHART_COLORS, INK as PAGE, SERIES_COLORS } from '../palette.js';
import { escapeHtml } from './escapeHtml.js';
import { clip, empty, formatNumber, niceTicks, open, r1, text } from './svgFrame.js';

export { formatNumber, formatPercent, niceTicks } from './svgFrame.js';

const INK = PAGE.text;
const MUTED = PAGE.muted;
const GRID = PAGE.line;
const MARK_COLOR = CHART_COLORS.threshold;

/** One horizontal bar. */
export interface BarDatum {
  readonly label: string;
  readonly value: number;
  readonly color?: string;
  /** Extra words for the tooltip and the right-hand label. */
  readonly note?: string;
}

/** A shaded range of the value axis, labelled above the chart; `title` is the tooltip (default: the label). */
export interface ChartBand {
  readonly from: number;
  readonly to: number;
  readonly label: string;
  readonly title?: string;
}

/** A vertical line across a chart at a value of its x axis. */
export interface ChartMarker {
  readonly value: number;
  readonly label: string;
  /** The value as the report writes it (a threshold as set); default: the chart's value format. */
  readonly valueText?: string;
  readonly color?: string;
}

interface Frame {
  readonly title: string;
  readonly width?: number;
}

/**
 * Horizontal bars with a label on the left and the value on the right; optional vertical marks (a margin,
 * a floor) and a shaded band (a near-tie zone) on the value axis. The shared body of the bar charts.
 */
export function drawHorizontalBars(
  kind: string,
  data: readonly BarDatum[],
  options: Frame & {
    readonly domain?: readonly [number, number];
    readonly marks?: readonly ChartMarker[];
    readonly band?: ChartBand;
    readonly valueFormat?: (v: number) => string;
  },
): string {
  const width = options.width ?? 640;
  if (data.length === 0) return empty(kind, width, options.title);
  const fmt = options.valueFormat ?? formatNumber;
  const labelW = 170;
  const valueW = valueColumnWidth(data, fmt, width);
  const top = options.marks?.length || options.band ? 26 : 8;
  const rowH = 26;
  const height = top + data.length * rowH + 8;
  const plotW = width - labelW - valueW;
  const finite = data.map((d) => d.value).filter(Number.isFinite);
  const extra = [...(options.marks ?? []).map((m) => m.value), options.band?.from, options.band?.to].filter(
    (v): v is number => v !== undefined && Number.isFinite(v),
  );
  const lo = options.domain?.[0] ?? Math.min(0, ...finite, ...extra);
  const hiRaw = options.domain?.[1] ?? Math.max(...finite, ...extra, lo + 1e-9);
  const hi = hiRaw > lo ? hiRaw : lo + 1;
  const x = (v: number): number => labelW + ((Math.min(Math.max(v, lo), hi) - lo) / (hi - lo)) * plotW;

  let out = open(kind, width, height, options.title);
  if (options.band && Number.isFinite(options.band.from) && Number.isFinite(options.band.to)) {
    const a = x(Math.min(options.band.from, options.band.to));
    const b = x(Math.max(options.band.from, options.band.to));
    out += `<rect class="band" x="${r1(a)}" y="${top - 4}" width="${r1(Math.max(b - a, 1))}" height="${r1(height - top)}" fill="${CHART_COLORS.band}" opacity="0.7"><title>${escapeHtml(options.band.title ?? options.band.label)}</title></rect>`;
    out += text(a + 2, 12, options.band.label, `fill="${CHART_COLORS.bandLabel}" font-size="11"`);
  }
  data.forEach((d, i) => {
    const y = top + i * rowH;
    const finiteValue = Number.isFinite(d.value);
    const x0 = x(Math.max(lo, 0));
    const x1 = finiteValue ? x(d.value) : x0;
    const left = Math.min(x0, x1);
    const w = Math.max(Math.abs(x1 - x0), finiteValue && d.value !== 0 ? 1.5 : 0);
    const tip = `${d.label}: ${fmt(d.value)}${d.note ? ` — ${d.note}` : ''}`;
    out += text(labelW - 8, y + 17, clip(d.label, 26), `text-anchor="end" fill="${INK}" font-size="12"`);
    out += `<rect class="mark" x="${r1(left)}" y="${y + 4}" width="${r1(w)}" height="${rowH - 8}" rx="2" fill="${d.color ?? SERIES_COLORS[0]}"><title>${escapeHtml(tip)}</title></rect>`;
    out += text(
      width - valueW + 8,
      y + 17,
      `${fmt(d.value)}${d.note ? ` ${d.note}` : ''}`,
      `fill="${MUTED}" font-size="12"`,
    );
  });
  (options.marks ?? []).forEach((m, i) => {
    if (!Number.isFinite(m.value)) return;
    const mx = x(m.value);
    const color = m.color ?? MARK_COLOR;
    out += `<line class="marker" x1="${r1(mx)}" x2="${r1(mx)}" y1="${top - 6}" y2="${height - 4}" stroke="${color}" stroke-width="1.5" stroke-dasharray="4 3"><title>${escapeHtml(`${m.label}: ${m.valueText ?? fmt(m.value)}`)}</title></line>`;
    const anchor = mx > labelW + plotW * 0.7 ? 'end' : 'start';
    out += text(
      mx + (anchor === 'end' ? -3 : 3),
      12 + (i % 2) * 0,
      `${m.label} ${m.valueText ?? fmt(m.value)}`,
      `fill="${color}" font-size="11" text-anchor="${anchor}"`,
    );
  });
  return out + '</svg>';
}

/** A plain bar chart (verdict mix, counts per group). */
export function drawBarChart(
  data: readonly BarDatum[],
  options: Frame & { readonly valueFormat?: (v: number) => string },
): string {
  return drawHorizontalBars('bar', data, options);
}

/** Ranked bars (one decision's candidates) with the floor and the near-tie zone marked. */
export function drawRankedBars(
  data: readonly BarDatum[],
  options: Frame & {
    readonly marks?: readonly ChartMarker[];
    readonly band?: ChartBand;
    readonly domain?: readonly [number, number];
    readonly valueFormat?: (v: number) => string;
  },
): string {
  return drawHorizontalBars('ranked', data, options);
}

/** One line of a line chart. */
export interface LineSeries {
  readonly name: string;
  readonly color?: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

/** Lines over an x axis (time, or a swept margin); y defaults to 0..1 when every value fits. */
export function drawLineChart(
  series: readonly LineSeries[],
  options: Frame & {
    readonly height?: number;
    readonly xFormat?: (x: number) => string;
    readonly yFormat?: (y: number) => string;
    readonly yDomain?: readonly [number, number];
    readonly marker?: ChartMarker;
    /** Points further apart than this on x are not joined: the line breaks where there was no data. */
    readonly gapOver?: number;
  },
): string {
  const width = options.width ?? 640;
  const pts = series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (pts.length === 0) return empty('line', width, options.title);
  const height = options.height ?? 260;
  const xFmt = options.xFormat ?? formatNumber;
  const yFmt = options.yFormat ?? formatNumber;
  const left = 56;
  const right = 16;
  const top = 30;
  const bottom = 34;
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  let x0 = Math.min(...xs);
  let x1 = Math.max(...xs);
  if (options.marker && Number.isFinite(options.marker.value)) {
    x0 = Math.min(x0, options.marker.value);
    x1 = Math.max(x1, options.marker.value);
  }
  if (x1 === x0) {
    x0 -= 1;
    x1 += 1;
  }
  const [y0, y1] = options.yDomain ?? [Math.min(0, ...ys), Math.max(...ys) > 0 ? Math.max(...ys) : 1];
  const px = (x: number): number => left + ((x - x0) / (x1 - x0)) * (width - left - right);
  const py = (y: number): number => top + (1 - (y - y0) / (y1 - y0 || 1)) * (height - top - bottom);

  let out = open('line', width, height, options.title);
  for (const t of niceTicks(y0, y1, 4)) {
    out += `<line x1="${left}" x2="${width - right}" y1="${r1(py(t))}" y2="${r1(py(t))}" stroke="${GRID}"/>`;
    out += text(left - 6, py(t) + 4, yFmt(t), `text-anchor="end" fill="${MUTED}" font-size="11"`);
  }
  const xTicks = niceTicks(x0, x1, 5);
  for (const t of xTicks) {
    out += text(px(t), height - bottom + 16, xFmt(t), `text-anchor="middle" fill="${MUTED}" font-size="11"`);
  }
  out += `<line x1="${left}" x2="${width - right}" y1="${height - bottom}" y2="${height - bottom}" stroke="${MUTED}"/>`;
  if (options.marker && Number.isFinite(options.marker.value)) {
    const mx = px(options.marker.value);
    const color = options.marker.color ?? MARK_COLOR;
    out += `<line class="marker" x1="${r1(mx)}" x2="${r1(mx)}" y1="${top - 4}" y2="${height - bottom}" stroke="${color}" stroke-width="1.5" stroke-dasharray="4 3"><title>${escapeHtml(`${options.marker.label}: ${xFmt(options.marker.value)}`)}</title></line>`;
    const anchor = mx > width * 0.7 ? 'end' : 'start';
    out += text(
      mx + (anchor === 'end' ? -4 : 4),
      top + 8,
      `${options.marker.label} ${xFmt(options.marker.value)}`,
      `fill="${color}" font-size="11" text-anchor="${anchor}"`,
    );
  }
  let legendX = left;
  series.forEach((s, i) => {
    const color = s.color ?? SERIES_COLORS[i % SERIES_COLORS.length]!;
    const valid = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    if (valid.length > 0) {
      const gap = options.gapOver ?? Infinity;
      const breakBefore = (k: number): boolean => k === 0 || valid[k]!.x - valid[k - 1]!.x > gap;
      const d = valid.map((p, k) => `${breakBefore(k) ? 'M' : 'L'}${r1(px(p.x))} ${r1(py(p.y))}`).join(' ');
      out += `<path class="mark" d="${d}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round"><title>${escapeHtml(s.name)}</title></path>`;
      // Every point is drawn when there are few; a point with no neighbour on its line (no segment) always is.
      valid.forEach((p, k) => {
        const alone = breakBefore(k) && (k === valid.length - 1 || breakBefore(k + 1));
        if (valid.length > 60 && !alone) return;
        out += `<circle cx="${r1(px(p.x))}" cy="${r1(py(p.y))}" r="${valid.length <= 3 ? 5 : 2.5}" fill="${color}"><title>${escapeHtml(`${s.name} at ${xFmt(p.x)}: ${yFmt(p.y)}`)}</title></circle>`;
      });
    }
    out += `<rect x="${legendX}" y="8" width="12" height="4" fill="${color}"/>`;
    out += text(legendX + 16, 14, s.name, `fill="${INK}" font-size="11"`);
    legendX += 24 + Math.min([...s.name].length, 28) * 6.5;
  });
  return out + '</svg>';
}

/** One histogram bin: [from, to) and its count. */
export interface HistogramBin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  readonly color?: string;
  /** Part of `count` drawn at the bottom of the bar in `partColor` (a stacked share, e.g. near-ties). */
  readonly part?: number;
  readonly partColor?: string;
}

/** Vertical bars over contiguous bins, with an optional vertical marker (the margin on the gap axis). */
export function drawHistogram(
  bins: readonly HistogramBin[],
  options: Frame & {
    readonly height?: number;
    readonly marker?: ChartMarker;
    readonly markers?: readonly ChartMarker[];
    readonly xFormat?: (x: number) => string;
    /** What `part` counts, for tooltips. */
    readonly partLabel?: string;
    readonly legend?: readonly { readonly label: string; readonly color: string }[];
  },
): string {
  const width = options.width ?? 640;
  if (bins.length === 0 || bins.every((b) => b.count === 0)) return empty('histogram', width, options.title);
  const markers = [...(options.marker ? [options.marker] : []), ...(options.markers ?? [])].filter((m) =>
    Number.isFinite(m.value),
  );
  // Each marker's label gets a row of its own above the bars: close margins never print over each other.
  const labelRows = 14 * markers.length;
  const height = (options.height ?? 240) + labelRows;
  const xFmt = options.xFormat ?? formatNumber;
  const left = 56;
  const right = 16;
  const top = 26 + labelRows;
  const bottom = 34;
  const x0 = bins[0]!.from;
  const x1 = bins[bins.length - 1]!.to;
  const maxCount = Math.max(...bins.map((b) => b.count));
  const px = (x: number): number => left + ((x - x0) / (x1 - x0 || 1)) * (width - left - right);
  const py = (c: number): number => top + (1 - c / maxCount) * (height - top - bottom);

  let out = open('histogram', width, height, options.title);
  for (const t of niceTicks(0, maxCount, 4)) {
    out += `<line x1="${left}" x2="${width - right}" y1="${r1(py(t))}" y2="${r1(py(t))}" stroke="${GRID}"/>`;
    out += text(left - 6, py(t) + 4, formatNumber(t), `text-anchor="end" fill="${MUTED}" font-size="11"`);
  }
  for (const b of bins) {
    if (b.count === 0) continue;
    const a = px(b.from);
    const w = Math.max(px(b.to) - a - 1, 1);
    const part = Math.min(Math.max(b.part ?? 0, 0), b.count);
    const tip = `${xFmt(b.from)}–${xFmt(b.to)}: ${formatNumber(b.count)}${b.part === undefined ? '' : ` (${formatNumber(part)} ${options.partLabel ?? 'marked'})`}`;
    out += `<rect class="mark" x="${r1(a + 0.5)}" y="${r1(py(b.count))}" width="${r1(w)}" height="${r1(py(0) - py(b.count))}" fill="${b.color ?? SERIES_COLORS[0]}"><title>${escapeHtml(tip)}</title></rect>`;
    if (part > 0) {
      out += `<rect class="part" x="${r1(a + 0.5)}" y="${r1(py(part))}" width="${r1(w)}" height="${r1(py(0) - py(part))}" fill="${b.partColor ?? CHART_COLORS.nearTie}"><title>${escapeHtml(tip)}</title></rect>`;
    }
  }
  let legendX = width - right;
  for (const item of [...(options.legend ?? [])].reverse()) {
    const w = 22 + [...item.label].length * 6.5;
    legendX -= w;
    out += `<rect x="${r1(legendX)}" y="6" width="10" height="10" fill="${item.color}"/>`;
    out += text(legendX + 14, 15, item.label, `fill="${INK}" font-size="11"`);
  }
  for (const t of niceTicks(x0, x1, 5)) {
    out += text(px(t), height - bottom + 16, xFmt(t), `text-anchor="middle" fill="${MUTED}" font-size="11"`);
  }
  out += `<line x1="${left}" x2="${width - right}" y1="${r1(py(0))}" y2="${r1(py(0))}" stroke="${MUTED}"/>`;
  markers.forEach((m, i) => {
    const mx = px(Math.min(Math.max(m.value, x0), x1));
    const color = m.color ?? MARK_COLOR;
    const labelY = 30 + i * 14;
    out += `<line class="marker" x1="${r1(mx)}" x2="${r1(mx)}" y1="${labelY - 10}" y2="${r1(py(0))}" stroke="${color}" stroke-width="2" stroke-dasharray="5 3"><title>${escapeHtml(`${m.label}: ${xFmt(m.value)}`)}</title></line>`;
    const anchor = mx > width * 0.7 ? 'end' : 'start';
    out += text(
      mx + (anchor === 'end' ? -4 : 4),
      labelY,
      `${m.label} ${xFmt(m.value)}`,
      `fill="${color}" font-size="11" text-anchor="${anchor}"`,
    );
  });
  return out + '</svg>';
}

/** A matrix of counts: rows × columns, darker = more; the value is written in each cell. */
export function drawHeatmap(
  rows: readonly string[],
  cols: readonly string[],
  cells: readonly (readonly number[])[],
  options: Frame & { readonly rowTitle?: string; readonly colTitle?: string; readonly hue?: number },
): string {
  const total = cells.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0);
  const width0 = options.width ?? 640;
  if (rows.length === 0 || cols.length === 0 || total === 0) return empty('heatmap', width0, options.title);
  const labelW = 150;
  const headH = 96;
  const cell = Math.max(22, Math.min(48, Math.floor((width0 - labelW - 16) / cols.length)));
  const width = Math.max(width0, labelW + cols.length * cell + 16);
  const height = headH + rows.length * cell + (options.rowTitle ? 20 : 8);
  const max = Math.max(...cells.flat());
  const hue = options.hue ?? 30;

  let out = open('heatmap', width, height, options.title);
  if (options.colTitle) out += text(labelW, 12, options.colTitle, `fill="${MUTED}" font-size="11"`);
  cols.forEach((c, j) => {
    const cx = labelW + j * cell + cell / 2;
    out += `<text x="${r1(cx)}" y="${headH - 6}" transform="rotate(-45 ${r1(cx)} ${headH - 6})" fill="${INK}" font-size="11">${escapeHtml(clip(c, 16))}</text>`;
  });
  rows.forEach((rLabel, i) => {
    const y = headH + i * cell;
    out += text(
      labelW - 6,
      y + cell / 2 + 4,
      clip(rLabel, 22),
      `text-anchor="end" fill="${INK}" font-size="11"`,
    );
    cols.forEach((cLabel, j) => {
      const v = cells[i]?.[j] ?? 0;
      const x = labelW + j * cell;
      const shade = v === 0 ? 0 : 0.15 + 0.85 * (v / max);
      const fill = v === 0 ? PAGE.emptyCell : `hsl(${hue} 85% ${r1(92 - shade * 50)}%)`;
      const cls = v === 0 ? 'cell' : 'mark cell';
      out += `<rect class="${cls}" x="${x + 1}" y="${y + 1}" width="${cell - 2}" height="${cell - 2}" fill="${fill}"><title>${escapeHtml(`${rLabel} × ${cLabel}: ${formatNumber(v)}`)}</title></rect>`;
      if (v > 0 && cell >= 26) {
        const dark = shade > 0.55;
        out += text(
          x + cell / 2,
          y + cell / 2 + 4,
          compactCount(v),
          `text-anchor="middle" font-size="10" fill="${dark ? PAGE.card : INK}"`,
        );
      }
    });
  });
  if (options.rowTitle) out += text(8, height - 6, options.rowTitle, `fill="${MUTED}" font-size="11"`);
  return out + '</svg>';
}

function compactCount(v: number): string {
  if (v >= 1e6) return `${formatNumber(Number((v / 1e6).toPrecision(2)))}M`;
  if (v >= 1e4) return `${Math.round(v / 1e3)}k`;
  return String(Math.round(v));
}

/**
 * The width of a bar chart's value column: 110 px, or what its longest value and note need at the chart's
 * 12 px type (about 6.6 px a character), up to two fifths of the chart. A note past that still shows whole in
 * the bar's tooltip.
 */
function valueColumnWidth(data: readonly BarDatum[], fmt: (v: number) => string, width: number): number {
  let longest = 0;
  for (const d of data) longest = Math.max(longest, fmt(d.value).length + (d.note ? d.note.length + 1 : 0));
  return Math.min(Math.max(110, Math.ceil(longest * 6.6) + 12), Math.floor(width * 0.4));
}
