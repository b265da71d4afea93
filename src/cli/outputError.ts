/**
 * outputError — output that could not be written: the one line the CLI prints for it, exit code 2.
 *
 * A report that does not reach its file, or a demo trace file cut short by a full disk, must never pass for a
 * finished run: the write is checked, and what failed is said as the user's situation (a full disk, a
 * read-only file system, a quota), with the place it went to, never as an "unexpected error".
 */

/** Output could not be written; `message` says what, where and why. Exit code 2. */
export class OutputError extends Error {
  override readonly name = 'OutputError';
}

/** A failed write as the user's situation: "no space left on the device (ENOSPC)", and so on. */
export function describeWriteFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? SITUATIONS[code] : undefined;
  if (known !== undefined) return `${known} (${String(code)})`;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${message} (${code})` : message;
}

const SITUATIONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EFBIG: 'the file is larger than the file system allows',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EIO: 'an input/output error on the device',
  ENOENT: 'the folder does not exist (any more)',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EMFILE: 'too many open files',
  ENXIO: 'the device is not there',
};
