// indexPart: the compact columns of one slice come back as the records gave them — ids of every shape included
// (lower-case hex kept as bytes, anything else as text) — and a part grows past any size.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexPart } from '../../src/serve/browse/indexPart.js';
import { generateWorkload } from '../analyze/replayRecords.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const anyId = (bytes: number) =>
  fc.oneof(
    hex(bytes),
    hex(bytes).map((h) => h.toUpperCase()),
    hex(bytes + 1),
    fc.string({ maxLength: 40 }),
    fc.constant(''),
  );

describe('IndexPart', () => {
  it('law: every trace and span id comes back exactly as the record had it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anyId(16), anyId(8)), { minLength: 1, maxLength: 200 }), (ids) => {
        const part = new IndexPart();
        const records = generateWorkload(ids.length, 9);
        records.forEach((r, i) => part.add({ ...r, traceId: ids[i]![0], spanId: ids[i]![1] }));
        expect(part.decisions).toBe(ids.length);
        ids.forEach(([trace, span], i) => {
          expect(part.traceId(i)).toBe(trace);
          expect(part.spanId(i)).toBe(span);
        });
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('grows by doubling and keeps every column of what it held', () => {
    const part = new IndexPart();
    const records = generateWorkload(1000, 2);
    for (const r of records) part.add(r);
    expect(part.decisions).toBe(1000);
    records.forEach((r, i) => {
      expect(part.time[i]).toBe(r.timeUnixMs);
      expect(part.margin[i]).toBe(r.policy.nearTieMargin);
      expect(part.tables.conversations.get(part.conversation[i]!)).toBe(r.conversationId);
      expect(part.traceId(i)).toBe(r.traceId);
    });
  });
});
