/**
 * normalizeSpanFields — ids, times and problem text, made uniform across trace formats.
 *
 * OTLP/JSON writes ids as hex (either case), Jaeger v1 as unpadded hex, some protobuf-JSON emitters as base64
 * (the generic protobuf mapping of `bytes`), protobuf as raw bytes. The rule: a string of hex digits no longer
 * than the id is hex, padded on the left; otherwise a string that decodes as base64 to exactly the id's byte
 * length is base64; anything else is not an id. Padded base64 can never pass as hex (it ends in `=`); only
 * unpadded base64 made of hex digits alone could be misread, which we accept. Times arrive as nanosecond
 * strings or numbers (or Jaeger microseconds) and leave as fractional milliseconds.
 * Pure.
 */

const HEX_ONLY = /^[0-9a-fA-F]+$/;
const BASE64_ONLY = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The id as lower-case hex of `bytes` bytes (16 trace, 8 span), or undefined when it is not a usable id. */
export function normalizeId(raw: unknown, bytes: number): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0) return undefined;
  const hexLength = bytes * 2;
  if (raw.length <= hexLength && HEX_ONLY.test(raw)) return raw.toLowerCase().padStart(hexLength, '0');
  if (raw.length <= Math.ceil(bytes / 3) * 4 && BASE64_ONLY.test(raw)) {
    const decoded = Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64');
    if (decoded.length === bytes) return decoded.toString('hex');
  }
  return undefined;
}

/** Nanoseconds since the epoch (decimal string or number) → fractional milliseconds; undefined if not a time. */
export function unixNanosToMs(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw / 1e6 : undefined;
  if (typeof raw !== 'string' || !/^\d{1,20}$/.test(raw)) return undefined;
  // Split so the whole milliseconds keep full precision (the nanosecond count exceeds 2^53).
  if (raw.length <= 6) return Number(raw) / 1e6;
  return Number(raw.slice(0, -6)) + Number(raw.slice(-6)) / 1e6;
}

/**
 * Microseconds since the epoch (Jaeger v1) → fractional milliseconds. A string must hold a number, not only
 * space: `Number('   ')` is 0, which would read a blank time as the epoch.
 */
export function unixMicrosToMs(raw: unknown): number | undefined {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(n) ? n / 1000 : undefined;
}

const MAX_QUOTED = 80;

/** A value from the input, quoted for a problem message: control characters escaped, length capped. */
export function quoteForProblem(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) return 'nothing';
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  const cut = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
  // JSON.stringify escapes C0 controls, quotes and backslashes; C1 and bidi controls are escaped by hand.
  return JSON.stringify(cut).replace(
    /[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A message text (an exception's) made safe to print: control characters escaped, length capped. */
export function sanitizeMessage(message: string, max = 200): string {
  const cut = message.length > max ? `${message.slice(0, max)}…` : message;
  return cut.replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
