/**
 * readEventFields — the fields of a `turn_routed` event of unknown shape, narrowed one by one.
 *
 * Each reader takes `unknown` and gives the field or `undefined`, pushing a plain problem line for a field of
 * the wrong type instead of throwing: a bad field is left out, never the whole event. The turn route, the
 * witness, the decider, a dropped resume and the meta are read here; the scores and the decision in
 * turnRoutedEvent.ts. Pure.
 */
import type { TurnRoutedMeta, TurnRoutedReading } from './turnRoutedEvent.js';
import type { RouteWitness, TurnRoute, TurnRouteBy } from './types.js';

/** A readonly shape, writable while it is built. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

// The callers load each field by its name (`payload.from`), not by a key held in a variable: a load by a
// fixed name is cached per call site, one by a variable key is a lookup on every routed turn.
export function optionalString(v: unknown, what: string, problems: string[]): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  problems.push(`${what} is ${describe(v)}, not a string: left out`);
  return undefined;
}

export function optionalNumber(v: unknown, what: string, problems: string[]): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number') return v;
  problems.push(`${what} is ${describe(v)}, not a number: left out`);
  return undefined;
}

/** A number the framework wrote: `null` is what JSON made of NaN or ±Infinity, so it reads as NaN. */
export function numberOrNull(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  return v === null ? NaN : undefined;
}

export function readStrings(v: unknown, what: string, problems: string[]): string[] | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.slice() as string[];
  problems.push(`${what} is ${describe(v)}, not a list of skill ids: left out`);
  return undefined;
}

export function readTurn(payload: Json, by: TurnRouteBy, problems: string[]): TurnRoute {
  const from = optionalString(payload.from, 'payload.from', problems);
  const to = optionalString(payload.to, 'payload.to', problems);
  const offered = readStrings(payload.offered, 'payload.offered', problems);
  let stayOffered: boolean | undefined;
  if (typeof payload.stayOffered === 'boolean') stayOffered = payload.stayOffered;
  else if (payload.stayOffered !== undefined)
    problems.push(`payload.stayOffered is ${describe(payload.stayOffered)}: left out`);
  const witness = readWitness(payload.witness, problems);
  const turn: Mutable<TurnRoute> = { by };
  if (from !== undefined) turn.from = from;
  if (to !== undefined) turn.to = to;
  if (offered !== undefined) turn.offered = offered;
  if (stayOffered !== undefined) turn.stayOffered = stayOffered;
  if (witness !== undefined) turn.witness = witness;
  return turn;
}

export function readWitness(v: unknown, problems: string[]): RouteWitness | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || typeof v.text !== 'string') {
    problems.push(`payload.witness is ${describe(v)}, not {text, keyword?}: left out`);
    return undefined;
  }
  const keyword = optionalString(v.keyword, 'payload.witness.keyword', problems);
  return keyword === undefined ? { text: v.text } : { text: v.text, keyword };
}

export function readDecider(v: unknown, problems: string[]): TurnRoutedReading['decider'] {
  if (v === undefined) return undefined;
  if (!isObject(v) || typeof v.provider !== 'string') {
    problems.push(`payload.decider is ${describe(v)}, not {provider, model?, picked?}: left out`);
    return undefined;
  }
  const model = optionalString(v.model, 'payload.decider.model', problems);
  const picked = optionalString(v.picked, 'payload.decider.picked', problems);
  const decider: { provider: string; model?: string; picked?: string } = { provider: v.provider };
  if (model !== undefined) decider.model = model;
  if (picked !== undefined) decider.picked = picked;
  return decider;
}

export function readDroppedResume(v: unknown, problems: string[]): TurnRoutedReading['droppedResume'] {
  if (v === undefined) return undefined;
  if (!isObject(v)) {
    problems.push(`payload.droppedResume is ${describe(v)}, not {id, reason}: left out`);
    return undefined;
  }
  const id = optionalString(v.id, 'payload.droppedResume.id', problems);
  const reason = optionalString(v.reason, 'payload.droppedResume.reason', problems);
  const dropped: { id?: string; reason?: string } = {};
  if (id !== undefined) dropped.id = id;
  if (reason !== undefined) dropped.reason = reason;
  return dropped;
}

export function readMeta(v: unknown, problems: string[]): TurnRoutedMeta {
  if (v === undefined) return {};
  if (!isObject(v)) {
    problems.push(`meta is ${describe(v)}, not an object: left out`);
    return {};
  }
  const runId = optionalString(v.runId, 'meta.runId', problems);
  const sessionId = optionalString(v.sessionId, 'meta.sessionId', problems);
  const traceId = optionalString(v.traceId, 'meta.traceId', problems);
  let wallClockMs = optionalNumber(v.wallClockMs, 'meta.wallClockMs', problems);
  if (wallClockMs !== undefined && !Number.isFinite(wallClockMs)) {
    problems.push(`meta.wallClockMs is ${wallClockMs}: left out`);
    wallClockMs = undefined;
  }
  const meta: Mutable<TurnRoutedMeta> = {};
  if (runId !== undefined) meta.runId = runId;
  if (sessionId !== undefined) meta.sessionId = sessionId;
  if (wallClockMs !== undefined) meta.wallClockMs = wallClockMs;
  if (traceId !== undefined) meta.traceId = traceId;
  return meta;
}
