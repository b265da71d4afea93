/**
 * Telemetry that throws on every call changes nothing for the host (property test).
 *
 * Any mix of broken parts — a provider, tracer or span whose every method throws (or whose every property
 * access throws, through a Proxy), hooks and per-call config functions that throw, a redaction function that
 * throws, a diag logger that throws — and any thrown value (Error, string, undefined, an object whose
 * toString throws): the wrapped `decideTier2` returns the very verdict object the policy returned, a policy
 * that throws has its own error rethrown unchanged, and `recordTurnRoute` / `markMisrouted` return quietly.
 */
import {
  diag,
  DiagLogLevel,
  type DiagLogger,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { recordTurnRoute } from '../../src/instrument/recordTurnRoute.js';
import type { InstrumentationConfig } from '../../src/instrument/types.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import type { DecideTier2, Tier2Verdict, TurnRoute } from '../../src/policy/types.js';
import { tier2CallArb } from '../instrument/tier2Call.arbitrary.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

/** Values a broken part throws: not always an Error, sometimes not even printable. */
const THROWN: ReadonlyArray<() => unknown> = [
  () => new Error('telemetry exploded'),
  () => 'a string',
  () => undefined,
  () => null,
  () => ({
    toString() {
      throw new Error('even printing me throws');
    },
  }),
  () => Symbol('thrown'),
];

/** An object whose every method throws `thrown()`. */
function throwingMethods<T extends object>(thrown: () => unknown): T {
  return new Proxy({} as T, {
    get: () => () => {
      throw thrown();
    },
  });
}

/** An object whose every property access throws. */
function throwingAccess<T extends object>(thrown: () => unknown): T {
  return new Proxy({} as T, {
    get: () => {
      throw thrown();
    },
    has: () => {
      throw thrown();
    },
  });
}

/** A tracer handing out `span` from every startSpan. */
function tracerOf(span: Span): Tracer {
  return {
    startSpan: () => span,
    startActiveSpan: () => {
      throw new Error('not used');
    },
  } as unknown as Tracer;
}

function providerOf(tracer: Tracer): TracerProvider {
  return { getTracer: () => tracer };
}

/** A span that says it records, then throws from everything else. */
function recordingThenThrowing(thrown: () => unknown): Span {
  return new Proxy({} as Span, {
    get: (_t, key) =>
      key === 'isRecording'
        ? () => true
        : () => {
            throw thrown();
          },
  });
}

type Breakage =
  | 'provider methods'
  | 'provider access'
  | 'tracer methods'
  | 'tracer access'
  | 'span methods'
  | 'span access'
  | 'span records, then throws';

const BREAKAGES: readonly Breakage[] = [
  'provider methods',
  'provider access',
  'tracer methods',
  'tracer access',
  'span methods',
  'span access',
  'span records, then throws',
];

function brokenProvider(breakage: Breakage | 'real SDK', thrown: () => unknown): TracerProvider {
  switch (breakage) {
    case 'real SDK':
      return new BasicTracerProvider();
    case 'provider methods':
      return throwingMethods(thrown);
    case 'provider access':
      return throwingAccess(thrown);
    case 'tracer methods':
      return providerOf(throwingMethods(thrown));
    case 'tracer access':
      return providerOf(throwingAccess(thrown));
    case 'span methods':
      return providerOf(tracerOf(throwingMethods(thrown)));
    case 'span access':
      return providerOf(tracerOf(throwingAccess(thrown)));
    case 'span records, then throws':
      return providerOf(tracerOf(recordingThenThrowing(thrown)));
  }
}

const brokenSetupArb = fc.record({
  breakage: fc.constantFrom<Breakage | 'real SDK'>('real SDK', ...BREAKAGES),
  thrown: fc.integer({ min: 0, max: THROWN.length - 1 }).map((i) => THROWN[i]!),
  hookThrows: fc.boolean(),
  scorerNameThrows: fc.boolean(),
  contextThrows: fc.boolean(),
  redactThrows: fc.boolean(),
  diagThrows: fc.boolean(),
  policyThrows: fc.boolean(),
});

afterEach(() => diag.disable());

/**
 * A diag logger that throws on every message except the API's own (un)registration notices: the API logs
 * those through the logger it is installing or removing, so a logger throwing on them could never be removed.
 */
function installThrowingDiag(thrown: () => unknown): void {
  const fail = (message: unknown): void => {
    if (typeof message === 'string' && message.startsWith('@opentelemetry/api:')) return;
    throw thrown();
  };
  const logger: DiagLogger = { error: fail, warn: fail, info: fail, debug: fail, verbose: fail };
  diag.setLogger(logger, { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true });
}

describe('telemetry that throws on every call', () => {
  it('never changes a verdict, never throws into the host, rethrows the policy own error unchanged', () => {
    fc.assert(
      fc.property(tier2CallArb(10), brokenSetupArb, (call, setup) => {
        diag.disable();
        if (setup.diagThrows) installThrowingDiag(setup.thrown);
        const provider = brokenProvider(setup.breakage, setup.thrown);
        const sentinel = new Error('the policy itself failed');
        let returned: Tier2Verdict | undefined;
        const decide: DecideTier2 = (scores, incumbentId, policy, scorer) => {
          if (setup.policyThrows) throw sentinel;
          returned = decideTier2(scores, incumbentId, policy, scorer);
          return returned;
        };
        const thrower = (): never => {
          throw setup.thrown();
        };
        const config: InstrumentationConfig = {
          tracerProvider: provider,
          routerName: 'broken',
          ...(setup.hookThrows ? { attributesHook: thrower } : {}),
          ...(setup.scorerNameThrows ? { scorerName: thrower } : {}),
          ...(setup.contextThrows ? { context: thrower } : {}),
        };
        const wrapped = instrumentDecideTier2(decide, config);
        const run = (): Tier2Verdict => wrapped(call.scores, call.incumbentId, call.policy, call.scorer);

        if (setup.policyThrows) {
          let caught: unknown;
          try {
            run();
          } catch (err) {
            caught = err;
          }
          expect(caught).toBe(sentinel);
        } else {
          const verdict = run();
          expect(verdict).toBe(returned);
          expect(verdict).toStrictEqual(decideTier2(call.scores, call.incumbentId, call.policy, call.scorer));
        }

        const route: TurnRoute = {
          by: 'entry',
          to: 'billing',
          witness: { text: 'my invoice', keyword: 'invoice' },
        };
        expect(() =>
          recordTurnRoute(route, {
            tracerProvider: provider,
            recordWitness: true,
            ...(setup.redactThrows ? { redactWitness: thrower } : {}),
          }),
        ).not.toThrow();
        expect(() =>
          markMisrouted(
            { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' },
            { expected: 'refunds', source: 'eval' },
            { tracerProvider: provider },
          ),
        ).not.toThrow();
        diag.disable();
      }),
      { numRuns: propertyRuns(600), seed: 7 },
    );
  });

  it('a broken config object (every field access throws) leaves the bare policy in place', () => {
    const config = throwingAccess<InstrumentationConfig>(() => new Error('config exploded'));
    const wrapped = instrumentDecideTier2(decideTier2, config);
    fc.assert(
      fc.property(tier2CallArb(10), (call) => {
        expect(wrapped(call.scores, call.incumbentId, call.policy, call.scorer)).toStrictEqual(
          decideTier2(call.scores, call.incumbentId, call.policy, call.scorer),
        );
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
