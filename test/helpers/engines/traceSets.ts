/**
 * traceSets — what a set of OTLP/JSON lines files holds, trace by trace: its span ids, where the spans came from
 * (a file per receiving instance, say), and the routing evidence the tail sampler is meant to keep a trace for.
 * The engine tests read the app's own files (what was sent) and the engines' files (what arrived) with it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Why tail-sampling.yaml must keep a trace, if it must. */
export type Evidence = 'near-tie' | 'unmatched' | 'floorless' | 'misroute' | 'error';

/** One trace as the files hold it. */
export interface TraceSet {
  readonly spans: Set<string>;
  readonly routingSpans: Set<string>;
  /** The names of its spans. */
  readonly names: Set<string>;
  readonly evidence: Set<Evidence>;
}

interface OtlpValue {
  readonly boolValue?: boolean;
  readonly stringValue?: string;
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly name: string;
  readonly attributes?: readonly { key: string; value: OtlpValue }[];
  readonly events?: readonly { name: string }[];
  readonly status?: { code?: number | string };
}
interface OtlpRequest {
  readonly resourceSpans?: readonly { scopeSpans?: readonly { spans?: readonly OtlpSpan[] }[] }[];
}

const ROUTING_SPANS = new Set([
  'agentfootprint.routing.tier2',
  'agentfootprint.routing.turn',
  'agentfootprint.routing.feedback',
]);

/** The files a path names: itself, or the `.jsonl` files of a folder. */
function filesOf(input: string): string[] {
  if (!statSync(input).isDirectory()) return [input];
  return readdirSync(input)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => path.join(input, f));
}

/** Every trace the inputs hold, by (lower-case) trace id. */
export function readTraceSets(inputs: readonly string[]): Map<string, TraceSet> {
  const traces = new Map<string, TraceSet>();
  for (const file of inputs.flatMap(filesOf))
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const request = JSON.parse(line) as OtlpRequest;
      for (const rs of request.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? [])
          for (const span of ss.spans ?? []) {
            const id = span.traceId.toLowerCase();
            let set = traces.get(id);
            if (set === undefined) {
              set = { spans: new Set(), routingSpans: new Set(), names: new Set(), evidence: new Set() };
              traces.set(id, set);
            }
            set.spans.add(span.spanId.toLowerCase());
            set.names.add(span.name);
            if (ROUTING_SPANS.has(span.name)) set.routingSpans.add(span.spanId.toLowerCase());
            for (const e of evidenceOf(span)) set.evidence.add(e);
          }
    }
  return traces;
}

function evidenceOf(span: OtlpSpan): Evidence[] {
  const attr = (key: string) => span.attributes?.find((a) => a.key === key)?.value;
  const out: Evidence[] = [];
  if (attr('agentfootprint.routing.near_tie')?.boolValue === true) out.push('near-tie');
  if (attr('agentfootprint.routing.verdict')?.stringValue === 'unmatched') out.push('unmatched');
  if (attr('agentfootprint.routing.floor_declared')?.boolValue === false) out.push('floorless');
  if (span.name === 'agentfootprint.routing.feedback') out.push('misroute');
  if (span.events?.some((e) => e.name === 'agentfootprint.routing.misrouted')) out.push('misroute');
  const code = span.status?.code;
  if (span.name === 'agentfootprint.routing.tier2' && (code === 2 || code === 'STATUS_CODE_ERROR'))
    out.push('error');
  return out;
}
