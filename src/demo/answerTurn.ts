/**
 * answerTurn — what the demo's skill does once a turn is routed to it: the spans of its model and tool calls.
 *
 * One LLM `chat` span, and for a skill that acts an `execute_tool` span and a second `chat`, with the GenAI
 * attributes a real agent's instrumentation sets (token counts, no text), timed on the demo's clock.
 */
import { SpanKind } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { DemoClock } from './demoClock.js';

const MODEL = 'demo-chat-small';
/** The tool a skill calls when it acts (skills absent here only talk). */
const SKILL_TOOLS: Readonly<Record<string, string>> = {
  billing: 'get_invoice',
  refunds: 'refund_status',
  returns: 'create_return_label',
  cancellations: 'cancel_order',
  shipping: 'delivery_quote',
  'order-status': 'track_order',
  'account-access': 'unlock_account',
  'password-reset': 'send_reset_link',
  complaints: 'open_escalation',
};

/** The skill answers: one LLM call, and for skills that act a tool call and a second LLM call. */
export async function answerTurn(
  tracer: Tracer,
  clock: DemoClock,
  skill: string,
  text: string,
  index: number,
): Promise<void> {
  const inputTokens = 180 + 40 * index + Math.ceil(text.length / 4);
  chatSpan(tracer, clock, inputTokens, 24 + (text.length % 37));
  // A model call is asynchronous in a real agent; yielding here also lets the batch processor settle.
  await Promise.resolve();
  const tool = SKILL_TOOLS[skill];
  if (tool === undefined) return;
  const span = tracer.startSpan(`execute_tool ${tool}`, {
    kind: SpanKind.INTERNAL,
    startTime: clock.advance(2),
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.tool.type': 'function',
    },
  });
  span.end(clock.advance(40 + (text.length % 90)));
  chatSpan(tracer, clock, inputTokens + 120, 60 + (text.length % 53));
  await Promise.resolve();
}

function chatSpan(tracer: Tracer, clock: DemoClock, inputTokens: number, outputTokens: number): void {
  const span: Span = tracer.startSpan(`chat ${MODEL}`, {
    kind: SpanKind.CLIENT,
    startTime: clock.advance(2),
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'demo',
      'gen_ai.request.model': MODEL,
      'gen_ai.usage.input_tokens': inputTokens,
      'gen_ai.usage.output_tokens': outputTokens,
    },
  });
  // A small model answers in about half a second, longer for longer answers.
  span.end(clock.advance(300 + outputTokens * 8));
}
