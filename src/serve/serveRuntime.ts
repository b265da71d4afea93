/**
 * serveRuntime — the one mutable thing of a running `serve`: what has arrived and what it was counted into.
 *
 * The receiver hands every body's records to `take`; the window keeps the newest of them (and its slices add
 * them to the live page's analyses as they come, windowSlices), the routing series
 * count all of them for /metrics, and the receiver's counts say what the requests were. One record builder and
 * one ReadStats live as long as the process, so a span an exporter sent twice (a retry) counts once while its
 * key is among the newest the duplicate filter remembers (SERVE_DEDUPE_GENERATION). `revision` moves whenever
 * anything changed (a request counted, a record taken, a forward's outcome), and `onChange` listeners hear of
 * it: the signal a view of the running serve redraws on. No I/O.
 */
import type { PolicyChoice } from '../analyze/policyAudit.js';
import type { TraceRecord } from '../record/types.js';
import { createTraceRecordBuilder } from '../trace/buildTraceRecords.js';
import { DEFAULT_EVENT_LOG_OPTIONS, type EventLogOptions } from '../trace/formats/readAgentfootprintEvent.js';
import { createReadStats } from '../trace/readStats.js';
import { createDecisionWindow, type DecisionWindow } from './decisionWindow.js';
import { createWindowSlices, type SliceWatchOptions } from './slices/windowSlices.js';
import type { IngestContext } from './ingestPayload.js';
import { createRoutingSeries, type RoutingSeries } from './routingSeries.js';
import type { ForwardCounts } from './forwardRequests.js';
import { createReceiverCounts, type OutStatus, type ServeState } from './receiverCounts.js';

/**
 * Routing-span keys one generation of the duplicate filter holds here (two are kept, so at least this many of the
 * newest are remembered): an exporter's retry comes seconds after the first try, and at 20,000 spans a second
 * this still covers three seconds (a minute at 1,000), in about 12 MiB instead of the files' 500,000 keys.
 */
export const SERVE_DEDUPE_GENERATION = 65_536;

/** What a runtime is made with. */
export interface ServeRuntimeOptions {
  /** The OTLP/HTTP endpoint as an exporter is pointed at it (`http://127.0.0.1:4318`). */
  readonly endpoint: string;
  /** @default 100000 */
  readonly maxDecisions?: number;
  /** @default 64 MiB */
  readonly maxWindowBytes?: number;
  /** @default 1024 */
  readonly maxString?: number;
  /** @default 'auto' */
  readonly policy?: PolicyChoice;
  readonly events?: EventLogOptions;
  readonly out?: string;
  readonly outStatus?: OutStatus;
  readonly forward?: string;
  readonly forwarded?: Readonly<ForwardCounts>;
  /** When the slices analyse at arrival (after a view, for WATCH_IDLE_MS); tests inject a clock. */
  readonly sliceWatch?: SliceWatchOptions;
}

/** The running state. */
export interface ServeRuntime {
  readonly state: ServeState;
  readonly series: RoutingSeries;
  readonly ingest: IngestContext;
  readonly window: DecisionWindow;
  /** Count the records of one accepted body. */
  take(records: readonly TraceRecord[]): void;
  /** Say that something changed (a request counted, a forward's outcome). */
  touch(): void;
  /** Moves with every change. */
  readonly revision: number;
  /** Hear of changes; returns the function that stops listening. */
  onChange(listener: () => void): () => void;
}

/** A fresh runtime: nothing received. */
export function createServeRuntime(options: ServeRuntimeOptions): ServeRuntime {
  const stats = createReadStats();
  const builder = createTraceRecordBuilder(stats, SERVE_DEDUPE_GENERATION);
  const window = createDecisionWindow({
    ...(options.maxDecisions === undefined ? {} : { maxDecisions: options.maxDecisions }),
    ...(options.maxWindowBytes === undefined ? {} : { maxBytes: options.maxWindowBytes }),
    ...(options.maxString === undefined ? {} : { maxString: options.maxString }),
  });
  const slices = createWindowSlices(window.config, options.policy ?? 'auto', options.sliceWatch);
  const series = createRoutingSeries();
  const counts = createReceiverCounts();
  const state: ServeState = {
    window,
    slices,
    stats,
    counts,
    endpoint: options.endpoint,
    policy: options.policy ?? 'auto',
    ...(options.out === undefined ? {} : { out: options.out }),
    ...(options.outStatus === undefined ? {} : { outStatus: options.outStatus }),
    ...(options.forward === undefined ? {} : { forward: options.forward }),
    ...(options.forwarded === undefined ? {} : { forwarded: options.forwarded }),
  };
  const listeners = new Set<() => void>();
  let revision = 0;
  const touch = (): void => {
    revision++;
    for (const listener of listeners) listener();
  };
  return {
    state,
    series,
    window,
    ingest: { builder, stats, events: options.events ?? DEFAULT_EVENT_LOG_OPTIONS },
    take(records) {
      for (const r of records) {
        const added = window.add(r);
        slices.add(added.record, added.number, added.bytes);
        slices.evictBefore(window.firstNumber);
        if (r.kind === 'decision') {
          counts.decisionsReceived++;
          series.add(r);
        }
      }
      touch();
    },
    touch,
    get revision() {
      return revision;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
