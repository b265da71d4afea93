/**
 * outFile — `serve --out FILE`: every request kept, appended as a line for every other command to read.
 *
 * The receiver answers a request 2xx only once its line is in the file (handed to the operating system whole),
 * so an acknowledged span is never missing from it. Lines are written one at a time, in the order they came,
 * from a queue; while more than `highWater` bytes wait, `admit` says `busy` and the receiver answers 503. A
 * failed write (a full disk, an I/O error) fails that request and every one queued behind it (503: the exporter
 * retries), says so once through `log`, and puts the file in `failing`: new requests get 503 too, but for one
 * every `retryMs`, which tries the disk again and, when its line is written, ends the failure (also said). The
 * bytes a failed write may have left are cut away first (the file is truncated to the size of the lines
 * written whole), so the file stays whole lines. A FIFO is written without blocking, through the event loop
 * (a blocking write to a pipe no one drains would hold a thread, and the process's exit, for ever): `open`
 * refuses one no process reads, and `close` gives up after a deadline, saying what it could not write.
 */
import { closeSync, constants, openSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';

/** Bytes waiting for the disk beyond which the receiver pauses. */
export const OUT_HIGH_WATER = 32 * 1024 * 1024;

/** While writes fail, one request this often may try again. */
export const OUT_RETRY_MS = 1000;

/** Whether a request may try to write now. */
export type OutAdmission = 'ok' | 'busy' | 'failing';

/** A write that did not reach the file: the request it was for is refused, not kept. */
export class OutWriteError extends Error {
  override readonly name = 'OutWriteError';
}

/** What is waiting for the disk (for the summary of a stop that could not flush). */
export interface OutBacklog {
  requests: number;
  items: number;
  bytes: number;
}

/** The appender. */
export interface OutFile {
  readonly path: string;
  /** Whether a request may try to write now (read before its body). */
  admit(): OutAdmission;
  /**
   * Write one request's line, given in parts (`items` spans or events); resolves once it is all written, else
   * OutWriteError.
   */
  write(line: readonly Buffer[], items: number): Promise<void>;
  /** More than the high-water mark waits to be written. */
  readonly backedUp: boolean;
  /** Requests and bytes written whole. */
  readonly written: { requests: number; bytes: number };
  /** The error writes fail with now; undefined while they succeed. */
  readonly failing: string | undefined;
  /** Writes that failed since start. */
  readonly errors: number;
  /** What waits for the disk now. */
  readonly backlog: Readonly<OutBacklog>;
  /** Write what waits, at most `deadlineMs`, and close; resolves with what could not be written. */
  close(deadlineMs?: number): Promise<Readonly<OutBacklog>>;
}

/** How the appender runs. */
export interface OutFileOptions {
  /** @default OUT_HIGH_WATER */
  readonly highWater?: number;
  /** @default OUT_RETRY_MS */
  readonly retryMs?: number;
  /** One line when writes start or stop failing. */
  readonly log?: (line: string) => void;
  readonly now?: () => number;
}

interface Job {
  readonly line: readonly Buffer[];
  readonly bytes: number;
  readonly items: number;
  resolve(): void;
  reject(error: OutWriteError): void;
}

/** Open `path` for appending. Rejects with the reason when it cannot be opened, or not without blocking. */
export async function openOutFile(path: string, options: OutFileOptions = {}): Promise<OutFile> {
  const highWater = options.highWater ?? OUT_HIGH_WATER;
  const retryMs = options.retryMs ?? OUT_RETRY_MS;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? Date.now;
  const info = await stat(path).catch(() => undefined);
  const sink =
    info?.isFIFO() === true
      ? openPipeSink(path)
      : await openFileSink(path, info === undefined || info.isFile());
  const queue: Job[] = [];
  const backlog: OutBacklog = { requests: 0, items: 0, bytes: 0 };
  const written = { requests: 0, bytes: 0 };
  let failing: string | undefined;
  let failedAt = 0;
  let failedSince = 0;
  let refusedWhileFailing = 0;
  let errors = 0;
  let writing = false;
  let closed = false;
  let idle: (() => void) | undefined;

  const done = (job: Job): void => {
    backlog.requests--;
    backlog.items -= job.items;
    backlog.bytes -= job.bytes;
  };
  const fail = (error: unknown): void => {
    errors++;
    const message = (error as Error).message;
    if (failing === undefined && !closed) {
      failedSince = now();
      log(
        `--out ${path}: a write failed (${message}); requests are answered 503 until a write succeeds again (tried every ${retryMs / 1000} s)`,
      );
    }
    failing = message;
    failedAt = now();
    const refused = new OutWriteError(`--out could not be written: ${message}`);
    for (const job of queue.splice(0)) {
      done(job);
      job.reject(refused);
    }
  };
  const writeAll = async (line: readonly Buffer[]): Promise<void> => {
    if (failing !== undefined) await sink.repair();
    for (const part of line) await sink.write(part);
    sink.wroteLine();
  };
  const pump = async (): Promise<void> => {
    if (writing) return;
    writing = true;
    while (queue.length > 0) {
      const job = queue.shift()!;
      try {
        await writeAll(job.line);
      } catch (error) {
        done(job);
        job.reject(new OutWriteError(`--out could not be written: ${(error as Error).message}`));
        fail(error);
        continue;
      }
      if (failing !== undefined) {
        log(
          `--out ${path}: writing again after ${Math.round((now() - failedSince) / 1000)} s; ${refusedWhileFailing} requests were answered 503 meanwhile`,
        );
        failing = undefined;
        refusedWhileFailing = 0;
      }
      written.requests++;
      written.bytes += job.bytes;
      done(job);
      job.resolve();
    }
    writing = false;
    idle?.();
  };

  return {
    path,
    admit() {
      if (closed) return 'failing';
      if (failing !== undefined) {
        if (!writing && now() - failedAt >= retryMs) {
          failedAt = now();
          return 'ok';
        }
        refusedWhileFailing++;
        return 'failing';
      }
      return backlog.bytes > highWater ? 'busy' : 'ok';
    },
    write(line, items) {
      if (closed) return Promise.reject(new OutWriteError('--out is closed: serve is stopping'));
      return new Promise<void>((resolve, reject) => {
        let bytes = 0;
        for (const part of line) bytes += part.length;
        queue.push({ line, bytes, items, resolve, reject });
        backlog.requests++;
        backlog.items += items;
        backlog.bytes += bytes;
        void pump();
      });
    },
    get backedUp() {
      return backlog.bytes > highWater;
    },
    written,
    get failing() {
      return failing;
    },
    get errors() {
      return errors;
    },
    backlog,
    async close(deadlineMs = Infinity) {
      closed = true;
      if (writing || queue.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          idle = resolve;
          if (Number.isFinite(deadlineMs)) timer = setTimeout(resolve, deadlineMs);
        });
        clearTimeout(timer);
      }
      const left = { ...backlog };
      if (writing) {
        // A write that did not return in time (a FIFO no one reads): given up, its request refused.
        const refused = new OutWriteError('--out did not take the line before serve stopped');
        for (const job of queue.splice(0)) {
          done(job);
          job.reject(refused);
        }
        sink.abandon();
        return left;
      }
      await sink.close();
      return left;
    },
  };
}

/** Where the lines go: a file (or device) written through the thread pool, or a FIFO through the event loop. */
interface Sink {
  /** Write all of `bytes`; rejects with the error a write failed with. */
  write(bytes: Buffer): Promise<void>;
  /** The parts written since the last line were one whole line. */
  wroteLine(): void;
  /** Cut away what a failed write may have left (a regular file: back to the lines written whole). */
  repair(): Promise<void>;
  close(): Promise<void>;
  /** Give up a write that does not return: its callback, if it comes, is a failure. */
  abandon(): void;
}

async function openFileSink(path: string, regular: boolean): Promise<Sink> {
  const handle = await open(path, 'a');
  // The size of the lines written whole: a failed write is cut back to it.
  let goodSize = regular ? (await handle.stat()).size : 0;
  let pending = 0;
  return {
    async write(bytes) {
      let offset = 0;
      while (offset < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
        offset += bytesWritten;
      }
      pending += bytes.length;
    },
    wroteLine() {
      goodSize += pending;
      pending = 0;
    },
    async repair() {
      pending = 0;
      if (regular) await handle.truncate(goodSize);
    },
    async close() {
      await handle.close().catch(() => undefined);
    },
    abandon() {
      void handle.close().catch(() => undefined);
    },
  };
}

function openPipeSink(path: string): Sink {
  let fd: number;
  try {
    // Opening a FIFO for writing waits for a reader, for ever; without blocking it fails at once (ENXIO).
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENXIO')
      throw new Error('it is a FIFO that no process reads: start the reader first', { cause: error });
    throw error;
  }
  let socket: Socket;
  try {
    socket = new Socket({ fd, readable: false, writable: true });
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let failure: Error | undefined;
  let abandoned = false;
  socket.on('error', (error) => {
    failure ??= error;
  });
  return {
    write(bytes) {
      return new Promise<void>((resolve, reject) => {
        if (failure !== undefined) return reject(failure);
        socket.write(bytes, (error) => {
          if (error !== undefined && error !== null) reject(error);
          else if (abandoned) reject(new Error('given up at the stop'));
          else if (failure !== undefined) reject(failure);
          else resolve();
        });
      });
    },
    wroteLine() {},
    async repair() {
      // A pipe keeps no partial line of ours: a failed write leaves the reader at EPIPE.
      if (failure !== undefined) throw failure;
    },
    close() {
      return new Promise<void>((resolve) => {
        if (socket.destroyed) return resolve();
        socket.end(() => resolve());
        socket.once('close', () => resolve());
      });
    },
    abandon() {
      abandoned = true;
      socket.destroy();
    },
  };
}
