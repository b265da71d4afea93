/**
 * document — the neutral shape of a report between the analysis and a terminal or Markdown file.
 *
 * Each command turns its report into a few headings, paragraphs, key/value lists and tables once; the text
 * and Markdown renderers lay that out and do all escaping and colouring, so a string from a trace can only
 * reach the output through one escaping function. Tones are hints (colour on a terminal), never meaning.
 * Types and tiny builders only. Pure.
 */

/** How a piece of text wants to stand out. */
export type Tone = 'good' | 'bad' | 'warn' | 'dim' | 'strong';

/** Text with a tone. */
export interface Span {
  readonly text: string;
  readonly tone?: Tone;
}

/** What a cell, a value or a paragraph holds: plain text, toned text, or a run of both. */
export type Inline = string | Span | readonly (string | Span)[];

/** One block of a report. */
export type Block =
  | { readonly kind: 'title'; readonly text: Inline }
  | { readonly kind: 'heading'; readonly text: Inline }
  | { readonly kind: 'paragraph'; readonly text: Inline }
  | { readonly kind: 'list'; readonly items: readonly Inline[] }
  | { readonly kind: 'fields'; readonly rows: readonly (readonly [string, Inline])[] }
  | {
      readonly kind: 'table';
      readonly columns: readonly { readonly title: string; readonly align?: 'left' | 'right' }[];
      readonly rows: readonly (readonly Inline[])[];
      /** What the columns that need it mean, printed under the table: [column, meaning]. */
      readonly legend?: Legend;
    };

/** A table's legend: the columns that need words, each with a short meaning. */
export type Legend = readonly (readonly [column: string, meaning: string])[];

/** A whole report. */
export type ReportDocument = readonly Block[];

/** Toned text. */
export function tone(text: string, t: Tone): Span {
  return { text, tone: t };
}

/** Flatten an inline to its spans. */
export function spansOf(inline: Inline): Span[] {
  if (typeof inline === 'string') return [{ text: inline }];
  if (Array.isArray(inline))
    return (inline as readonly (string | Span)[]).map((p) => (typeof p === 'string' ? { text: p } : p));
  return [inline as Span];
}
