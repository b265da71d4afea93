/**
 * presentInput — the `input` part of every report: what was read, and the bad lines that were skipped.
 *
 * Bad lines are never silent: every format reports how many there were and where the first few are
 * (file:line and why, just the file for a problem about the whole file), JSON lists up to MAX_JSON_SKIPPED of
 * them. Spans without one routing span among them are never a quiet zero either: every format says so
 * (`notice`), and nor are files that held no span or event at all: each is named, as skipped. A turn read
 * both as spans and from an event log is said to have been counted once. Pure.
 */
import type { RecordKindCounts } from '../analyze/recordKindCounts.js';
import type { ReadProblem, ReadStats, ScanPath } from '../trace/types.js';
import { tone, type Block, type Inline } from './document.js';
import { countOf, formatCount } from './formatValues.js';

/** What one pass over the inputs saw. */
export interface InputSummary {
  /** The inputs as the user named them. */
  readonly inputs: readonly string[];
  readonly stats: ReadStats;
  /** Records yielded by the reader, per kind. */
  readonly records: Readonly<RecordKindCounts>;
  /** Set when the input came as requests (serve), not files: how many were read. */
  readonly requests?: number;
}

/** Problems listed in `--format json`. */
export const MAX_JSON_SKIPPED = 50;
/** Problems listed in text and Markdown. */
export const MAX_TEXT_SKIPPED = 5;

/** How routing spans are made, the agentfootprint strategy first (what most apps run), the wrapper second. */
export const INSTRUMENTATION_HINT =
  'in an agentfootprint app the strategy, agent.enable.observability({ strategy: routescopeObservability() }); for a hand-written router, instrumentDecideTier2 wrapping the routing call';

/** Spans were read but not one routing span among them: the likely cause, said plainly; else undefined. */
export function describeNoRoutingSpan(stats: ReadStats): string | undefined {
  if (stats.spans === 0 || stats.routingSpans + stats.turnSpans > 0) return undefined;
  return `no routing span was found among ${countOf(stats.spans, 'span')}: is the routescope instrumentation on (${INSTRUMENTATION_HINT}, and its spans exported)?`;
}

/** Turns read both as spans and from an event log: how many, and that each counted once. */
export function describeBothWays(st: ReadStats): string {
  return `${countOf(st.duplicateAcrossSources, 'decision')} and ${countOf(st.duplicateTurnsAcrossSources, 'turn route')} read both as spans and as turn_routed events, each counted once`;
}

/**
 * Which path read the JSON lines, in a few words: the scanner that indexed them, or the exact walk. `unit` is
 * what a line is to the reader: a line of a file, or a request's body (serve reads each as one line).
 */
export function describeScanPath(scan: ScanPath, unit: 'line' | 'request' = 'line'): string {
  if (scan.exact) return `every byte of every ${unit} walked (--exact-read)`;
  const parts: string[] = [];
  if (scan.simdLines > 0) parts.push(`WebAssembly SIMD scanner, ${countOf(scan.simdLines, unit)}`);
  if (scan.javascriptLines > 0) parts.push(`JavaScript scanner, ${countOf(scan.javascriptLines, unit)}`);
  if (parts.length === 0) return `no ${unit} in the Collector's shape: each ${unit} walked or parsed whole`;
  const why =
    scan.javascriptLines > 0 && scan.simdUnavailable !== undefined ? ` (${scan.simdUnavailable})` : '';
  return `${parts.join('; ')}${why}`;
}

/** The scan path's name in the JSON contract. */
function scanPathName(scan: ScanPath): 'exact' | 'simd' | 'javascript' | 'both' | 'none' {
  if (scan.exact) return 'exact';
  if (scan.simdLines > 0) return scan.javascriptLines > 0 ? 'both' : 'simd';
  return scan.javascriptLines > 0 ? 'javascript' : 'none';
}

/** Where a problem is: `file:line`, or the file alone for one about the whole file. */
export function formatProblemPlace(p: ReadProblem): string {
  return p.line > 0 ? `${p.file}:${p.line}` : p.file;
}

/** The `input` object of the JSON contract. */
export function inputToJson(s: InputSummary): Record<string, unknown> {
  const st = s.stats;
  return {
    inputs: s.inputs,
    files: st.files,
    lines: st.lines,
    spans: st.spans,
    routingSpans: st.routingSpans,
    turnSpans: st.turnSpans,
    nonRoutingSpans: st.nonRoutingSpans,
    duplicates: st.duplicates,
    events: st.events,
    otherEvents: st.otherEvents,
    duplicateEvents: st.duplicateEvents,
    duplicateAcrossSources: st.duplicateAcrossSources,
    duplicateTurnsAcrossSources: st.duplicateTurnsAcrossSources,
    records: s.records,
    scan: {
      path: scanPathName(st.scan),
      simdLines: st.scan.simdLines,
      javascriptLines: st.scan.javascriptLines,
      simdUnavailable: st.scan.simdUnavailable ?? null,
    },
    problems: st.problems.length + st.problemsDropped,
    filesWithoutTraces: st.filesWithoutTraces.length + st.filesWithoutTracesDropped,
    skippedFiles: st.filesWithoutTraces
      .slice(0, MAX_JSON_SKIPPED)
      .map((f) => ({ file: f.file, reason: f.reason })),
    notice: describeNoRoutingSpan(st) ?? null,
    skipped: st.problems.slice(0, MAX_JSON_SKIPPED).map((p) => ({
      file: p.file,
      line: p.line,
      kind: p.kind,
      reason: p.reason,
    })),
  };
}

/** The input section of a text or Markdown report. */
export function inputBlocks(s: InputSummary): Block[] {
  const st = s.stats;
  const problems = st.problems.length + st.problemsDropped;
  const empty = st.filesWithoutTraces.length + st.filesWithoutTracesDropped;
  const blocks: Block[] = [
    { kind: 'heading', text: 'Input' },
    {
      kind: 'fields',
      rows: [
        s.requests === undefined
          ? [
              'read',
              `${countOf(st.files, 'file')}, ${countOf(st.lines, 'line')}, ${countOf(st.spans, 'span')}`,
            ]
          : [
              'received',
              `${countOf(s.requests, 'request')}, ${countOf(st.spans, 'span')}, ${countOf(st.events, 'event')}`,
            ],
        [
          'routing',
          `${countOf(st.routingSpans, 'decision span')}, ${countOf(st.turnSpans, 'turn span')}, ${countOf(s.records.misroutes, 'feedback span')}`,
        ],
        [
          'ignored',
          `${countOf(st.nonRoutingSpans, 'other span')}, ${countOf(st.duplicates, 'duplicate span')}`,
        ],
        ...(st.events > 0
          ? ([
              [
                'events',
                `${formatCount(st.events - st.otherEvents)} turn_routed events, ${formatCount(st.otherEvents)} other agentfootprint events skipped, ${formatCount(st.duplicateEvents)} duplicate events`,
              ],
            ] as [string, string][])
          : []),
        ...(st.duplicateAcrossSources + st.duplicateTurnsAcrossSources > 0
          ? ([['both ways', describeBothWays(st)]] as [string, string][])
          : []),
        // Files: whenever lines were read. Serve counts requests, not lines: whenever a scanner indexed one.
        ...(st.lines > 0 || scanPathName(st.scan) !== 'none'
          ? ([['scanned', describeScanPath(st.scan, s.requests === undefined ? 'line' : 'request')]] as [
              string,
              string,
            ][])
          : []),
        [
          'bad lines',
          problems === 0 ? tone('none', 'good') : tone(`${formatCount(problems)} skipped`, 'warn'),
        ],
        ...(empty > 0
          ? ([
              ['no traces', tone(`${countOf(empty, 'file')} skipped: not one span or event in them`, 'warn')],
            ] as [string, Inline][])
          : []),
      ],
    },
  ];
  const notice = describeNoRoutingSpan(st);
  if (notice !== undefined) blocks.push({ kind: 'paragraph', text: tone(notice, 'warn') });
  if (empty > 0) {
    const shown = st.filesWithoutTraces.slice(0, MAX_TEXT_SKIPPED);
    blocks.push({
      kind: 'list',
      items: [
        ...shown.map((f) => `${f.file}: ${f.reason}`),
        ...(empty > shown.length ? [tone(`… and ${formatCount(empty - shown.length)} more`, 'dim')] : []),
      ],
    });
  }
  if (problems > 0) {
    const shown = st.problems.slice(0, MAX_TEXT_SKIPPED);
    blocks.push({
      kind: 'list',
      items: [
        ...shown.map((p) => `${formatProblemPlace(p)}: ${p.kind}: ${p.reason}`),
        ...(problems > shown.length
          ? [tone(`… and ${formatCount(problems - shown.length)} more`, 'dim')]
          : []),
      ],
    });
  }
  return blocks;
}
