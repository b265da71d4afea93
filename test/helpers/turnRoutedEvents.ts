/**
 * turnRoutedEvents — hand-built agentfootprint `turn_routed` events for the strategy's tests, and a diag logger
 * that keeps what routescope reports. The real capture of a 9.62 run is in ../shared/fixtures/agentfootprint/.
 */
import { diag, DiagLogLevel } from '@opentelemetry/api';

/** A well-formed tier-2 turn_routed event (a keyword scorer moved decisively); `payload` and `meta` override its fields. */
export function turnRoutedEvent(
  payload: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
): { type: string; payload: Record<string, unknown>; meta: Record<string, unknown> } {
  return {
    type: 'agentfootprint.skill.turn_routed',
    payload: {
      by: 'intent',
      to: 'billing',
      scorer: 'keyword',
      scores: [
        { id: 'billing', score: 0.9, relevance: 0.6 },
        { id: 'returns', score: 0.1, relevance: 0.25 },
        { id: 'tech', score: 0, relevance: 0.15 },
      ],
      decisive: true,
      policy: { nearTieMargin: 0.15, menuSize: 3, floor: 0 },
      ...payload,
    },
    meta: { wallClockMs: 1796283797308, runId: 'run-1', sessionId: 'sess-1', ...meta },
  };
}

/**
 * Keep every diag line at `level` and above (warn by default) in `into`, through the API copy given (the
 * installed one by default): an app's own copy is where the app's logger lives.
 */
export function keepDiagLines(
  into: string[],
  options: { api?: { diag: typeof diag }; level?: DiagLogLevel } = {},
): void {
  const keep = (...args: unknown[]): void => void into.push(args.map(String).join(' '));
  const level = options.level ?? DiagLogLevel.WARN;
  (options.api ?? { diag }).diag.setLogger(
    { error: keep, warn: keep, info: keep, debug: keep, verbose: keep },
    { logLevel: level, suppressOverrideMessage: true },
  );
}
