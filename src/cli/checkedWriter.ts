/**
 * checkedWriter — standard output with every write checked, for bin.ts.
 *
 * Node writes to a file with one `writeSync` per chunk and ignores a short count, so a report redirected to a
 * nearly full disk ends cut short with exit 0; a failed write to a file or a device (`> /dev/full`) becomes an
 * uncaught stream error with a stack trace and exit 1, the code that means "a gate failed". Here a file or a
 * device is written with a loop that writes the rest after a short count and stops at the first error, and a
 * pipe, socket or terminal through the stream, its errors kept instead of thrown. `failure` is then the first
 * error (a closed pipe excepted: `| head` ends output quietly), and bin.ts turns it into one line and exit 2.
 */
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { CliWriter } from './io.js';

/** A writer that keeps its first failure instead of throwing it. */
export interface CheckedWriter extends CliWriter {
  /** The first write error; undefined while every write succeeded. */
  readonly failure: NodeJS.ErrnoException | undefined;
  /** Resolves once every write so far has finished (or failed). */
  settle(): Promise<void>;
}

/** Standard output (`stream`, file descriptor `fd`) with its writes checked. */
export function createCheckedWriter(stream: NodeJS.WriteStream, fd: number): CheckedWriter {
  return writesDirectly(fd) ? directWriter(fd) : streamWriter(stream);
}

/** A regular file or a device that is not a terminal: written here, synchronously, to the last byte. */
function writesDirectly(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFile() || (stat.isCharacterDevice() && !isatty(fd));
  } catch {
    return false;
  }
}

function directWriter(fd: number): CheckedWriter {
  let failure: NodeJS.ErrnoException | undefined;
  return {
    write(chunk: string) {
      if (failure !== undefined) return false;
      const bytes = Buffer.from(chunk, 'utf8');
      try {
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        failure = error as NodeJS.ErrnoException;
        return false;
      }
      return true;
    },
    get failure() {
      return failure;
    },
    settle: () => Promise.resolve(),
  };
}

function streamWriter(stream: NodeJS.WriteStream): CheckedWriter {
  let failure: NodeJS.ErrnoException | undefined;
  let closed = false;
  let last: Promise<void> = Promise.resolve();
  const keep = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE') closed = true;
    else failure ??= error;
  };
  stream.on('error', keep);
  return {
    write(chunk: string) {
      if (failure !== undefined || closed) return false;
      last = new Promise((resolve) => {
        stream.write(chunk, (error) => {
          if (error) keep(error as NodeJS.ErrnoException);
          resolve();
        });
      });
      return true;
    },
    get failure() {
      return failure;
    },
    settle: () => last,
  };
}
