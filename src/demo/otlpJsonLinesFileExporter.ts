/**
 * otlpJsonLinesFileExporter — a SpanExporter that writes what the Collector's `file` exporter writes with
 * `format: json`: one OTLP/JSON ExportTraceServiceRequest per line.
 *
 * The demo needs the exact file a user's Collector would leave behind, without running a Collector; tests and
 * benchmarks need the same. Each batch the span processor hands over is serialized by the SDK's own
 * `JsonTraceSerializer` (so the bytes are the real exporter's) and appended as one line, synchronously, so a
 * batch is on disk when the export callback runs and the line order follows the export order. A write that
 * fails (a full disk, a read-only file system) fails that export and every later one, and is kept as
 * `failure`: the demo checks it, so a file cut short is never reported as written.
 */
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import type { ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Options of `OtlpJsonLinesFileExporter`. */
export interface OtlpJsonLinesFileExporterConfig {
  /** The file to write. */
  readonly path: string;
  /** Append to an existing file, as the Collector does; false truncates it first. @default true */
  readonly append?: boolean;
}

// ExportResultCode.SUCCESS / FAILED, spelled as numbers so that only the type of @opentelemetry/core is needed.
const SUCCESS = 0 as ExportResult['code'];
const FAILED = 1 as ExportResult['code'];
const NEWLINE = new Uint8Array([0x0a]);

/** The trace file could not be opened or written: `path` and the system's error as `cause`. */
export class TraceFileError extends Error {
  override readonly name = 'TraceFileError';
  constructor(
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super(`${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Writes each exported batch as one OTLP/JSON line (`.jsonl`), like the Collector's file exporter. */
export class OtlpJsonLinesFileExporter implements SpanExporter {
  private fd: number | undefined;
  private batches = 0;
  private firstFailure: TraceFileError | undefined;
  private readonly path: string;

  /** Throws TraceFileError when the file cannot be opened. */
  constructor(config: OtlpJsonLinesFileExporterConfig) {
    this.path = config.path;
    // O_NOFOLLOW: a link put in the file's place after the caller checked it is refused, not written through.
    const mode = config.append === false ? constants.O_TRUNC : constants.O_APPEND;
    try {
      this.fd = openSync(
        config.path,
        constants.O_WRONLY | constants.O_CREAT | mode | (constants.O_NOFOLLOW ?? 0),
        0o666,
      );
    } catch (error) {
      throw new TraceFileError(config.path, error);
    }
  }

  /** The first write that failed; from then on every export fails. Undefined while all were written. */
  get failure(): TraceFileError | undefined {
    return this.firstFailure;
  }

  /** How many lines (export requests) were written so far. */
  get linesWritten(): number {
    return this.batches;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.fd === undefined || this.firstFailure !== undefined) {
      resultCallback({ code: FAILED, error: this.firstFailure ?? new Error('the exporter is shut down') });
      return;
    }
    try {
      if (spans.length > 0) {
        const body = JsonTraceSerializer.serializeRequest(spans);
        if (body === undefined) throw new Error('the OTLP/JSON serializer returned nothing');
        writeAll(this.fd, body);
        writeAll(this.fd, NEWLINE);
        this.batches++;
      }
      resultCallback({ code: SUCCESS });
    } catch (err) {
      this.firstFailure = new TraceFileError(this.path, err);
      resultCallback({ code: FAILED, error: this.firstFailure });
    }
  }

  async forceFlush(): Promise<void> {
    // Every line is written synchronously by export(); nothing is buffered here.
  }

  async shutdown(): Promise<void> {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
