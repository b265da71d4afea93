/**
 * trace/internal-types — the span shape every format reader hands to the record builder.
 *
 * Each format (OTLP/JSON, OTLP protobuf, Jaeger v1 JSON) narrows its own input and fills a `SpanView`, so the
 * routing decode, de-duplication and problem reporting live in one place (buildTraceRecords). Readers build a
 * view only for spans that can hold a routing record; the rest are just counted.
 * Types only.
 */

/** A flattened attribute value as readers deliver it. */
export type AttributeValue = string | number | boolean | null | readonly AttributeValue[];

/** Attributes by key; readers build it with a null prototype so `__proto__` keys are plain data. */
export type AttributeMap = ReadonlyMap<string, AttributeValue>;

/** Attributes by key (a Map, so `__proto__` is only a key). */
export type MutableAttributeMap = Map<string, AttributeValue>;

/** One span event (Jaeger: one log). */
export interface EventView {
  readonly name: string;
  /** Milliseconds since the epoch; undefined when the format gave none. */
  readonly timeUnixMs: number | undefined;
  readonly attributes: ReadonlyMap<string, AttributeValue>;
}

/** The resource (Jaeger: the process) a span was reported under. */
export interface ResourceView {
  readonly service: string | undefined;
  readonly attributes: ReadonlyMap<string, AttributeValue>;
}

/** One span as read, ids still as the format spelled them (normalized by the builder). */
export interface SpanView {
  readonly traceId: unknown;
  readonly spanId: unknown;
  readonly parentSpanId: unknown;
  readonly name: string;
  readonly timeUnixMs: number;
  readonly error: boolean;
  readonly attributes: ReadonlyMap<string, AttributeValue>;
  readonly events: readonly EventView[];
}
