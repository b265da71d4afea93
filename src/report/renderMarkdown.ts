/**
 * renderMarkdown — a report document as GitHub-flavoured Markdown (for CI summaries and tickets).
 *
 * Every piece of text goes through escapeMarkdown, so a trace string can neither break a table (pipes) nor
 * add links, emphasis or HTML; tones become bold for `bad`/`strong` and are otherwise dropped. Pure.
 */
import { blocksFor, legendFor, spansFor, type Block, type Inline, type ReportDocument } from './document.js';
import { escapeMarkdown } from './escapeControlChars.js';

/** Render a document as Markdown (ends with a newline); charts and page-only blocks are skipped. */
export function renderMarkdown(doc: ReportDocument): string {
  return (
    blocksFor(doc, 'text')
      .filter((b) => b.kind !== 'chart')
      .map(renderBlock)
      .join('\n\n') + '\n'
  );
}

function fieldLines(rows: readonly (readonly [string, Inline])[]): string {
  return rows.map(([label, value]) => `- **${escapeMarkdown(label)}:** ${inline(value)}`).join('\n');
}

function inline(value: Inline): string {
  return spansFor(value, 'text')
    .map((span) => {
      const text = escapeMarkdown(span.text);
      return (span.tone === 'bad' || span.tone === 'strong') && text.trim() !== '' ? `**${text}**` : text;
    })
    .join('');
}

function renderBlock(block: Block): string {
  switch (block.kind) {
    case 'title':
      return `# ${inline(block.text)}`;
    case 'heading':
      return `## ${inline(block.text)}`;
    case 'paragraph':
      return inline(block.text);
    case 'list':
      return block.items.map((item) => `- ${inline(item)}`).join('\n');
    case 'fields':
      return fieldLines(block.rows);
    case 'figures':
      return fieldLines(
        block.items.map((f) => [f.label, f.tone === undefined ? f.value : { text: f.value, tone: f.tone }]),
      );
    case 'chart':
    case 'form':
      return '';
    case 'table': {
      const head = `| ${block.columns.map((c) => escapeMarkdown(c.title)).join(' | ')} |`;
      const rule = `| ${block.columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`;
      const rows = block.rows.map(
        (row) => `| ${block.columns.map((_, i) => inline(row[i] ?? '')).join(' | ')} |`,
      );
      const entries = legendFor(block.legend, 'text');
      const legend =
        entries.length === 0
          ? []
          : [
              '',
              entries
                .map(([column, meaning]) => `**${escapeMarkdown(column)}**: ${escapeMarkdown(meaning)}`)
                .join(' · '),
            ];
      return [head, rule, ...rows, ...legend].join('\n');
    }
  }
}
