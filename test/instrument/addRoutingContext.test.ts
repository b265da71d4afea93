/**
 * addRoutingContext — only strings reach the string-typed keys, through every sink (an attributes object, a
 * span), and a sink writes exactly what it is handed.
 */
import type { Attributes, AttributeValue, Span } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import {
  addRoutingContext,
  putString,
  putStringWith,
  sinkInto,
} from '../../src/instrument/addRoutingContext.js';

/** A span that only records setAttribute calls. */
function recordingSpan(): { span: Span; calls: Array<[string, AttributeValue]> } {
  const calls: Array<[string, AttributeValue]> = [];
  const span = { setAttribute: (key: string, value: AttributeValue) => (calls.push([key, value]), span) };
  return { span: span as unknown as Span, calls };
}

describe('addRoutingContext', () => {
  it('putString writes a string and leaves out anything else', () => {
    const attrs: Attributes = {};
    for (const wrong of [42, true, null, undefined, ['a'], { a: 1 }]) putString(attrs, 'k', wrong);
    expect(attrs).toEqual({});
    putString(attrs, 'k', '');
    putString(attrs, 'j', 'v');
    expect(attrs).toEqual({ k: '', j: 'v' });
  });

  it('putStringWith hands a string to the put and nothing else', () => {
    const { span, calls } = recordingSpan();
    for (const wrong of [42, false, null, undefined, ['a']]) putStringWith(span, 'k', wrong);
    expect(calls).toEqual([]);
    putStringWith(span, 'k', 'v');
    expect(calls).toEqual([['k', 'v']]);
  });

  it('sinkInto fills the object it was given, key by key, as a span would take them', () => {
    const attrs: Attributes = { before: 1 };
    const sink = sinkInto(attrs);
    sink.setAttribute('a', [1, 2]);
    sink.setAttribute('before', 2);
    expect(attrs).toEqual({ before: 2, a: [1, 2] });
  });

  it('writes the conversation id and agent name when they are strings', () => {
    const attrs: Attributes = {};
    addRoutingContext(attrs, { conversationId: 'conv-1', agentName: 'desk' });
    expect(attrs).toEqual({ 'gen_ai.conversation.id': 'conv-1', 'gen_ai.agent.name': 'desk' });
    const partial: Attributes = {};
    addRoutingContext(partial, { agentName: 'desk' });
    expect(partial).toEqual({ 'gen_ai.agent.name': 'desk' });
  });
});
