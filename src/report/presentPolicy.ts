/**
 * presentPolicy — which published behaviour judged each service (`--policy`), for every report that judges.
 *
 * `analyze` prints it as a section; `replay` beside its consistency audit. A service judged by evidence or by
 * what its decisions record says so, with the counts; a forced behaviour says it was forced. Pure.
 */
import type { PolicyChoice, ServiceBehaviour } from '../analyze/policyAudit.js';
import { tone, type Block } from './document.js';
import { formatCount, formatName } from './formatValues.js';

/** One line on how a service's behaviour was settled. */
export function describeResolution(s: ServiceBehaviour): string {
  switch (s.resolvedBy) {
    case 'forced':
      return 'forced by --policy';
    case 'evidence':
      return `evidence: ${formatCount(s.evidence.contract)} only the contract reproduces, ${formatCount(s.evidence['agentfootprint-9.62'])} only 9.62 reproduces`;
    case 'recorded':
      return 'recorded on its decisions';
    case 'default':
      return 'default (no decision tells them apart)';
  }
}

/** The per-service behaviour section. */
export function policyBlocks(choice: PolicyChoice, services: readonly ServiceBehaviour[]): Block[] {
  if (services.length === 0) return [];
  return [
    { kind: 'heading', text: `Policy behaviour by service (--policy ${choice})` },
    {
      kind: 'table',
      columns: [
        { title: 'service' },
        { title: 'behaviour' },
        { title: 'how' },
        { title: 'decisions', align: 'right' },
        { title: 'recorded contract / 9.62', align: 'right' },
        { title: 'inconsistent', align: 'right' },
      ],
      rows: services.map((s) => [
        formatName(s.service),
        s.semantics,
        describeResolution(s),
        formatCount(s.decisions),
        `${formatCount(s.recorded.contract)} / ${formatCount(s.recorded['agentfootprint-9.62'])}`,
        s.inconsistent === 0 ? tone('0', 'good') : tone(formatCount(s.inconsistent), 'bad'),
      ]),
    },
    {
      kind: 'paragraph',
      text: tone(
        choice === 'auto'
          ? "A decision that records its behaviour is judged by it; the others by their service's: the one that alone reproduces more of its decisions, else the one most of them record, else the contract."
          : `Every decision is judged by ${choice}, whatever it records.`,
        'dim',
      ),
    },
  ];
}
