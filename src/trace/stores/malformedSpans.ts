/**
 * malformedSpans — span objects in a store's answer that cannot be spans, taken out before the answer is read.
 *
 * A trace store answers with what it holds; a broken or hostile one can answer with millions of `{}` or with
 * spans whose ids or name are numbers. Read as they are, each would count as a valid span that merely is not a
 * routing span. Here every span object of a Tempo (OTLP) or Jaeger answer must have its trace id and span id
 * as strings (a Jaeger span may take its trace id from the trace) and a name that is a string when present;
 * the others are removed from the parsed answer and counted, for the store reader to report as one problem per
 * answer. Mutates the answer it is given (parsed for this read, never shared). No I/O.
 */
import { asObject } from '../formats/narrowJson.js';
import { quoteForProblem } from '../normalizeSpanFields.js';
import { reportProblem } from '../readStats.js';
import type { ReadStats } from '../types.js';

/** How many span objects were taken out, and the first of them, for the problem's text. */
export interface MalformedSpans {
  readonly count: number;
  readonly example?: string;
}

/** Take the malformed spans out of a Tempo answer (`{trace: {resourceSpans|batches}}`, `{batches}`, …). */
export function takeOutMalformedOtlpSpans(answer: unknown): MalformedSpans {
  const top = asObject(answer);
  const holder = asObject(top?.trace) ?? top;
  const tally = { count: 0, example: undefined as string | undefined };
  for (const key of ['resourceSpans', 'batches']) {
    const list = holder?.[key];
    if (!Array.isArray(list)) continue;
    for (const rs of list) {
      const r = asObject(rs);
      for (const scopeKey of ['scopeSpans', 'instrumentationLibrarySpans']) {
        const scopes = r?.[scopeKey];
        if (!Array.isArray(scopes)) continue;
        for (const ss of scopes) {
          const scope = asObject(ss);
          if (scope !== undefined && Array.isArray(scope.spans)) {
            scope.spans = keepWellFormed(scope.spans, 'traceId', 'spanId', 'name', undefined, tally);
          }
        }
      }
    }
  }
  return tally.example === undefined ? { count: tally.count } : tally;
}

/** Take the malformed spans out of one Jaeger trace (`{traceID, spans: […], processes}`). */
export function takeOutMalformedJaegerSpans(trace: unknown): MalformedSpans {
  const t = asObject(trace);
  const tally = { count: 0, example: undefined as string | undefined };
  if (t !== undefined && Array.isArray(t.spans)) {
    const traceId = typeof t.traceID === 'string' ? t.traceID : undefined;
    t.spans = keepWellFormed(t.spans, 'traceID', 'spanID', 'operationName', traceId, tally);
  }
  return tally.example === undefined ? { count: tally.count } : tally;
}

function keepWellFormed(
  spans: unknown[],
  traceKey: string,
  spanKey: string,
  nameKey: string,
  traceIdOfTrace: string | undefined,
  tally: { count: number; example: string | undefined },
): unknown[] {
  const wellFormed = (raw: unknown): boolean => {
    const span = asObject(raw);
    if (span === undefined) return false;
    const traceId = span[traceKey] ?? traceIdOfTrace;
    const name = span[nameKey];
    return (
      typeof traceId === 'string' &&
      typeof span[spanKey] === 'string' &&
      (name === undefined || typeof name === 'string')
    );
  };
  if (spans.every(wellFormed)) return spans;
  const kept: unknown[] = [];
  for (const span of spans) {
    if (wellFormed(span)) kept.push(span);
    else {
      tally.count++;
      tally.example ??= quoteForProblem(span);
    }
  }
  return kept;
}

/** Report what was taken out of the answer read from `file`, as one problem; nothing when nothing was. */
export function reportMalformedSpans(stats: ReadStats, file: string, found: MalformedSpans): void {
  if (found.count === 0) return;
  reportProblem(stats, { file, line: 0, kind: 'incomplete', reason: describeMalformedSpans(found) });
}

/** The problem's text for `found` (count > 0). */
export function describeMalformedSpans(found: MalformedSpans): string {
  const spans = found.count === 1 ? '1 span' : `${found.count} spans`;
  return `${spans} with no trace id or span id as text, or a name that is not text (the first: ${found.example ?? 'nothing'}): not counted as spans`;
}
