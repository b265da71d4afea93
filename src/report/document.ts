/**
 * document — the one shape of a report between the analysis and a terminal, a Markdown file or a page.
 *
 * Each command turns its report into one document — a title, key figures, sections (a heading and what
 * follows it), paragraphs, lists, fields, tables with legends, and charts — and text, Markdown and HTML are
 * three renderers of it, which do all escaping and colouring, so a string from a trace reaches any output
 * through one escaping function. Tones and looks are hints (colour, a monospace id), never meaning. Charts
 * are drawn on a page only: text and Markdown skip them, the tables beside them carry the numbers. A block
 * marked `only` is for one kind of output (`text` covers text and Markdown): a page may say more than a
 * terminal, in other words, without either losing what it says. Types and tiny builders only. Pure.
 */
import type {
  drawBarChart,
  drawHeatmap,
  drawHistogram,
  drawLineChart,
  drawRankedBars,
  BarDatum,
  HistogramBin,
  LineSeries,
} from './html/svgCharts.js';

/** How a piece of text wants to stand out. */
export type Tone = 'good' | 'bad' | 'warn' | 'dim' | 'strong';

/**
 * What a piece of text is, for a page: an id (monospace, whole), code, a verdict (a coloured pill), or a
 * colour swatch (a key's square, in `color`).
 */
export type Look = 'id' | 'code' | 'verdict' | 'swatch';

/** Text with a tone, a look, or a link (a page links http(s) addresses only; elsewhere it is text). */
export interface Span {
  readonly text: string;
  readonly tone?: Tone;
  readonly look?: Look;
  readonly href?: string;
  /** A swatch's colour (#rgb or #rrggbb). */
  readonly color?: string;
  /** Shown by one kind of output only. */
  readonly only?: Medium;
}

/** What a cell, a value or a paragraph holds: plain text, toned text, or a run of both. */
export type Inline = string | Span | readonly (string | Span)[];

/** The outputs a block can be kept to: `text` is text and Markdown, `html` the page. */
export type Medium = 'text' | 'html';

/** One headline figure; on a page with `href`, the card links to the list it counts. */
export interface Figure {
  readonly label: string;
  readonly value: string;
  readonly tone?: 'good' | 'warn' | 'bad';
  readonly href?: string;
}

/** One control of a form: a choice among options, a checkbox, or a value carried along unseen. */
export type FormField =
  | {
      readonly kind: 'select';
      readonly name: string;
      readonly label: string;
      /** [value, shown]; the empty value is "any". */
      readonly options: readonly (readonly [string, string])[];
      readonly value: string;
    }
  | { readonly kind: 'checkbox'; readonly name: string; readonly label: string; readonly checked: boolean }
  | { readonly kind: 'hidden'; readonly name: string; readonly value: string };

/** A chart: the data and options of one of the svgCharts drawings. */
export type Chart =
  | {
      readonly type: 'bars';
      readonly data: readonly BarDatum[];
      readonly options: Parameters<typeof drawBarChart>[1];
    }
  | {
      readonly type: 'ranked';
      readonly data: readonly BarDatum[];
      readonly options: Parameters<typeof drawRankedBars>[1];
    }
  | {
      readonly type: 'line';
      readonly series: readonly LineSeries[];
      readonly options: Parameters<typeof drawLineChart>[1];
    }
  | {
      readonly type: 'histogram';
      readonly bins: readonly HistogramBin[];
      readonly options: Parameters<typeof drawHistogram>[1];
    }
  | {
      readonly type: 'heatmap';
      readonly rows: readonly string[];
      readonly cols: readonly string[];
      readonly cells: readonly (readonly number[])[];
      readonly options: Parameters<typeof drawHeatmap>[3];
    };

/** A table column. */
export interface Column {
  readonly title: string;
  readonly align?: 'left' | 'right';
}

/** One block of a report. */
export type Block = (
  | { readonly kind: 'title'; readonly text: Inline }
  | {
      readonly kind: 'heading';
      readonly text: Inline;
      /** On a page, lay this section out at half width beside its neighbour. */
      readonly half?: boolean;
    }
  | { readonly kind: 'paragraph'; readonly text: Inline }
  | { readonly kind: 'list'; readonly items: readonly Inline[] }
  | { readonly kind: 'fields'; readonly rows: readonly (readonly [string, Inline])[] }
  | { readonly kind: 'figures'; readonly items: readonly Figure[] }
  | {
      readonly kind: 'table';
      readonly columns: readonly Column[];
      readonly rows: readonly (readonly Inline[])[];
      /** What the columns that need it mean, printed under the table: [column, meaning]. */
      readonly legend?: Legend;
    }
  | { readonly kind: 'chart'; readonly chart: Chart }
  /** A GET form to a path of the page's own site (serve's list filters): a page only, text skips it. */
  | { readonly kind: 'form'; readonly action: string; readonly fields: readonly FormField[] }
) & { readonly only?: Medium };

/** A table's legend: the columns that need words, each with a short meaning (and the output it is for). */
export type Legend = readonly (
  readonly [column: string, meaning: string] | readonly [column: string, meaning: string, only: Medium]
)[];

/** A whole report. */
export type ReportDocument = readonly Block[];

/** Toned text. */
export function tone(text: string, t: Tone): Span {
  return { text, tone: t };
}

/** Text with a look (an id, code, a verdict). */
export function look(text: string, l: Look): Span {
  return { text, look: l };
}

/** The blocks one medium shows: those kept to the other are dropped. */
export function blocksFor(doc: ReportDocument, medium: Medium): Block[] {
  return doc.filter((b) => b.only === undefined || b.only === medium);
}

/** The same blocks, kept to one medium. */
export function onlyIn(medium: Medium, blocks: readonly Block[]): Block[] {
  return blocks.map((b) => ({ ...b, only: medium }));
}

/** Flatten an inline to its spans. */
export function spansOf(inline: Inline): Span[] {
  if (typeof inline === 'string') return [{ text: inline }];
  if (Array.isArray(inline))
    return (inline as readonly (string | Span)[]).map((p) => (typeof p === 'string' ? { text: p } : p));
  return [inline as Span];
}

/** The spans one medium shows. */
export function spansFor(inline: Inline, medium: Medium): Span[] {
  return spansOf(inline).filter((s) => s.only === undefined || s.only === medium);
}

/** The legend entries one medium shows, as [column, meaning]. */
export function legendFor(legend: Legend | undefined, medium: Medium): [string, string][] {
  return (legend ?? [])
    .filter((entry) => entry[2] === undefined || entry[2] === medium)
    .map(([column, meaning]) => [column, meaning]);
}

/** An inline as plain text. */
export function plainText(inline: Inline): string {
  return spansOf(inline)
    .map((s) => s.text)
    .join('');
}
