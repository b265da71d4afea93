/**
 * progressLine — one self-overwriting line on stderr while a large input is read.
 *
 * Only on a terminal (stderr is a TTY) and only once more than LARGE_INPUT_BYTES have been read, so small
 * runs and pipes never see it; the line is cleared when reading ends, before the report is printed.
 */
import type { CliIo } from './io.js';
import { escapeControlChars } from '../report/escapeControlChars.js';

/** Bytes read before a progress line appears. */
export const LARGE_INPUT_BYTES = 16 * 1024 * 1024;
const STEP_BYTES = 4 * 1024 * 1024;

/** A progress reporter for readTraceInputs' `onProgress`. */
export interface ProgressLine {
  update(p: { file: string; bytesRead: number; totalBytes?: number }): void;
  done(): void;
}

/** A progress line on `io.stderr`, inert when stderr is not a terminal. */
export function createProgressLine(io: CliIo): ProgressLine {
  const enabled = io.stderrIsTTY ?? io.isTTY;
  let finished = 0;
  let currentFile: string | undefined;
  let currentBytes = 0;
  let lastShown = 0;
  let shown = false;
  return {
    update(p): void {
      if (!enabled) return;
      if (p.file !== currentFile) {
        finished += currentBytes;
        currentFile = p.file;
      }
      currentBytes = p.bytesRead;
      const total = finished + currentBytes;
      if (total < LARGE_INPUT_BYTES || total - lastShown < STEP_BYTES) return;
      lastShown = total;
      shown = true;
      const of =
        p.totalBytes === undefined
          ? ''
          : ` of ${mib(p.totalBytes)} (${Math.floor((p.bytesRead / Math.max(1, p.totalBytes)) * 100)}%)`;
      io.stderr.write(
        `\r\u001b[Kreading ${escapeControlChars(p.file)}: ${mib(p.bytesRead)}${of}, ${mib(total)} in all`,
      );
    },
    done(): void {
      if (shown) io.stderr.write('\r\u001b[K');
      shown = false;
    },
  };
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
