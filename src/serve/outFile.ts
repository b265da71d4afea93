/**
 * outFile — `serve --out FILE`: every accepted body appended as it arrived, for every other command to read.
 *
 * An OTLP/JSON body becomes one line (re-serialized, so a pretty-printed body still is one line), a protobuf
 * body is converted to the same OTLP/JSON first (trace/formats/otlpProtoToJson), and an event log is written as
 * its own lines. The file is opened for appending, so a restarted `serve` adds to it. Writes are buffered by
 * the stream; when more than `highWater` bytes wait for the disk, `backedUp` says so and the receiver answers
 * 503 until it drains (an exporter retries), so a slow disk never grows memory without bound. A write error
 * is kept (`error`) and shown, never thrown into a request. `close` flushes.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { otlpProtoToJson } from '../trace/formats/otlpProtoToJson.js';
import type { PayloadKind } from './ingestPayload.js';

/** Bytes waiting for the disk beyond which the receiver pauses. */
export const OUT_HIGH_WATER = 32 * 1024 * 1024;

/** The appender. */
export interface OutFile {
  readonly path: string;
  /** Append one accepted body. */
  append(kind: PayloadKind, body: Buffer): void;
  /** More than the high-water mark waits to be written. */
  readonly backedUp: boolean;
  /** Bodies appended, and bytes written. */
  readonly written: { bodies: number; bytes: number };
  /** The first write error, when one happened. */
  readonly error: string | undefined;
  /** Flush and close. */
  close(): Promise<void>;
}

/** Open `path` for appending. Resolves once the file is open; rejects with the reason it could not be. */
export async function openOutFile(path: string, highWater: number = OUT_HIGH_WATER): Promise<OutFile> {
  const stream: WriteStream = createWriteStream(path, { flags: 'a' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  let error: string | undefined;
  stream.on('error', (e) => {
    error ??= e.message;
  });
  const written = { bodies: 0, bytes: 0 };
  const write = (text: string): void => {
    if (error !== undefined) return;
    written.bytes += Buffer.byteLength(text);
    stream.write(text);
  };
  return {
    path,
    append(kind, body) {
      written.bodies++;
      if (kind === 'event-log') {
        const text = body.toString('utf8');
        write(text.endsWith('\n') || text.length === 0 ? text : `${text}\n`);
      } else {
        const value: unknown =
          kind === 'otlp-protobuf' ? otlpProtoToJson(body) : JSON.parse(body.toString('utf8'));
        write(`${JSON.stringify(value)}\n`);
      }
    },
    get backedUp() {
      return stream.writableLength > highWater;
    },
    written,
    get error() {
      return error;
    },
    close() {
      return new Promise<void>((resolve) => {
        if (stream.closed || stream.destroyed) return resolve();
        stream.end(() => resolve());
      });
    },
  };
}
