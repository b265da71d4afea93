/**
 * describeDemoRouters — one row of plain facts per router of the demo agent, for `routescope demo` to print.
 *
 * The demo command lays the rows out; what a router is (its channel, skills, scorer and the margin its policy
 * resolves to) is the demo's own knowledge, so the command needs neither the scorers nor the policy.
 * No I/O.
 */
import { resolveRoutingPolicy } from '../policy/routingPolicy.js';
import { createDemoScorer } from './demoScorers.js';
import { DEMO_ROUTERS, DEMO_SKILLS } from './demoSkills.js';

/** Per router: name, channel, skill count, scorer with its traits, near-tie margin — each a printable cell. */
export function describeDemoRouters(): string[][] {
  return DEMO_ROUTERS.map((r) => {
    const scorer = createDemoScorer(r.scorer, DEMO_SKILLS);
    const policy = resolveRoutingPolicy(r.policy);
    const floor = scorer.traits.floor === undefined ? 'no floor' : `floor ${scorer.traits.floor}`;
    const traits = scorer.traits.categorical === true ? `${floor}, categorical` : floor;
    return [
      r.name,
      r.channel,
      `${r.skills.length} skills`,
      `${scorer.name} (${traits})`,
      `margin ${policy.nearTieMargin}`,
    ];
  });
}
