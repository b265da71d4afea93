/**
 * traceIdText — how every report shows a trace id, marking the ones routescope made up.
 *
 * An event-log record carries a trace id routescope synthesized from its run (the event had none): `explain`
 * takes it, but no trace store holds it, so wherever a report prints one it says so, in text, Markdown and
 * HTML alike, and no link to a trace store is made for it (traceLinks). JSON says it with `syntheticTraceId`
 * on a record or location and `syntheticTraceIds` beside a list of ids. Pure.
 */
import { look, tone, type Span } from './document.js';

/** The mark after a synthesized trace id. */
export const SYNTHETIC_TRACE_MARK = ' (synthetic)';

/** What the mark means, for the legend of a table that shows one. */
export const SYNTHETIC_TRACE_LEGEND = [
  'synthetic',
  'a trace id routescope made up for an event-log record (the event carried none): explain takes it, no trace store holds it',
] as const;

/** A trace id as an id, marked when synthesized. */
export function traceIdInline(traceId: string, synthetic: boolean): Span[] {
  return synthetic ? [look(traceId, 'id'), tone(SYNTHETIC_TRACE_MARK, 'dim')] : [look(traceId, 'id')];
}

/** A list of trace ids as text, `synthetic` ones marked. */
export function traceIdList(
  traceIds: readonly string[],
  synthetic: readonly string[] = [],
): (string | Span)[] {
  const out: (string | Span)[] = [];
  traceIds.forEach((id, i) => {
    if (i > 0) out.push(', ');
    out.push(...traceIdInline(id, synthetic.includes(id)));
  });
  return out;
}
