/**
 * presentInput — the `input` part of every report: what was read, and the bad lines that were skipped.
 *
 * Bad lines are never silent: every format reports how many there were and where the first few are
 * (file:line and why), JSON lists up to MAX_JSON_SKIPPED of them. Pure.
 */
import type { ReadStats } from '../../trace/types.js';
import { tone, type Block } from './document.js';
import { countOf, formatCount } from './formatValues.js';

/** What one pass over the inputs saw. */
export interface InputSummary {
  /** The inputs as the user named them. */
  readonly inputs: readonly string[];
  readonly stats: ReadStats;
  /** Records yielded by the reader, per kind. */
  readonly records: { readonly decisions: number; readonly turns: number; readonly misroutes: number };
}

/** Problems listed in `--format json`. */
export const MAX_JSON_SKIPPED = 50;
/** Problems listed in text and Markdown. */
export const MAX_TEXT_SKIPPED = 5;

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
    records: s.records,
    problems: st.problems.length + st.problemsDropped,
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
  const blocks: Block[] = [
    { kind: 'heading', text: 'Input' },
    {
      kind: 'fields',
      rows: [
        ['read', `${countOf(st.files, 'file')}, ${countOf(st.lines, 'line')}, ${countOf(st.spans, 'span')}`],
        [
          'routing',
          `${countOf(st.routingSpans, 'decision span')}, ${countOf(st.turnSpans, 'turn span')}, ${countOf(s.records.misroutes, 'feedback span')}`,
        ],
        [
          'ignored',
          `${countOf(st.nonRoutingSpans, 'other span')}, ${countOf(st.duplicates, 'duplicate span')}`,
        ],
        [
          'bad lines',
          problems === 0 ? tone('none', 'good') : tone(`${formatCount(problems)} skipped`, 'warn'),
        ],
      ],
    },
  ];
  if (problems > 0) {
    const shown = st.problems.slice(0, MAX_TEXT_SKIPPED);
    blocks.push({
      kind: 'list',
      items: [
        ...shown.map((p) => `${p.file}:${p.line}: ${p.kind}: ${p.reason}`),
        ...(problems > shown.length
          ? [tone(`… and ${formatCount(problems - shown.length)} more`, 'dim')]
          : []),
      ],
    });
  }
  return blocks;
}
