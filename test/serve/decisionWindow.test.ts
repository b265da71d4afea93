/**
 * decisionWindow — the newest decisions kept, packed, oldest evicted first and counted; checked against a plain
 * array that keeps whole records (the model), for any mix of kinds, sizes and limits; chunks let go.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, createDecisionWindow } from '../../src/serve/decisionWindow.js';
import type { TraceRecord } from '../../src/record/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

type Kind = TraceRecord['kind'];

function rec(kind: Kind, n: number, pad = 0): TraceRecord {
  return { kind, n, pad: 'x'.repeat(pad) } as unknown as TraceRecord;
}

/** The window as a list: evict from the front until both limits hold. */
function model(maxDecisions: number, otherPerDecision: number) {
  const kept: TraceRecord[] = [];
  const evicted = { decisions: 0, turns: 0, misroutes: 0 };
  const maxOther = Math.max(1, Math.floor(maxDecisions * otherPerDecision));
  return {
    kept,
    evicted,
    add(r: TraceRecord) {
      kept.push(r);
      const count = (d: boolean) => kept.filter((k) => (k.kind === 'decision') === d).length;
      while (count(true) > maxDecisions || count(false) > maxOther) {
        const gone = kept.shift()!;
        if (gone.kind === 'decision') evicted.decisions++;
        else if (gone.kind === 'turn') evicted.turns++;
        else evicted.misroutes++;
      }
    },
  };
}

describe('decisionWindow', () => {
  it('law: holds exactly what the model holds, in order, with the same evicted counts (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(0.5, 1, 2),
        fc.array(fc.tuple(fc.constantFrom<Kind>('decision', 'decision', 'turn', 'misroute'), fc.nat(300)), {
          maxLength: 400,
        }),
        (maxDecisions, otherPerDecision, adds) => {
          const window = createDecisionWindow({ maxDecisions, otherPerDecision });
          const m = model(maxDecisions, otherPerDecision);
          adds.forEach(([kind, pad], n) => {
            window.add(rec(kind, n, pad));
            m.add(rec(kind, n, pad));
          });
          expect([...window.records()]).toEqual(m.kept);
          expect(window.evicted).toEqual(m.evicted);
          expect(window.decisions).toBe(m.kept.filter((r) => r.kind === 'decision').length);
          expect(window.size).toBe(m.kept.length);
          expect(window.version).toBe(adds.length);
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });

  it('chunks are let go as their records are evicted: the bytes held stay bounded however much arrives', () => {
    const window = createDecisionWindow({ maxDecisions: 100 });
    // Records of ~20 KB: 100 of them fill two chunks; 5,000 go through.
    let most = 0;
    for (let n = 0; n < 5000; n++) {
      window.add(rec('decision', n, 20_000));
      most = Math.max(most, window.bytes);
    }
    expect(window.decisions).toBe(100);
    expect(window.evicted.decisions).toBe(4900);
    expect(most).toBeLessThanOrEqual(4 * CHUNK_BYTES);
    expect([...window.records()].map((r) => (r as unknown as { n: number }).n)).toEqual(
      Array.from({ length: 100 }, (_, i) => 4900 + i),
    );
  });

  it('a record larger than a chunk gets a chunk of its own', () => {
    const window = createDecisionWindow({ maxDecisions: 2 });
    const big = rec('decision', 1, CHUNK_BYTES + 10);
    window.add(rec('decision', 0, 5));
    window.add(big);
    window.add(rec('decision', 2, 5));
    expect([...window.records()]).toEqual([big, rec('decision', 2, 5)]);
  });

  it('a walk begun before more records arrive stops at what was evicted meanwhile, never yields a wrong one', () => {
    const window = createDecisionWindow({ maxDecisions: 3 });
    for (let n = 0; n < 3; n++) window.add(rec('decision', n));
    const walk = window.records()[Symbol.iterator]();
    expect(walk.next().value).toEqual(rec('decision', 0));
    window.add(rec('decision', 3)); // evicts 0, the one already seen
    window.add(rec('decision', 4)); // evicts 1, the next one
    expect(walk.next().done).toBe(true);
  });

  it('refuses a limit that is not a whole number from 1', () => {
    expect(() => createDecisionWindow({ maxDecisions: 0 })).toThrow(/whole number from 1/);
    expect(() => createDecisionWindow({ maxDecisions: 1.5 })).toThrow(/whole number from 1/);
  });
});
