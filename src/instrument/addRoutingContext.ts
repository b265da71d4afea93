/**
 * addRoutingContext — the correlation keys every routing span may carry, written the same way everywhere.
 *
 * Values come from user code (config, callbacks), so only strings are written: a wrong type is left out
 * rather than coerced into a key a dashboard groups by. Pure.
 */
import type { Attributes, AttributeValue, Span } from '@opentelemetry/api';
import { ATTR_GEN_AI_AGENT_NAME, ATTR_GEN_AI_CONVERSATION_ID } from '../semconv/semconv.js';
import type { RoutingContext } from './types.js';

/** Where an encoder hands its attributes, one key at a time: a span's setAttribute, or an object being filled. */
export type PutAttribute = (key: string, value: AttributeValue) => void;

/** A put that fills `attrs`. */
export function putInto(attrs: Attributes): PutAttribute {
  return (key, value) => {
    attrs[key] = value;
  };
}

/** A put straight onto `span`: no attributes object for the SDK to walk again. */
export function putOnSpan(span: Span): PutAttribute {
  return (key, value) => span.setAttribute(key, value);
}

/** Put `gen_ai.conversation.id` / `gen_ai.agent.name` into `attrs` when they are strings. */
export function addRoutingContext(attrs: Attributes, ids: RoutingContext): void {
  writeRoutingContext(putInto(attrs), ids);
}

/** Hand `gen_ai.conversation.id` / `gen_ai.agent.name` to `put` when they are strings. */
export function writeRoutingContext(put: PutAttribute, ids: RoutingContext): void {
  putStringWith(put, ATTR_GEN_AI_CONVERSATION_ID, ids.conversationId);
  putStringWith(put, ATTR_GEN_AI_AGENT_NAME, ids.agentName);
}

/** Only strings reach a string-typed key: a wrong type from user code is left out, not coerced. */
export function putStringWith(put: PutAttribute, key: string, value: unknown): void {
  if (typeof value === 'string') put(key, value);
}

/** `putStringWith` into an attributes object. */
export function putString(attrs: Attributes, key: string, value: unknown): void {
  if (typeof value === 'string') attrs[key] = value;
}
