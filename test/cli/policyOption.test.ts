/**
 * policyOption.test — `--policy` on the commands that judge, run in-process on agentfootprint 9.62's own
 * event log: the same decisions whichever behaviour is asked for, judged as asked.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './runCliHarness.js';

const SHARED = new URL('../../../shared/fixtures/agentfootprint/', import.meta.url);
const EVENTS = fileURLToPath(new URL('turn_routed.jsonl', SHARED));
interface Scenario {
  index: number;
  scenario: string;
  sessionId: string;
  decideTier2: { kind: 'move' | 'stay' | 'menu' | 'unmatched' } | null;
}
const scenarios = (
  JSON.parse(readFileSync(new URL('scenarios.json', SHARED), 'utf8')) as { events: Scenario[] }
).events;
const CLAUSE = scenarios.find((s) => s.scenario === 'tier2-keyword-mid-near-tie-incumbent-at-floor-stay')!;
const EXPECTED_VERDICTS = { move: 0, stay: 0, menu: 0, unmatched: 0 };
for (const s of scenarios) if (s.decideTier2 !== null) EXPECTED_VERDICTS[s.decideTier2.kind]++;

interface AnalyzeJson {
  decisions: number;
  turns: number;
  verdicts: Record<string, number>;
  inconsistent: number;
  anomalyExamples: { kind: string; semantics?: string; at: { line: number } }[];
  policy: { choice: string; services: { service: string | null; semantics: string; resolvedBy: string }[] };
  input: { events: number; otherEvents: number; problems: number };
}

async function analyze(...extra: string[]): Promise<AnalyzeJson> {
  const r = await cliJson(['analyze', EVENTS, ...extra]);
  expect(r.code).toBe(0);
  return r.json as unknown as AnalyzeJson;
}

describe('routescope analyze on the 9.62 event log', () => {
  it('reads one decision per event whose scorer ran, one turn per event, the verdicts of scenarios.json', async () => {
    const j = await analyze();
    expect(j.decisions).toBe(scenarios.filter((s) => s.decideTier2 !== null).length);
    expect(j.turns).toBe(scenarios.length);
    expect(j.verdicts).toEqual(EXPECTED_VERDICTS);
    expect(j.input).toMatchObject({ events: scenarios.length, otherEvents: 0, problems: 0 });
  });

  it('--policy auto (the default): 0 inconsistent, the service found to run agentfootprint-9.62', async () => {
    const j = await analyze();
    expect(j.inconsistent).toBe(0);
    expect(j.policy).toEqual({
      choice: 'auto',
      services: [expect.objectContaining({ service: null, semantics: 'agentfootprint-9.62' })],
    });
  });

  it('--policy agentfootprint-9.62: 0 inconsistent', async () => {
    const j = await analyze('--policy', 'agentfootprint-9.62');
    expect(j.inconsistent).toBe(0);
    expect(j.policy.services[0]).toMatchObject({ semantics: 'agentfootprint-9.62', resolvedBy: 'forced' });
  });

  it('--policy contract: exactly the mid-conversation near-tie whose incumbent scored at the floor is inconsistent', async () => {
    const j = await analyze('--policy', 'contract');
    expect(j.inconsistent).toBe(1);
    const found = j.anomalyExamples.filter((a) => a.kind === 'inconsistent');
    expect(found.map((a) => [a.at.line, a.semantics])).toEqual([[CLAUSE.index + 1, 'contract']]);
  });

  it('text output names the behaviour found per service', async () => {
    const r = await cli(['analyze', EVENTS]);
    expect(r.stdout).toMatch(/Policy behaviour by service \(--policy auto\)/);
    expect(r.stdout).toMatch(/\(none\)\s+agentfootprint-9\.62/);
    const md = await cli(['analyze', EVENTS, '--format', 'markdown']);
    expect(md.stdout).toContain('agentfootprint-9.62');
  });

  it('an event log with no decision says what it held, never that all is well', async () => {
    const entry = readFileSync(EVENTS, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"by":"entry"'));
    const other = JSON.stringify({ type: 'agentfootprint.agent.turn_end', payload: {}, meta: {} });
    const r = await cli(['analyze', '-'], { stdinText: `${entry.join('\n')}\n${other}\n` });
    expect(entry.length).toBeGreaterThan(0);
    expect(r.stdout).toContain(
      `its agentfootprint event logs hold ${entry.length} turn_routed events, none with scores (tier 2 never ran), and 1 other events, skipped.`,
    );
  });

  it('an unknown --policy value exits 2 with a message listing the values', async () => {
    for (const command of [
      ['analyze', EVENTS],
      ['replay', EVENTS],
      ['explain', CLAUSE.sessionId, EVENTS],
      ['tune', EVENTS],
    ]) {
      const r = await cli([...command, '--policy', 'agentfootprint-9.61']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--policy must be one of auto, contract, agentfootprint-9.62');
      expect(r.stderr).toContain("'agentfootprint-9.61'");
    }
  });
});

describe('routescope replay on the 9.62 event log', () => {
  it('the audit under auto and 9.62 finds nothing; under the contract the clause case', async () => {
    const counts: Record<string, number> = {};
    for (const policy of ['auto', 'agentfootprint-9.62', 'contract']) {
      const r = await cliJson(['replay', EVENTS, '--policy', policy]);
      expect(r.code).toBe(0);
      const c = r.json.consistency as { inconsistent: number; examples: { at: { line: number } }[] };
      counts[policy] = c.inconsistent;
      if (policy === 'contract') expect(c.examples.map((e) => e.at.line)).toEqual([CLAUSE.index + 1]);
    }
    expect(counts).toEqual({ auto: 0, 'agentfootprint-9.62': 0, contract: 1 });
  });

  it('a what-if judges by the behaviour: a wider margin makes more menus under the contract than under 9.62', async () => {
    const after = async (policy: string): Promise<number> => {
      const r = await cliJson(['replay', EVENTS, '--margin', '1', '--policy', policy]);
      return (r.json.after as { verdicts: { menu: number } }).verdicts.menu;
    };
    expect(await after('contract')).toBeGreaterThan(await after('agentfootprint-9.62'));
  });
});

describe('routescope explain on the 9.62 event log', () => {
  const clauseEntry = async (policy: string) => {
    const r = await cliJson(['explain', CLAUSE.sessionId, EVENTS, '--policy', policy]);
    expect(r.code).toBe(0);
    const entries = r.json.entries as {
      kind: string;
      source: { line: number };
      judgedAs?: string;
      traceId: string;
      replay?: { differences: string[] };
      counterfactuals?: { floor: { result: { verdict: string } }[] };
    }[];
    return entries.find((e) => e.kind === 'decision' && e.source.line === CLAUSE.index + 1)!;
  };

  it('a session id names the conversation; the decision is judged as the framework judged it', async () => {
    const e = await clauseEntry('auto');
    expect(e.judgedAs).toBe('agentfootprint-9.62');
    expect(e.replay!.differences).toEqual([]);
  });

  it('--policy contract judges it by the contract, which does not reproduce it', async () => {
    const e = await clauseEntry('contract');
    expect(e.judgedAs).toBe('contract');
    expect(e.replay!.differences).toContain('verdict: recorded stay, replayed menu');
  });

  it('the synthesized trace id names the same decision', async () => {
    const { traceId } = await clauseEntry('auto');
    const r = await cliJson(['explain', traceId, EVENTS]);
    expect(r.code).toBe(0);
    expect(r.json.matchedBy as string[]).toEqual(['trace']);
    expect(r.json.decisions).toBe(1);
  });
});
