/**
 * wrapYourRouter — the README's example, runnable: wrap decideTier2, route one turn, see the span.
 *
 * It is typechecked with the project and run by test/examples/wrapYourRouter.test.ts
 * (`npx vitest run test/examples`), so it cannot drift from the API.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { decideTier2, instrumentDecideTier2, resolveRoutingPolicy } from '../src/index.js';
import type { IntentScore } from '../src/index.js';

/** Route one turn through the wrapped policy and return the verdict and the span it left. */
export function runExample() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  // Same signature, same verdict object; one span per call when an SDK is recording.
  const decide = instrumentDecideTier2(decideTier2, {
    tracerProvider, // omit to use the globally registered provider
    routerName: 'support-desk',
    scorerName: 'embedding',
    context: () => ({ conversationId: 'conv-42', agentName: 'support' }),
  });

  const scores: IntentScore[] = [
    { id: 'refunds', score: 0.61 },
    { id: 'returns', score: 0.6 },
    { id: 'shipping', score: 0.2 },
  ];
  const verdict = decide(scores, undefined, resolveRoutingPolicy(), {}); // an embedding scorer: no floor

  const span = exporter.getFinishedSpans()[0];
  return { verdict, span };
}
