/**
 * traceStoreStandIn — a loopback HTTP server standing in for Tempo and Jaeger in the source tests.
 *
 * It is NOT the real store: it replays answers in the stores' documented JSON forms (Tempo's search result,
 * `{trace:…}` and `{batches:…}` trace bodies; Jaeger's `{data:[…]}` search result), built from spans the real
 * OpenTelemetry SDK recorded, so the reader's requests and parsing are exercised over real HTTP. It listens on
 * 127.0.0.1 with an OS-chosen port, records every request, counts requests in flight (the peak is what the
 * concurrency tests read), and can answer with a status, a delay, or never (a hanging store). With
 * `refuseWithoutHeaders` it sits behind credentials as a deployed store does: 401 without them, 403 when wrong.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InputError } from '../../src/trace/inputError.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { readRemoteSource, type RemoteSource } from '../../src/trace/stores/remoteSource.js';
import type { ReadStats } from '../../src/trace/types.js';
import type { TraceRecord } from '../../src/record/types.js';

/** What the stand-in answers to one request. */
export interface StandInReply {
  readonly status?: number;
  /** A string is sent as is; anything else as JSON. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Wait this long before answering (to make requests overlap). */
  readonly delayMs?: number;
  /** Never answer. */
  readonly hang?: boolean;
}

/** One request as received. */
export interface StandInRequest {
  readonly path: string;
  readonly params: URLSearchParams;
  /** As Node received them: names lowercased. */
  readonly headers: IncomingHttpHeaders;
}

/** A running stand-in. */
export interface StandIn {
  readonly url: string;
  readonly requests: StandInRequest[];
  /** Most requests in flight at one time. */
  readonly peakInFlight: () => number;
  close(): Promise<void>;
}

/**
 * Start a stand-in answering every request with `handle`. `maxHeaderSize` raises Node's 16 KiB limit on a
 * request's headers, as a store behind a gateway that takes long tokens has it raised.
 */
export async function startStandIn(
  handle: (req: StandInRequest) => StandInReply | Promise<StandInReply>,
  options: { maxHeaderSize?: number } = {},
): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  let inFlight = 0;
  let peak = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer(
    { maxHeaderSize: options.maxHeaderSize ?? 16 * 1024 },
    (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request = { path: url.pathname, params: url.searchParams, headers: req.headers };
      requests.push(request);
      inFlight++;
      peak = Math.max(peak, inFlight);
      let done = false;
      const finish = (): void => {
        if (!done) {
          done = true;
          inFlight--;
        }
      };
      res.on('close', finish);
      void Promise.resolve(handle(request)).then((reply) => {
        if (reply.hang === true) return;
        const send = (): void => {
          const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
          res.writeHead(reply.status ?? 200, {
            'content-type': 'application/json',
            ...reply.headers,
          });
          res.end(body, finish);
        };
        if (reply.delayMs === undefined) send();
        else {
          const timer = setTimeout(() => {
            timers.delete(timer);
            send();
          }, reply.delayMs);
          timers.add(timer);
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    peakInFlight: () => peak,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The store behind credentials, as an authenticating proxy or a multi-tenant Tempo answers: the refusal for a
 * request missing one of `required` (401) or giving a wrong value (403), undefined when it may pass. Used as
 * (the start of) a handler's override.
 */
export function refuseWithoutHeaders(
  required: Readonly<Record<string, string>>,
  req: StandInRequest,
): StandInReply | undefined {
  for (const [name, value] of Object.entries(required)) {
    const got = req.headers[name.toLowerCase()];
    if (got === undefined) {
      return { status: 401, body: name.toLowerCase() === 'x-scope-orgid' ? 'no org id' : 'Unauthorized' };
    }
    if (got !== value) return { status: 403, body: 'Forbidden' };
  }
  return undefined;
}

/** A port nothing listens on: bound, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Spans grouped by trace id, in first-seen order. */
export function groupByTrace(spans: readonly ReadableSpan[]): Map<string, ReadableSpan[]> {
  const byTrace = new Map<string, ReadableSpan[]>();
  for (const s of spans) {
    const id = s.spanContext().traceId;
    byTrace.set(id, [...(byTrace.get(id) ?? []), s]);
  }
  return byTrace;
}

/** The OTLP/JSON export request of `spans`, parsed (the real JsonTraceSerializer wrote it). */
export function otlpRequest(spans: readonly ReadableSpan[]): { resourceSpans: unknown[] } {
  const bytes = JsonTraceSerializer.serializeRequest(spans as ReadableSpan[]);
  if (bytes === undefined) throw new Error('JsonTraceSerializer produced nothing');
  return JSON.parse(new TextDecoder().decode(bytes)) as { resourceSpans: unknown[] };
}

/** Hex ids rewritten as base64, as Tempo's protobuf-JSON marshalling writes `bytes` fields. */
export function withBase64Ids(request: { resourceSpans: unknown[] }): { resourceSpans: unknown[] } {
  return JSON.parse(JSON.stringify(request), (key: string, value: unknown) =>
    (key === 'traceId' || key === 'spanId' || key === 'parentSpanId') &&
    typeof value === 'string' &&
    value !== ''
      ? Buffer.from(value, 'hex').toString('base64')
      : value,
  ) as { resourceSpans: unknown[] };
}

/** Tempo's search answer (GET /api/search) for these trace ids, in its documented shape. */
export function tempoSearchAnswer(traces: ReadonlyMap<string, readonly ReadableSpan[]>): unknown {
  return {
    traces: [...traces].map(([traceId, spans]) => ({
      // Tempo drops leading zeros of trace ids in search results.
      traceID: traceId.replace(/^0+/, ''),
      rootServiceName: String(spans[0]!.resource.attributes['service.name'] ?? ''),
      rootTraceName: spans[0]!.name,
      startTimeUnixNano: String(
        BigInt(spans[0]!.startTime[0]) * 1_000_000_000n + BigInt(spans[0]!.startTime[1]),
      ),
      durationMs: 1,
      spanSets: [{ spans: [{ spanID: spans[0]!.spanContext().spanId }], matched: 1 }],
    })),
    metrics: { inspectedBytes: '1024', completedJobs: 1, totalJobs: 1 },
  };
}

/** Read a whole store (through the same entry point the CLI uses) into records and stats. */
export async function collectFromStore(
  source: RemoteSource,
): Promise<{ records: TraceRecord[]; stats: ReadStats }> {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  for await (const r of readRemoteSource(source, stats)) records.push(r);
  return { records, stats };
}

/** The InputError reading `source` fails with; anything else (or success) fails the test. */
export async function storeFailure(source: RemoteSource): Promise<InputError> {
  try {
    await collectFromStore(source);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}
