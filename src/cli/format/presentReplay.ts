/**
 * presentReplay — the replay report as JSON (a documented contract, docs/json-output.md) and as a report
 * document for text and Markdown.
 * Pure.
 */
import type { ReplayReport } from '../../analyze/replay.js';
import { VERDICT_KINDS } from '../../analyze/verdictCounts.js';
import { describeThresholds } from '../html/renderReplayHtml.js';
import { tone, type Block, type ReportDocument } from './document.js';
import { formatCount, formatName, formatPercent, formatScore, formatTime } from './formatValues.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';
import { policyBlocks } from './presentPolicy.js';

/** What `routescope replay` prints. */
export interface ReplayView {
  readonly report: ReplayReport;
  readonly input: InputSummary;
}

/** The JSON document of `routescope replay`. */
export function replayToJson(v: ReplayView, schemaVersion: number): Record<string, unknown> {
  const r = v.report;
  return {
    schemaVersion,
    command: 'replay',
    thresholds: {
      nearTieMargin: r.thresholds.nearTieMargin ?? 'recorded',
      menuSize: r.thresholds.menuSize ?? 'recorded',
      floor: r.thresholds.floor === undefined ? 'recorded' : r.thresholds.floor,
    },
    where: r.where,
    excluded: r.excluded,
    undecidable: r.undecidable,
    partial: r.partial,
    before: r.before,
    after: r.after,
    flips: r.flips,
    flipped: r.flipped,
    moveToMenu: r.moveToMenu,
    menuToMove: r.menuToMove,
    menuChanged: r.menuChanged,
    unmatchedNowReachable: r.unmatchedNowReachable,
    scorers: r.scorers,
    policy: r.policy,
    consistency: r.consistency,
    list: r.list,
    undecidableExamples: r.undecidableExamples,
    input: inputToJson(v.input),
  };
}

/** The document of `routescope replay`. */
export function replayToDocument(v: ReplayView): ReportDocument {
  const r = v.report;
  const blocks: Block[] = [
    { kind: 'title', text: 'routescope replay — the recorded decisions under other thresholds' },
    {
      kind: 'fields',
      rows: [
        ['thresholds', describeThresholds(r.thresholds)],
        ['selection', `${r.selection} (${formatCount(r.excluded)} excluded)`],
        [
          'replayed',
          `${formatCount(r.after.decisions)} decisions${r.partial > 0 ? ` (${formatCount(r.partial)} from partial records)` : ''}`,
        ],
        ...(r.undecidable > 0
          ? [
              [
                'not replayable',
                tone(`${formatCount(r.undecidable)} (candidates omitted from the record)`, 'warn'),
              ] as const,
            ]
          : []),
        [
          'near-tie rate',
          `${formatPercent(r.before.nearTieRate)} → ${formatPercent(r.after.nearTieRate)} (${formatCount(r.before.nearTies)} → ${formatCount(r.after.nearTies)})`,
        ],
        ['menu rate', `${formatPercent(r.before.menuRate)} → ${formatPercent(r.after.menuRate)}`],
        [
          'verdicts changed',
          r.flipped === 0
            ? tone('none', 'good')
            : tone(`${formatCount(r.flipped)} of ${formatCount(r.after.decisions)}`, 'warn'),
        ],
        ['move → menu', formatCount(r.moveToMenu)],
        ['menu → move', formatCount(r.menuToMove)],
        ['menu changed', formatCount(r.menuChanged)],
      ],
    },
    { kind: 'heading', text: 'Flip matrix (recorded → replayed)' },
    {
      kind: 'table',
      columns: [
        { title: 'recorded \\ replayed' },
        ...VERDICT_KINDS.map((k) => ({ title: k, align: 'right' as const })),
        { title: 'total', align: 'right' },
      ],
      rows: VERDICT_KINDS.map((from) => [
        from,
        ...VERDICT_KINDS.map((to) => {
          const n = formatCount(r.flips[from][to]);
          return from === to || r.flips[from][to] === 0 ? n : tone(n, 'warn');
        }),
        formatCount(r.before.verdicts[from]),
      ]),
    },
    { kind: 'heading', text: 'Floors per scorer' },
  ];
  if (r.unmatchedNowReachable.length > 0) {
    blocks.push({
      kind: 'paragraph',
      text: [
        'unmatched becomes reachable for: ',
        tone(
          r.unmatchedNowReachable.map((s) => `${formatName(s.router)} / ${formatName(s.scorer)}`).join(', '),
          'strong',
        ),
      ],
    });
  }
  blocks.push({
    kind: 'table',
    columns: [
      { title: 'router' },
      { title: 'scorer' },
      { title: 'decisions', align: 'right' },
      { title: 'with floor before', align: 'right' },
      { title: 'after', align: 'right' },
      { title: 'unmatched before', align: 'right' },
      { title: 'after', align: 'right' },
    ],
    rows: r.scorers.map((s) => [
      formatName(s.router),
      formatName(s.scorer),
      formatCount(s.decisions),
      formatCount(s.flooredBefore),
      formatCount(s.flooredAfter),
      formatCount(s.unmatchedBefore),
      formatCount(s.unmatchedAfter),
    ]),
  });
  blocks.push({ kind: 'heading', text: 'Consistency audit (recorded thresholds)' });
  if (r.consistency.inconsistent === 0) {
    blocks.push({
      kind: 'paragraph',
      text: tone(
        `All ${formatCount(r.consistency.audited)} decisions reproduce their recorded verdict.`,
        'good',
      ),
    });
  } else {
    blocks.push({
      kind: 'paragraph',
      text: tone(
        `${formatCount(r.consistency.inconsistent)} of ${formatCount(r.consistency.audited)} decisions do not reproduce their recorded verdict under their own thresholds: version skew or a bug, not a what-if result.`,
        'bad',
      ),
    });
    blocks.push({
      kind: 'list',
      items: r.consistency.examples.map(
        (e) =>
          `${e.at.traceId} ${e.at.file}:${e.at.line} (judged as ${e.semantics}): ${e.differences.join('; ')}`,
      ),
    });
  }
  blocks.push(...policyBlocks(r.policy.choice, r.policy.services));
  if (r.list.length > 0) {
    blocks.push({
      kind: 'heading',
      text: `Flipped decisions (${formatCount(r.list.length)} of ${formatCount(r.flipped)})`,
    });
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'time' },
        { title: 'trace' },
        { title: 'conversation' },
        { title: 'router / scorer' },
        { title: 'from' },
        { title: 'to' },
        { title: 'gap', align: 'right' },
      ],
      rows: r.list.map((f) => [
        formatTime(f.timeUnixMs),
        f.traceId,
        f.conversationId ?? '—',
        `${formatName(f.router)} / ${formatName(f.scorer)}`,
        f.fromDetail === undefined ? f.from : `${f.from} ${f.fromDetail}`,
        f.toDetail === undefined ? f.to : `${f.to} ${f.toDetail}`,
        formatScore(f.gap),
      ]),
    });
  } else if (r.flipped > 0) {
    blocks.push({ kind: 'paragraph', text: tone('Add --list to list the flipped decisions.', 'dim') });
  }
  blocks.push(...inputBlocks(v.input));
  return blocks;
}
