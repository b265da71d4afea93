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
  const evicted = { decisions: 0, turns: 0, misroutes: 0, forBytes: 0 };
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
    // Strings stored whole here (--max-string past the record's one long string).
    const window = createDecisionWindow({ maxDecisions: 2, maxString: 2 * CHUNK_BYTES });
    const big = rec('decision', 1, CHUNK_BYTES + 10);
    window.add(rec('decision', 0, 5));
    window.add(big);
    window.add(rec('decision', 2, 5));
    expect([...window.records()]).toEqual([big, rec('decision', 2, 5)]);
  });

  it('a walk begun before more records arrive skips what was evicted meanwhile and visits none added, never a wrong one', () => {
    const window = createDecisionWindow({ maxDecisions: 3 });
    for (let n = 0; n < 3; n++) window.add(rec('decision', n));
    const walk = window.records()[Symbol.iterator]();
    expect(walk.next().value).toEqual(rec('decision', 0));
    window.add(rec('decision', 3)); // evicts 0, the one already seen
    window.add(rec('decision', 4)); // evicts 1, the next one
    expect(walk.next().value).toEqual(rec('decision', 2));
    expect(walk.next().done).toBe(true);
    // Everything it had left evicted meanwhile, and more added: it ends, visiting none of the new ones.
    const late = window.records()[Symbol.iterator]();
    expect(late.next().value).toEqual(rec('decision', 2));
    for (let n = 5; n < 9; n++) window.add(rec('decision', n));
    expect(late.next().done).toBe(true);
  });

  it('the records held never take more than maxBytes: the oldest go first whatever their count, counted apart', () => {
    const maxBytes = 256 * 1024;
    const window = createDecisionWindow({ maxDecisions: 100_000, maxBytes, maxString: 8192 });
    let most = 0;
    for (let n = 0; n < 2000; n++) {
      // Each with a long string of its own, and one shared by none other.
      window.add(rec('decision', n, 4000 + (n % 7) * 500, `label-${n}`));
      most = Math.max(most, window.liveBytes);
    }
    expect(most).toBeLessThanOrEqual(maxBytes);
    expect(window.decisions).toBeLessThan(2000);
    expect(window.decisions).toBeGreaterThan(20);
    expect(window.evicted.decisions).toBe(2000 - window.decisions);
    expect(window.evicted.forBytes).toBe(window.evicted.decisions);
    // Newest kept, in order.
    const kept = [...window.records()].map((r) => (r as unknown as { n: number }).n);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 2000 - kept.length + i));
  });

  it('the shared strings count toward maxBytes too: many distinct short strings cannot grow it past the limit', () => {
    const maxBytes = 64 * 1024;
    const window = createDecisionWindow({ maxDecisions: 100_000, maxBytes });
    for (let n = 0; n < 5000; n++) {
      const r = {
        ...rec('decision', n),
        names: Array.from({ length: 20 }, (_, i) => `s${n}-${i}`.padEnd(60, 'z')),
      };
      window.add(r as unknown as TraceRecord);
      expect(window.liveBytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(window.evicted.forBytes).toBeGreaterThan(0);
  });

  it('a string longer than maxString is stored cut, marked and counted; two that share their start stay two', () => {
    const window = createDecisionWindow({ maxDecisions: 10, maxString: 100 });
    const start = 'c'.repeat(5000);
    window.add({ ...rec('decision', 0), conversationId: `${start}A` } as unknown as TraceRecord);
    window.add({ ...rec('decision', 1), conversationId: `${start}B` } as unknown as TraceRecord);
    window.add({ ...rec('decision', 2), conversationId: 'short' } as unknown as TraceRecord);
    const ids = [...window.records()].map((r) => (r as unknown as { conversationId: string }).conversationId);
    expect(ids[0]).toMatch(/^c+… \[cut from 5001 characters, #[0-9a-f]{8}\]$/);
    expect(ids[0]!.length).toBeLessThanOrEqual(100);
    expect(ids[1]!.length).toBeLessThanOrEqual(100);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[2]).toBe('short');
    expect(window.stringsCut).toBe(2);
  });

  it('refuses a limit that is not a whole number from 1', () => {
    expect(() => createDecisionWindow({ maxDecisions: 0 })).toThrow(/whole number from 1/);
    expect(() => createDecisionWindow({ maxDecisions: 1.5 })).toThrow(/whole number from 1/);
  });
});
