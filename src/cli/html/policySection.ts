/**
 * policySection — the page section saying which published behaviour judged each service (`--policy`).
 *
 * analyze, replay and tune judge decisions, so each of their pages shows the same table the text report does
 * (format/presentPolicy): per service the behaviour, how it was settled, and what its decisions record. Pure.
 */
import type { PolicyChoice, ServiceBehaviour } from '../../analyze/policyAudit.js';
import { describeResolution } from '../format/presentPolicy.js';
import { htmlTable, type HtmlSection } from './htmlPage.js';
import { formatNumber } from './svgCharts.js';

/** The section, or none when no decision went through the audit (a forced behaviour says so in one line). */
export function policySection(choice: PolicyChoice, services: readonly ServiceBehaviour[]): HtmlSection[] {
  if (services.length === 0) {
    return choice === 'auto'
      ? []
      : [
          {
            title: 'Policy behaviour',
            intro: `Every decision is judged by ${choice} (--policy ${choice}).`,
            body: '',
          },
        ];
  }
  return [
    {
      title: 'Policy behaviour by service',
      intro: `--policy ${choice}: the published behaviour that judged each service's decisions (contract, or agentfootprint-9.62 without the incumbent-at/below-floor clause).`,
      body: htmlTable(
        ['service', 'behaviour', 'how', 'decisions', 'recorded contract / 9.62', 'inconsistent'],
        services.map((p) => [
          p.service ?? '(none)',
          p.semantics,
          describeResolution(p),
          formatNumber(p.decisions),
          `${formatNumber(p.recorded.contract)} / ${formatNumber(p.recorded['agentfootprint-9.62'])}`,
          formatNumber(p.inconsistent),
        ]),
        [3, 4, 5],
      ),
    },
  ];
}
