/**
 * addRoutingContext — only strings reach the string-typed keys, through every put (an attributes object, a
 * span), and a put writes exactly what it is handed.
 */
import type { Attributes, AttributeValue, Span } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import {
  addRoutingContext,
  putInto,
  putOnSpan,
  putString,
  putStringWith,
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
    const put = putOnSpan(span);
    for (const wrong of [42, false, null, undefined, ['a']]) putStringWith(put, 'k', wrong);
    expect(calls).toEqual([]);
    putStringWith(put, 'k', 'v');
    expect(calls).toEqual([['k', 'v']]);
  });

  it('putInto fills the object it was given; putOnSpan sets each attribute on the span', () => {
    const attrs: Attributes = { before: 1 };
    putInto(attrs)('a', [1, 2]);
    expect(attrs).toEqual({ before: 1, a: [1, 2] });
    const { span, calls } = recordingSpan();
    putOnSpan(span)('b', 0.5);
    expect(calls).toEqual([['b', 0.5]]);
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
