/**
 * turnRoutedEvent.test — reading the framework's own turn_routed events: the real 9.62 capture, then one rule
 * per `it` for what a damaged or hand-built event reads as.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CATEGORICAL_SCORERS,
  DEFAULT_MAX_JUDGED_CANDIDATES,
  readTurnRoutedEvent,
  readTurnRoutedEventForRecording,
  type ReadTurnRoutedOptions,
  type TurnRoutedInvalid,
  type TurnRoutedReading,
} from '../../src/policy/turnRoutedEvent.js';
import type { PolicySemantics, RankedIntentScore } from '../../src/policy/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

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

describe('readTurnRoutedEventForRecording: the same reading, the event keeping its own ranking', () => {
  /** A reading with the rebuilt ranking taken out and each candidate as plain {id, score, relevance}. */
  const comparable = (r: TurnRoutedReading | TurnRoutedInvalid): unknown => {
    if (r.kind !== 'turn_routed' || r.decision === undefined) return r;
    const plain = (xs: readonly RankedIntentScore[]) =>
      xs.map(({ id, score, relevance }) => ({ id, score, relevance }));
    const { happened, rebuilt } = r.decision;
    return {
      ...r,
      decision: {
        ...r.decision,
        scores: plain(r.decision.scores as RankedIntentScore[]),
        happened: { ...happened, ranked: plain(happened.ranked) },
        rebuilt: { ...rebuilt, ranked: 'left out' },
      },
    };
  };
  const both = (event: unknown, semantics: PolicySemantics) => ({
    full: readTurnRoutedEvent(event, options(semantics)),
    recording: readTurnRoutedEventForRecording(event, options(semantics)),
  });

  it.each<PolicySemantics>(['contract', 'agentfootprint-9.62'])(
    'every captured event (%s): every field equal but the rebuilt ranking, which is the event’s own',
    (semantics) => {
      let decisions = 0;
      for (const e of events) {
        const { full, recording } = both(e, semantics);
        expect(comparable(recording)).toStrictEqual(comparable(full));
        if (recording.kind === 'turn_routed' && recording.decision !== undefined) {
          decisions++;
          expect(recording.decision.rebuilt.ranked).toBe(recording.decision.scores);
        }
      }
      expect(decisions).toBe(34);
    },
  );

  it('a score JSON wrote as null reads as NaN in both readings, never as the null itself', () => {
    const e = structuredClone(events.find((x) => read(x).decision !== undefined)) as {
      payload: { scores: Record<string, unknown>[] };
    };
    e.payload.scores[1]!.score = null;
    const { full, recording } = both(e, 'agentfootprint-9.62');
    for (const r of [full, recording]) expect((r as TurnRoutedReading).decision!.scores[1]!.score).toBeNaN();
    // The recording reading uses the event's own entries, and its list only while every entry is its own
    // reading; the public reading copies both.
    const kept = (recording as TurnRoutedReading).decision!.scores;
    expect(kept).not.toBe(e.payload.scores);
    expect(kept[0]).toBe(e.payload.scores[0]);
    expect((full as TurnRoutedReading).decision!.scores[0]).not.toBe(e.payload.scores[0]);
    const whole = structuredClone(events.find((x) => read(x).decision !== undefined)) as {
      payload: { scores: unknown[] };
    };
    const own = both(whole, 'agentfootprint-9.62');
    expect((own.recording as TurnRoutedReading).decision!.scores).toBe(whole.payload.scores);
    expect((own.full as TurnRoutedReading).decision!.scores).not.toBe(whole.payload.scores);
  });

  it('an entry without a share takes the rebuilt one, as the public reading does', () => {
    const e = structuredClone(events.find((x) => read(x).decision !== undefined)) as {
      payload: { scores: Record<string, unknown>[] };
    };
    delete e.payload.scores[0]!.relevance;
    const { full, recording } = both(e, 'agentfootprint-9.62');
    expect(comparable(recording)).toStrictEqual(comparable(full));
    expect((recording as TurnRoutedReading).decision!.scores[0]).toStrictEqual(
      (full as TurnRoutedReading).decision!.scores[0],
    );
  });

  it('property: on damaged and random events the two readings agree but for the rebuilt ranking (seed printed on failure)', () => {
    const damaged = fc
      .tuple(
        fc.constantFrom(...events),
        fc.constantFrom('scores', 'policy', 'runnerUp', 'by', 'offered', 'from', 'decisive', 'scorer'),
        fc.oneof(
          fc.anything(),
          fc.array(
            fc.record({
              id: fc.constantFrom('a', 'b', 'c'),
              score: fc.oneof(fc.double(), fc.constant(null)),
              relevance: fc.oneof(fc.double(), fc.constant(null)),
            }),
            { maxLength: 24 },
          ),
        ),
        fc.constantFrom<PolicySemantics>('contract', 'agentfootprint-9.62'),
      )
      .map(([e, key, value, semantics]) => {
        const copy = structuredClone(e) as { payload: Record<string, unknown> };
        copy.payload[key] = value;
        return [copy, semantics] as const;
      });
    fc.assert(
      fc.property(damaged, ([event, semantics]) => {
        const { full, recording } = both(event, semantics);
        expect(comparable(recording)).toStrictEqual(comparable(full));
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});
