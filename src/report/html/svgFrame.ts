/**
 * svgFrame — what every chart of svgCharts is drawn with: number labels, round ticks, the `<svg>` frame,
 * escaped text elements and the "no data" chart.
 *
 * Split from svgCharts so each drawing reads on its own page; every label still goes through escapeHtml.
 * Pure.
 */
import { INK } from '../palette.js';
import { escapeHtml } from './escapeHtml.js';

const MUTED = INK.muted;

/** Number → short text: integers as is, others to three significant digits. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US');
  if (abs >= 1) return n.toFixed(2).replace(/\.?0+$/, '');
  return Number(n.toPrecision(3)).toString();
}

/** A share 0..1 as a percentage with one decimal, always (`20.0%` beside `21.9%`). */
export function formatPercent(share: number): string {
  if (!Number.isFinite(share)) return '–';
  return `${(share * 100).toFixed(1)}%`;
}

/** A coordinate to one decimal. */
export const r1 = (n: number): string => (Math.round(n * 10) / 10).toString();

/** The opening tag of a chart: its kind, size and title. */
export function open(kind: string, width: number, height: number, title: string): string {
  const t = escapeHtml(title);
  return (
    `<svg class="chart" data-chart="${kind}" viewBox="0 0 ${width} ${height}" ` +
    `width="${width}" height="${height}" role="img" aria-label="${t}"><title>${t}</title>`
  );
}

/** A text element at (x, y), its content escaped. */
export function text(x: number, y: number, content: string, attrs = ''): string {
  return `<text x="${r1(x)}" y="${r1(y)}"${attrs ? ` ${attrs}` : ''}>${escapeHtml(content)}</text>`;
}

/** A chart with no data: says so, draws no marks. */
export function empty(kind: string, width: number, title: string): string {
  return (
    open(kind, width, 60, title) +
    text(width / 2, 34, 'no data', `text-anchor="middle" fill="${MUTED}" class="empty"`) +
    '</svg>'
  );
}

/** Cut a label to `max` characters (SVG text does not wrap). */
export function clip(label: string, max: number): string {
  const chars = [...label];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : label;
}

/** Round tick values covering 0..max (or min..max), about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  // Subnormal or huge ranges give a zero or non-finite step: fall back to the two ends.
  if (!(step > 0) || !Number.isFinite(step) || (max - min) / step > 100) return [min, max];
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks.length > 0 ? ticks : [min, max];
}
