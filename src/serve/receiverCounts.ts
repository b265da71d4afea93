/**
 * receiverCounts — what `serve` counted since it started, and the state every view of it is drawn from.
 *
 * Requests by outcome, bytes taken, decisions received (the window may hold fewer: it counts what it evicted),
 * and spans taken and rejected. `/metrics` and the summary on exit read these (with the forwarder's own counts).
 * Pure. No I/O.
 */
import type { PolicyChoice } from '../analyze/policyAudit.js';
import type { ReadStats } from '../trace/types.js';
import type { DecisionWindow } from './decisionWindow.js';
import type { ForwardCounts } from './forwardRequests.js';
import type { WindowSlices } from './slices/windowSlices.js';

/** What the receiver counted since it started. */
export interface ReceiverCounts {
  /** Requests answered, by outcome. */
  readonly requests: { accepted: number; invalid: number; refused: number; ignored: number };
  /** Bytes of accepted bodies as they came over the wire. */
  wireBytes: number;
  /** Spans and event lines the accepted bodies held. */
  items: number;
  /** Of those, the ones that could not be read (a routing span with bad attributes, a bad event line). */
  rejectedItems: number;
  /** Decisions received (the window may hold fewer: see its evicted count). */
  decisionsReceived: number;
}

/** What `--out` has done (the appender's own figures, live). */
export interface OutStatus {
  readonly written: { readonly requests: number; readonly bytes: number };
  /** The error writes fail with now; undefined while they succeed. */
  readonly failing: string | undefined;
}

/** Everything a view of the running serve is drawn from. */
export interface ServeState {
  readonly window: DecisionWindow;
  /** The window's records as slices of the live page's analyses (what a render merges). */
  readonly slices: WindowSlices;
  readonly stats: ReadStats;
  readonly counts: ReceiverCounts;
  /** The OTLP/HTTP endpoint as an exporter is pointed at it (`http://127.0.0.1:4318`). */
  readonly endpoint: string;
  readonly policy: PolicyChoice;
  /** `--out` file, when given. */
  readonly out?: string;
  /** What `--out` wrote, and the error its writes fail with now (live). */
  readonly outStatus?: OutStatus;
  /** `--forward` URL, when given. */
  readonly forward?: string;
  /** What became of the requests handed to `--forward` (the forwarder's own counts, live). */
  readonly forwarded?: Readonly<ForwardCounts>;
}

/** A fresh, zeroed ReceiverCounts. */
export function createReceiverCounts(): ReceiverCounts {
  return {
    requests: { accepted: 0, invalid: 0, refused: 0, ignored: 0 },
    wireBytes: 0,
    items: 0,
    rejectedItems: 0,
    decisionsReceived: 0,
  };
}
