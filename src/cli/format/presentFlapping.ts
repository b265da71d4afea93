/**
 * presentFlapping — the flapping report as JSON and as a report document.
 * Pure.
 */
import type { FlappingReport } from '../../analyze/flapping.js';
import { describeFlappingEvent } from '../html/renderFlappingHtml.js';
import { tone, type Block, type Legend, type ReportDocument } from './document.js';
import { formatCount, formatName } from './formatValues.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';

/** What `routescope flapping` prints. */
export interface FlappingView {
  readonly report: FlappingReport;
  readonly input: InputSummary;
}

/** The JSON document of `routescope flapping`. */
export function flappingToJson(v: FlappingView, schemaVersion: number): Record<string, unknown> {
  const { kind: _kind, ...rest } = v.report;
  return { schemaVersion, command: 'flapping', ...rest, input: inputToJson(v.input) };
}

/** What the flapping columns mean, with the report's own window and run length. */
export function flappingLegend(config: FlappingReport['config']): Legend {
  return [
    ['bounces', `A → B → A within ${config.window} turns`],
    ['stay runs', `${config.minStayRun} or more near-tie stays in a row on one incumbent`],
    ['near-tie stays', 'turns the incumbent kept although the top two tied, in runs or not'],
  ];
}

/** The document of `routescope flapping`. */
export function flappingToDocument(v: FlappingView): ReportDocument {
  const r = v.report;
  const blocks: Block[] = [
    { kind: 'title', text: 'routescope flapping — skills that bounce and incumbents kept by ambiguity' },
    {
      kind: 'fields',
      rows: [
        [
          'conversations',
          `${formatCount(r.conversations)} (${formatCount(r.conversationsKeyedByTrace)} keyed by trace: no conversation id)`,
        ],
        [
          'flapping',
          r.conversationsFlapping === 0
            ? tone('none', 'good')
            : tone(formatCount(r.conversationsFlapping), 'warn'),
        ],
        ['bounces', `${formatCount(r.bounces)} (A → B → A within ${r.config.window} turns)`],
        [
          'near-tie stays',
          `${formatCount(r.nearTieStays)} in ${formatCount(r.stayRuns)} runs of ${r.config.minStayRun}+`,
        ],
        ...(r.outOfOrder > 0
          ? [
              [
                'out of order',
                tone(`${formatCount(r.outOfOrder)} decisions judged in arrival order`, 'warn'),
              ] as const,
            ]
          : []),
      ],
    },
    { kind: 'heading', text: 'Skill pairs' },
    {
      kind: 'table',
      columns: [
        { title: 'router' },
        { title: 'pair' },
        { title: 'bounces', align: 'right' },
        { title: 'stay runs', align: 'right' },
        { title: 'near-tie stays', align: 'right' },
        { title: 'conversations', align: 'right' },
      ],
      rows: r.topPairs.map((p) => [
        formatName(p.router),
        `${p.pair[0]} ↔ ${p.pair[1]}`,
        formatCount(p.bounces),
        formatCount(p.stayRuns),
        formatCount(p.nearTieStays),
        formatCount(p.conversations),
      ]),
      legend: flappingLegend(r.config),
    },
    { kind: 'heading', text: 'Conversations' },
  ];
  if (r.topConversations.length === 0) {
    blocks.push({ kind: 'paragraph', text: tone('No conversation flapped.', 'good') });
  } else {
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'conversation' },
        { title: 'router' },
        { title: 'turns', align: 'right' },
        { title: 'bounces', align: 'right' },
        { title: 'stay runs', align: 'right' },
        { title: 'examples' },
      ],
      rows: r.topConversations.map((c) => [
        c.keyedBy === 'trace' ? `${c.id} (trace)` : c.id,
        formatName(c.router),
        formatCount(c.decisions),
        formatCount(c.bounces),
        formatCount(c.stayRuns),
        c.examples.map((e) => `${describeFlappingEvent(e)} [${e.traceIds.join(', ')}]`).join('; '),
      ]),
      legend: [
        ['turns', 'routing decisions in the conversation'],
        ['examples', 'the first bounces and runs, with their traces'],
      ],
    });
  }
  blocks.push(...inputBlocks(v.input));
  return blocks;
}
