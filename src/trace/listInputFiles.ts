/**
 * listInputFiles — the files one named input stands for: itself, or every file in a folder and its
 * sub-folders, each folder's entries sorted by name.
 *
 * The Collector's rotation renames old files `name-<timestamp>.ext` beside the live `name.ext`, so sorting
 * by name reads a rotated folder oldest first. Sub-folders are read too (a tree by day or by service), links
 * followed; a folder reached again (a link back up: a loop) is read once. Nothing in a folder is passed over
 * in silence: what is not read is listed with why, for the reader to report as a problem — a hidden entry (a
 * leading dot), a link to nothing, an entry that cannot be looked at, a folder nested past MAX_FOLDER_DEPTH,
 * a folder reached again, and a FIFO, socket or device (reading one could block for ever). An entry that
 * vanished between listing and looking (rotation) is simply gone. A missing or unreadable path, or a folder
 * with nothing to read, is an InputError that says what to do.
 */
import type { Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from './inputError.js';

/** A file to read and how it was named. */
export interface InputFile {
  /** The path to open. */
  readonly path: string;
  /** True when the user named this file itself (not found inside a folder). */
  readonly named: boolean;
  /** Why a folder entry is not read (a FIFO, socket or device); absent for a file to read. */
  readonly skip?: string;
}

function describeSpecialFile(info: Stats): string | undefined {
  const what = info.isFIFO()
    ? 'a FIFO (named pipe)'
    : info.isSocket()
      ? 'a socket'
      : info.isCharacterDevice() || info.isBlockDevice()
        ? 'a device'
        : undefined;
  return what === undefined
    ? undefined
    : `${what}, not a regular file: not read from inside a folder, where it could block the run; name it on its own to read it`;
}

function describeFsError(input: string, error: unknown): InputError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new InputError(
      `${input}: no such file or folder. Check the path; a folder reads every file in it, '-' reads standard input.`,
      input,
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new InputError(`${input}: permission denied. Make it readable for this user, or copy it.`, input);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new InputError(`${input}: cannot be read (${message}).`, input);
}

/** Folders below a named folder that are read; deeper ones are listed as skipped. */
export const MAX_FOLDER_DEPTH = 32;

/** Expand `input` (a file or a folder path) into the files to read, in order. */
export async function listInputFiles(input: string): Promise<InputFile[]> {
  let info;
  try {
    info = await stat(input);
  } catch (error) {
    throw describeFsError(input, error);
  }
  if (!info.isDirectory()) return [{ path: input, named: true }];
  let names: string[];
  try {
    names = await readdir(input);
  } catch (error) {
    throw describeFsError(input, error);
  }
  const files: InputFile[] = [];
  const visited = new Set<string>([await realpath(input).catch(() => input)]);
  await listFolder(input, names, 0, visited, files);
  if (files.every((f) => f.skip !== undefined)) {
    throw new InputError(
      `${input}: the folder holds no trace files${files.length === 0 ? '' : ` (only ${files.length} ${files.length === 1 ? 'entry' : 'entries'} not read, such as ${files[0]!.path}: ${files[0]!.skip})`}. Point routescope at the folder the Collector's file exporter writes to, or at the files themselves.`,
      input,
    );
  }
  return files;
}

/** Append the entries of one folder (`names`, read already) to `files`, in name order, sub-folders in place. */
async function listFolder(
  folder: string,
  names: string[],
  depth: number,
  visited: Set<string>,
  files: InputFile[],
): Promise<void> {
  for (const name of names.sort(compareNames)) {
    const path = join(folder, name);
    if (name.startsWith('.')) {
      files.push({ path, named: false, skip: HIDDEN });
      continue;
    }
    let info: Stats;
    try {
      info = await stat(path);
    } catch (error) {
      const skip = await describeUnreachable(path, error);
      if (skip !== undefined) files.push({ path, named: false, skip });
      continue;
    }
    if (info.isFile()) {
      files.push({ path, named: false });
    } else if (info.isDirectory()) {
      const real = await realpath(path).catch(() => path);
      if (visited.has(real)) {
        files.push({
          path,
          named: false,
          skip: 'a folder already read, reached again through a link (a loop, or a second way in): read once',
        });
        continue;
      }
      if (depth + 1 > MAX_FOLDER_DEPTH) {
        files.push({
          path,
          named: false,
          skip: `a folder nested more than ${MAX_FOLDER_DEPTH} deep: not read; name it on its own to read it`,
        });
        continue;
      }
      visited.add(real);
      let inner: string[];
      try {
        inner = await readdir(path);
      } catch (error) {
        files.push({ path, named: false, skip: `a folder that cannot be listed (${describeCode(error)})` });
        continue;
      }
      await listFolder(path, inner, depth + 1, visited, files);
    } else {
      files.push({ path, named: false, skip: describeSpecialFile(info) ?? 'not a regular file' });
    }
  }
}

const HIDDEN =
  'a hidden entry (its name starts with a dot): not read from inside a folder; name it on its own to read it';

/**
 * Why an entry that `stat` failed on is not read: a link to nothing, or one that cannot be looked at; undefined
 * when it is gone altogether (it vanished between listing and looking, as rotation does).
 */
async function describeUnreachable(path: string, error: unknown): Promise<string | undefined> {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') {
    const link = await lstat(path).then(
      (l) => l.isSymbolicLink(),
      () => false,
    );
    return link ? 'a link to something that does not exist: nothing to read' : undefined;
  }
  if (code === 'ELOOP') return 'a link that leads round in a loop: nothing to read';
  return `cannot be looked at (${describeCode(error)})`;
}

function describeCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
