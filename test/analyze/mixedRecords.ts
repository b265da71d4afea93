/**
 * mixedRecords — records of every kind for the laws of merging and of serve's slices: decisions varied in what
 * the analyses group, sample and audit by (service, router, conversation, recorded behaviour, a tampered
 * verdict the audit finds), turns and misroute marks among them.
 */
import fc from 'fast-check';
import type { DecisionRecord, TraceRecord } from '../../src/record/types.js';
import { decisionArbitrary } from './replayRecords.js';

/** A record of any kind, decisions varied in what the analyses group and sample by. */
export const recordArbitrary: fc.Arbitrary<TraceRecord> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({
        d: decisionArbitrary,
        service: fc.constantFrom('shop', 'bank', undefined),
        router: fc.constantFrom(
          'desk',
          'triage',
          `routed-by-a-name-longer-than-serve-keeps-${'r'.repeat(60)}`,
          undefined,
        ),
        conversation: fc.constantFrom('c1', 'c2', 'c3', undefined),
        semantics: fc.constantFrom('contract', 'agentfootprint-9.62', undefined),
        error: fc.boolean(),
        marked: fc.boolean(),
        trace: fc.integer({ min: 0, max: 5 }),
        // A verdict the policy would not give: the audit's findings, interleaved with threshold anomalies.
        tampered: fc.integer({ min: 0, max: 3 }),
      })
      .map(
        ({ d, service, router, conversation, semantics, error, marked, trace, tampered }): DecisionRecord => {
          const { router: _r, service: _s, conversationId: _c, semantics: _m, ...rest } = d;
          return {
            ...rest,
            ...(service === undefined ? {} : { service }),
            ...(router === undefined ? {} : { router }),
            ...(conversation === undefined ? {} : { conversationId: conversation }),
            ...(semantics === undefined ? {} : { semantics }),
            ...(trace === 0 ? {} : { traceId: trace.toString(16).padStart(32, '0') }),
            error,
            misroutes: marked ? [{ expected: 'billing' }] : [],
            ...(tampered === 0 ? { verdict: d.verdict === 'stay' ? 'unmatched' : 'stay' } : {}),
          };
        },
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<TraceRecord>(
      {
        kind: 'turn',
        by: 'tier2',
        traceId: 'a'.repeat(32),
        spanId: 'b'.repeat(16),
        timeUnixMs: 1,
        error: false,
        misroutes: [],
      } as unknown as TraceRecord,
      {
        kind: 'misroute',
        mark: { reason: 'wrong' },
        traceId: 'c'.repeat(32),
        spanId: 'd'.repeat(16),
        timeUnixMs: 2,
        error: false,
        misroutes: [],
      } as unknown as TraceRecord,
    ),
  },
);
