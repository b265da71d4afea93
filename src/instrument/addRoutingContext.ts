/**
 * addRoutingContext — the correlation keys every routing span may carry, written the same way everywhere.
 *
 * Values come from user code (config, callbacks), so only strings are written: a wrong type is left out
 * rather than coerced into a key a dashboard groups by. Pure.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { ATTR_GEN_AI_AGENT_NAME, ATTR_GEN_AI_CONVERSATION_ID } from '../semconv/semconv.js';
import type { RoutingContext } from './types.js';

/**
 * Where an encoder hands its attributes, one key at a time: a span itself (its own `setAttribute`, called
 * directly: no closure between the encoder and the SDK on every key), or an attributes object being filled.
 */
export interface AttributeSink {
  setAttribute(key: string, value: AttributeValue): unknown;
}

/** A sink that fills `attrs`. */
export function sinkInto(attrs: Attributes): AttributeSink {
  return {
    setAttribute(key, value) {
      attrs[key] = value;
    },
  };
}

/** Put `gen_ai.conversation.id` / `gen_ai.agent.name` into `attrs` when they are strings. */
export function addRoutingContext(attrs: Attributes, ids: RoutingContext): void {
  writeRoutingContext(sinkInto(attrs), ids);
}

/** Hand `gen_ai.conversation.id` / `gen_ai.agent.name` to `sink` when they are strings. */
export function writeRoutingContext(sink: AttributeSink, ids: RoutingContext): void {
  putStringWith(sink, ATTR_GEN_AI_CONVERSATION_ID, ids.conversationId);
  putStringWith(sink, ATTR_GEN_AI_AGENT_NAME, ids.agentName);
}

/** Only strings reach a string-typed key: a wrong type from user code is left out, not coerced. */
export function putStringWith(sink: AttributeSink, key: string, value: unknown): void {
  if (typeof value === 'string') sink.setAttribute(key, value);
}

/** `putStringWith` into an attributes object. */
export function putString(attrs: Attributes, key: string, value: unknown): void {
  if (typeof value === 'string') attrs[key] = value;
}
