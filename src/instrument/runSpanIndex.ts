/**
 * runSpanIndex — remember the framework's open turn spans by run id, so routing spans can be their children.
 *
 * agentfootprint's own OpenTelemetry adapter starts one root span per turn with `agentfootprint.run.id` set at
 * start, but never makes it active, so inside a `turn_routed` listener the active context is not the turn's.
 * The event's `meta.runId` is the join: this span processor (added to the user's tracer provider beside their
 * own) records `run id → span context` when such a span starts and forgets it when it ends. Memory is bounded:
 * at most `maxOpenRuns` entries, the oldest dropped first. It never throws into the SDK.
 */
import type { Context, SpanContext } from '@opentelemetry/api';
import { logSwallowed } from './safeExecute.js';

/** The attribute the framework's turn span carries its run id in. */
export const ATTR_AGENTFOOTPRINT_RUN_ID = 'agentfootprint.run.id';

/** At most this many open turn spans are remembered. @default */
export const DEFAULT_MAX_OPEN_RUNS = 4096;

/** The SDK span shape the index reads: its attributes at start, and its context. */
interface StartedSpan {
  readonly attributes?: Readonly<Record<string, unknown>>;
  spanContext(): SpanContext;
}

/** A SpanProcessor (structurally, for any SDK 1.x or 2.x) that also answers `lookup(runId)`. */
export interface RunSpanIndex {
  onStart(span: StartedSpan, parentContext: Context): void;
  onEnd(span: StartedSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
  /** The open turn span of a run, when one was seen starting and has not ended. */
  lookup(runId: string): SpanContext | undefined;
  /** How many runs are remembered now. */
  readonly size: number;
}

/** Create an index; add it to the tracer provider's `spanProcessors` (its order among them does not matter). */
export function createRunSpanIndex(maxOpenRuns: number = DEFAULT_MAX_OPEN_RUNS): RunSpanIndex {
  const limit =
    Number.isFinite(maxOpenRuns) && maxOpenRuns >= 1 ? Math.floor(maxOpenRuns) : DEFAULT_MAX_OPEN_RUNS;
  const open = new Map<string, SpanContext>();
  return {
    onStart(span) {
      try {
        const runId = span.attributes?.[ATTR_AGENTFOOTPRINT_RUN_ID];
        // The turn's root span is the first to carry the run id; a later one in the same run does not replace it.
        if (typeof runId !== 'string' || open.has(runId)) return;
        if (open.size >= limit) open.delete(open.keys().next().value as string);
        open.set(runId, span.spanContext());
      } catch (err) {
        logSwallowed('indexing a started span by run id', err);
      }
    },
    onEnd(span) {
      try {
        const runId = span.attributes?.[ATTR_AGENTFOOTPRINT_RUN_ID];
        if (typeof runId !== 'string') return;
        const known = open.get(runId);
        if (known !== undefined && known.spanId === span.spanContext().spanId) open.delete(runId);
      } catch (err) {
        logSwallowed('forgetting an ended span', err);
      }
    },
    forceFlush: () => Promise.resolve(),
    shutdown() {
      open.clear();
      return Promise.resolve();
    },
    lookup: (runId) => open.get(runId),
    get size() {
      return open.size;
    },
  };
}
