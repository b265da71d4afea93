/**
 * renderText — lay a report document out for a terminal: titles, aligned tables, colour when allowed.
 *
 * Every piece of text is escaped (escapeControlChars) before it is measured or coloured, so widths are what
 * the terminal shows and no trace string can emit an escape sequence; colour codes are added after, by us
 * alone, and only when the caller allows them (a TTY without NO_COLOR). Pure.
 */
import {
  blocksFor,
  legendFor,
  spansFor,
  type Block,
  type Inline,
  type ReportDocument,
  type Tone,
} from './document.js';
import { escapeControlChars } from './escapeControlChars.js';
import { measureTerminalWidth } from './measureTerminalWidth.js';
import { SGR_RESET as RESET, TONE_SGR as SGR } from './palette.js';

/** How text output looks. */
export interface TextStyle {
  /** Emit ANSI colour. */
  readonly color: boolean;
}

/** Render a document as terminal text (ends with a newline); charts and page-only blocks are skipped. */
export function renderText(doc: ReportDocument, style: TextStyle): string {
  const out: string[] = [];
  for (const block of blocksFor(doc, 'text')) {
    if (block.kind !== 'chart') out.push(...renderBlock(block, style), '');
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n';
}

/** Visible width of escaped text: terminal columns (wide CJK characters and emoji take two). */
const width = measureTerminalWidth;

/** Escaped plain text and its coloured twin. */
function inline(value: Inline, style: TextStyle, base?: Tone): { plain: string; shown: string } {
  let plain = '';
  let shown = '';
  for (const span of spansFor(value, 'text')) {
    const text = escapeControlChars(span.text);
    plain += text;
    const t = span.tone ?? base;
    shown += style.color && t !== undefined && text !== '' ? `${SGR[t]}${text}${RESET}` : text;
  }
  return { plain, shown };
}

function renderBlock(block: Block, style: TextStyle): string[] {
  switch (block.kind) {
    case 'title': {
      const t = inline(block.text, style, 'strong');
      return [t.shown, '='.repeat(Math.min(80, width(t.plain)))];
    }
    case 'heading': {
      const t = inline(block.text, style, 'strong');
      return [t.shown, '-'.repeat(Math.min(80, width(t.plain)))];
    }
    case 'paragraph':
      return [inline(block.text, style).shown];
    case 'list':
      return block.items.map((item) => `  - ${inline(item, style).shown}`);
    case 'fields':
      return fieldLines(block.rows, style);
    case 'figures':
      return fieldLines(
        block.items.map((f) => [f.label, f.tone === undefined ? f.value : { text: f.value, tone: f.tone }]),
        style,
      );
    case 'table':
      return renderTable(block, style);
    case 'chart':
    case 'form':
      return [];
  }
}

/** Labels and values, the values aligned. */
function fieldLines(rows: readonly (readonly [string, Inline])[], style: TextStyle): string[] {
  const labels = rows.map(([label]) => escapeControlChars(label));
  const w = Math.max(0, ...labels.map(width));
  return rows.map(
    ([, value], i) => `  ${labels[i]!}${' '.repeat(w - width(labels[i]!))}  ${inline(value, style).shown}`,
  );
}

function renderTable(block: Extract<Block, { kind: 'table' }>, style: TextStyle): string[] {
  const head = block.columns.map((c) => escapeControlChars(c.title));
  const cells = block.rows.map((row) => block.columns.map((_, i) => inline(row[i] ?? '', style)));
  const widths = head.map((h, i) => Math.max(width(h), ...cells.map((row) => width(row[i]!.plain))));
  const pad = (text: string, shown: string, i: number): string => {
    const gap = ' '.repeat(widths[i]! - width(text));
    return block.columns[i]!.align === 'right' ? gap + shown : shown + gap;
  };
  const line = (parts: string[]): string => `  ${parts.join('  ')}`.replace(/\s+$/, '');
  const headLine = line(head.map((h, i) => pad(h, style.color ? `${SGR.strong}${h}${RESET}` : h, i)));
  const rule = line(widths.map((w) => '-'.repeat(w)));
  const body = cells.map((row) => line(row.map((c, i) => pad(c.plain, c.shown, i))));
  return [headLine, rule, ...body, ...legendLines(legendFor(block.legend, 'text'), style)];
}

/** A legend under its table: one dim line per column, the names aligned. */
function legendLines(legend: readonly (readonly [string, string])[], style: TextStyle): string[] {
  if (legend.length === 0) return [];
  const names = legend.map(([column]) => escapeControlChars(column));
  const w = Math.max(...names.map(width));
  return [
    '',
    ...legend.map(([, meaning], i) => {
      const text = `  ${names[i]!}${' '.repeat(w - width(names[i]!))}  ${escapeControlChars(meaning)}`;
      return style.color ? `${SGR.dim}${text}${RESET}` : text;
    }),
  ];
}
