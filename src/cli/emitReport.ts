/**
 * emitReport — pick the formatter at the very end and write the report to stdout.
 *
 * The analysis is done before this is called and never depends on the format; a command hands over a
 * presenter with one method per format it supports (`html` is optional: a command without it refuses
 * `--format html` with a usage error). No I/O beyond the injected stdout.
 */
import type { CommandContext } from './cliCommand.js';
import type { ReportDocument } from './format/document.js';
import { formatJson } from './format/formatJson.js';
import { renderMarkdown } from './format/renderMarkdown.js';
import { renderText } from './format/renderText.js';
import { UsageError } from './usageError.js';

/** The output formats `--format` accepts. */
export const OUTPUT_FORMATS = ['text', 'json', 'markdown'] as const;
/** One output format. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number] | 'html';

/** The version of every `--format json` document (docs/json-output.md). */
export const JSON_SCHEMA_VERSION = 1;

/** What a command can turn its report into. */
export interface ReportPresenter {
  json(schemaVersion: number): unknown;
  document(): ReportDocument;
  /** May load its renderer on demand: only `--format html` runs it, so no other run pays for its import. */
  html?(): string | Promise<string>;
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
      if (presenter.html === undefined)
        throw new UsageError('this command has no HTML report; use --format text, json or markdown');
      return await presenter.html();
    case 'text':
      return renderText(presenter.document(), { color: ctx.color });
  }
}
