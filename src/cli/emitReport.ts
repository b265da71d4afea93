/**
 * emitReport — pick the formatter at the very end and write the report to stdout.
 *
 * The analysis is done before this is called and never depends on the format; a command hands over a
 * presenter: the JSON object (the documented contract) and the one report document that text, Markdown and
 * HTML render. The HTML renderer is loaded on demand: only `--format html` pays for its import. No I/O
 * beyond the injected stdout.
 */
import type { CommandContext } from './cliCommand.js';
import type { ReportDocument } from '../report/document.js';
import { formatJson } from '../report/formatJson.js';
import { renderMarkdown } from '../report/renderMarkdown.js';
import { renderText } from '../report/renderText.js';

/** The output formats `--format` accepts. */
export const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'html'] as const;
/** One output format. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The version of every `--format json` document (docs/json-output.md). */
export const JSON_SCHEMA_VERSION = 1;

/** What a command can turn its report into. */
export interface ReportPresenter {
  json(schemaVersion: number): unknown;
  document(): ReportDocument;
}

/** Render the report in the chosen format and write it to stdout. */
export async function emitReport(ctx: CommandContext, presenter: ReportPresenter): Promise<void> {
  ctx.io.stdout.write(await renderReport(ctx, presenter));
}

/** The report in the chosen format, as one string. */
export async function renderReport(
  ctx: Pick<CommandContext, 'format' | 'color'>,
  presenter: ReportPresenter,
): Promise<string> {
  switch (ctx.format) {
    case 'json':
      return formatJson(presenter.json(JSON_SCHEMA_VERSION));
    case 'markdown':
      return renderMarkdown(presenter.document());
    case 'html':
      return (await import('../report/html/renderHtml.js')).renderHtml(presenter.document());
    case 'text':
      return renderText(presenter.document(), { color: ctx.color });
  }
}
