/**
 * openInputFile — open a file to read, with a message that says what to do when it cannot be.
 *
 * A file the user named that cannot be opened is an InputError; one found in a folder is reported
 * (`unreadable`) and skipped, and the rest of the folder is read. A folder entry that is not a file to read
 * (listInputFiles says why) is reported as `unsupported`.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { FileContext } from './formats/fileContext.js';
import { InputError } from './inputError.js';
import { reportProblem } from './readStats.js';
import type { ReadStats } from './types.js';

/**
 * Open one input file for `ctx`; a failure is an InputError that says what to do, except for a file found in
 * a folder: that one is reported (`unreadable`) and skipped, and the rest of the folder is read.
 */
export async function openForReading(ctx: FileContext, input: string): Promise<FileHandle | undefined> {
  try {
    return await openInputFile(ctx.file, input);
  } catch (error) {
    if (!(error instanceof InputError) || ctx.named) throw error;
    const prefix = `${ctx.file}: `;
    const why = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    reportProblem(ctx.stats, {
      file: ctx.file,
      line: 0,
      kind: 'unreadable',
      reason: `${why} Skipped; the other files were read`,
    });
    return undefined;
  }
}

/** A folder entry that is not read (see listInputFiles), reported with why. */
export function reportSkipped(stats: ReadStats, file: string, reason: string): void {
  reportProblem(stats, { file, line: 0, kind: 'unsupported', reason: `${reason}; skipped` });
}

/** Open one input file; a failure is an InputError that says what to do. */
export async function openInputFile(path: string, input: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw new InputError(
      code === 'EACCES' || code === 'EPERM'
        ? `${path}: permission denied. Make it readable for this user, or copy it.`
        : `${path}: cannot be opened (${error instanceof Error ? error.message : String(error)}).`,
      input,
    );
  }
}
