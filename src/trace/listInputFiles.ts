/**
 * listInputFiles — the files one named input stands for: itself, or every file in a folder, sorted by name.
 *
 * The Collector's rotation renames old files `name-<timestamp>.ext` beside the live `name.ext`, so sorting
 * by name reads a rotated folder oldest first. Hidden files (a leading dot) and sub-folders are skipped. A
 * FIFO, socket or device found in a folder is listed with why it is not read (reading one could block for
 * ever), for the reader to report. A missing or unreadable path, or a folder with nothing to read, is an
 * InputError that says what to do.
 */
import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
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
  for (const name of names.filter((n) => !n.startsWith('.')).sort(compareNames)) {
    const path = join(input, name);
    try {
      const info = await stat(path);
      const skip = info.isFile() ? undefined : describeSpecialFile(info);
      if (info.isFile()) files.push({ path, named: false });
      else if (skip !== undefined) files.push({ path, named: false, skip });
    } catch {
      // Vanished between readdir and stat (rotation in progress): nothing to read.
    }
  }
  if (files.every((f) => f.skip !== undefined)) {
    throw new InputError(
      `${input}: the folder holds no trace files${files.length === 0 ? '' : ` (only ${files.length} FIFO, socket or device entries)`}. Point routescope at the folder the Collector's file exporter writes to, or at the files themselves.`,
      input,
    );
  }
  return files;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
