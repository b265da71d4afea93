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

function rec(kind: Kind, n: number, pad = 0, label = 'a'): TraceRecord {
  return {
    kind,
    n,
    pad: 'x'.repeat(pad),
    label,
    spanId: n.toString(16).padStart(16, '0'),
  } as unknown as TraceRecord;
}

/** The distinct strings short enough to be shared (and not hex ids) in the records kept: the model's table. */
function sharedIn(records: readonly TraceRecord[]): number {
  const strings = new Set<string>();
  for (const r of records) {
    const o = r as unknown as { kind: string; pad: string; label: string };
    // Lowercase hex of whole bytes is packed as bytes, not shared.
    for (const s of [o.kind, o.pad, o.label])
      if (s.length <= 64 && !/^(?:[0-9a-f]{2})+$/.test(s)) strings.add(s);
  }
  return strings.size;
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
        fc.array(
          fc.tuple(
            fc.constantFrom<Kind>('decision', 'decision', 'turn', 'misroute'),
            fc.nat(100),
            fc.string({ maxLength: 3 }),
          ),
          { maxLength: 400 },
        ),
        (maxDecisions, otherPerDecision, adds) => {
          const window = createDecisionWindow({ maxDecisions, otherPerDecision });
          const m = model(maxDecisions, otherPerDecision);
          adds.forEach(([kind, pad, label], n) => {
            window.add(rec(kind, n, pad, label));
            m.add(rec(kind, n, pad, label));
          });
          expect([...window.records()]).toEqual(m.kept);
          // The shared strings are exactly those the kept records hold: none outlives its last holder.
          expect(window.sharedStrings).toBe(sharedIn(m.kept));
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
