/**
 * listInputFiles — the files one named input stands for: itself, or every file in a folder, sorted by name.
 *
 * The Collector's rotation renames old files `name-<timestamp>.ext` beside the live `name.ext`, so sorting
 * by name reads a rotated folder oldest first. Hidden files (a leading dot) and sub-folders are skipped. A
 * missing or unreadable path, or a folder with nothing to read, is an InputError that says what to do.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from './inputError.js';

/** A file to read and how it was named. */
export interface InputFile {
  /** The path to open. */
  readonly path: string;
  /** True when the user named this file itself (not found inside a folder). */
  readonly named: boolean;
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
      if ((await stat(path)).isFile()) files.push({ path, named: false });
    } catch {
      // Vanished between readdir and stat (rotation in progress): nothing to read.
    }
  }
  if (files.length === 0) {
    throw new InputError(
      `${input}: the folder holds no trace files. Point routescope at the folder the Collector's file exporter writes to, or at the files themselves.`,
      input,
    );
  }
  return files;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
