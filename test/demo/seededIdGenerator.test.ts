import { describe, expect, it } from 'vitest';
import { createSeededIdGenerator, createSeededRandom } from '../../src/demo/seededIdGenerator.js';

describe('seeded ids', () => {
  it('the same seed gives the same ids, in the same order', () => {
    const a = createSeededIdGenerator(7);
    const b = createSeededIdGenerator(7);
    for (let i = 0; i < 50; i++) {
      expect(a.generateTraceId()).toBe(b.generateTraceId());
      expect(a.generateSpanId()).toBe(b.generateSpanId());
    }
  });
  it('another seed gives other ids', () => {
    expect(createSeededIdGenerator(1).generateTraceId()).not.toBe(
      createSeededIdGenerator(2).generateTraceId(),
    );
  });
  it('ids are lower-case hex of the OTel widths and never all zeros', () => {
    const g = createSeededIdGenerator(0);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const t = g.generateTraceId();
      const s = g.generateSpanId();
      expect(t).toMatch(/^[0-9a-f]{32}$/);
      expect(s).toMatch(/^[0-9a-f]{16}$/);
      expect(t).not.toMatch(/^0+$/);
      seen.add(s);
    }
    expect(seen.size).toBe(200);
  });
  it('the PRNG yields 32-bit unsigned integers', () => {
    const next = createSeededRandom(42);
    for (let i = 0; i < 100; i++) {
      const x = next();
      expect(Number.isInteger(x) && x >= 0 && x <= 0xffffffff).toBe(true);
    }
  });
});
