/**
 * narrowJson — the three narrowing steps every JSON reader takes on `unknown` from JSON.parse.
 *
 * Fields are read as own properties only, so a key such as `__proto__` or `constructor` in the input is data
 * and never reaches a prototype. Pure.
 */

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** The value as an object (not an array, not null), or undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/** The value as an array, or an empty one. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The object's own field `key`, or undefined. */
export function ownField(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}
