/**
 * exampleTraceIds — the few trace ids an analysis keeps as examples, and which of them routescope made up.
 *
 * An event-log record has no real trace id (the event carried none), so the reader synthesizes one from the
 * run: useful to `explain` it, useless in a trace store. Analyses that keep example ids keep, beside them, the
 * ones that are synthetic, so every report can mark them and never send anyone searching for one. Pure.
 */
import type { SpanContextFields } from '../record/types.js';

/** Up to `max` distinct example trace ids, first seen first, and the synthetic ones among them. */
export class ExampleTraceIds {
  private readonly ids: string[] = [];
  private readonly synthetic: string[] = [];

  constructor(private readonly max: number) {}

  /** Keep `record`'s trace id while fewer than `max` are kept and it is not among them. */
  add(record: Pick<SpanContextFields, 'traceId' | 'syntheticTraceId'>): void {
    if (this.ids.length >= this.max || this.ids.includes(record.traceId)) return;
    this.ids.push(record.traceId);
    if (record.syntheticTraceId === true) this.synthetic.push(record.traceId);
  }

  /** Keep `other`'s ids after these, as if its records had been added here after this one's. */
  merge(other: ExampleTraceIds): void {
    const synthetic = new Set(other.synthetic);
    for (const traceId of other.ids)
      this.add({ traceId, ...(synthetic.has(traceId) ? { syntheticTraceId: true } : {}) });
  }

  /** The kept ids, first seen first. */
  traceIds(): string[] {
    return this.ids.slice();
  }

  /** Of `traceIds()`, those routescope synthesized (an event-log record's): no trace store holds them. */
  syntheticTraceIds(): string[] {
    return this.synthetic.slice();
  }
}
