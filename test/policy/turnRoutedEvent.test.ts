/**
 * turnRoutedEvent.test — reading the framework's own turn_routed events: the real 9.62 capture, then one rule
 * per `it` for what a damaged or hand-built event reads as.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CATEGORICAL_SCORERS,
  DEFAULT_MAX_JUDGED_CANDIDATES,
  readTurnRoutedEvent,
  type ReadTurnRoutedOptions,
  type TurnRoutedReading,
} from '../../src/policy/turnRoutedEvent.js';
import type { PolicySemantics } from '../../src/policy/types.js';

const FIXTURES = new URL('../../../shared/fixtures/agentfootprint/', import.meta.url);
const events: unknown[] = readFileSync(new URL('turn_routed.jsonl', FIXTURES), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as unknown);
interface Scenario {
  index: number;
  scenario: string;
  by: string;
  decideTier2: { kind: string; to?: string; offered?: string[]; decisive: boolean } | null;
}
const scenarios = (
  JSON.parse(readFileSync(new URL('scenarios.json', FIXTURES), 'utf8')) as { events: Scenario[] }
).events;

const options = (semantics: PolicySemantics): ReadTurnRoutedOptions => ({
  semantics,
  categoricalScorers: DEFAULT_CATEGORICAL_SCORERS,
  maxJudgedCandidates: DEFAULT_MAX_JUDGED_CANDIDATES,
});
const read = (event: unknown, semantics: PolicySemantics = 'agentfootprint-9.62'): TurnRoutedReading => {
  const r = readTurnRoutedEvent(event, options(semantics));
  if (r.kind !== 'turn_routed') throw new Error(`expected a reading, got ${r.reason}`);
  return r;
};

describe('the real capture of agentfootprint 9.62 (turn_routed.jsonl, scenarios.json)', () => {
  it('holds 46 events, described one for one by scenarios.json', () => {
    expect(events).toHaveLength(46);
    expect(scenarios).toHaveLength(46);
  });

  it('every event reads without a problem; a decision exactly where tier 2 ran', () => {
    events.forEach((e, i) => {
      const r = read(e);
      expect(r.problems, `event ${i}`).toEqual([]);
      expect(r.decision !== undefined, `event ${i}: ${scenarios[i]!.scenario}`).toBe(
        scenarios[i]!.decideTier2 !== null,
      );
      expect(r.turn.by).toBe(scenarios[i]!.by);
    });
    expect(events.filter((e) => read(e).decision !== undefined)).toHaveLength(34);
  });

  it("under 9.62 the rebuilt verdict is 9.62's own on every event, and agrees with what happened", () => {
    events.forEach((e, i) => {
      const d = read(e).decision;
      const want = scenarios[i]!.decideTier2;
      if (d === undefined || want === null) return;
      expect(d.rebuilt).toMatchObject(want);
      expect(d.differences, `event ${i}: ${scenarios[i]!.scenario}`).toEqual([]);
      expect(d.happened.kind).toBe(want.kind);
    });
  });

  it('under the contract, only the mid-conversation near-tie whose incumbent scored at the floor disagrees', () => {
    const disagreeing = events.flatMap((e, i) => {
      const d = read(e, 'contract').decision;
      return d !== undefined && d.differences.length > 0 ? [{ i, d }] : [];
    });
    expect(disagreeing.map(({ i }) => scenarios[i]!.scenario)).toEqual([
      'tier2-keyword-mid-near-tie-incumbent-at-floor-stay',
    ]);
    const { d } = disagreeing[0]!;
    expect(d.rebuilt.kind).toBe('menu');
    // What happened is still what the framework did: the incumbent held.
    expect(d.happened.kind).toBe('stay');
    expect(d.differences[0]).toMatch(/^verdict: event by continuity, to \w+, rebuilt menu \[/);
  });

  it('the event reads the session, run and wall clock from meta', () => {
    const r = read(events[0]);
    expect(r.meta).toEqual({
      runId: 'run-1796283797298-1',
      sessionId: 'sess-C01',
      wallClockMs: 1796283797308,
    });
  });
});
