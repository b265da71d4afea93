// wrapYourRouter — the README's "wrap a hand-written router", runnable as written with plain Node 20:
//
//   npm run build && node examples/wrapYourRouter.mjs
//
// It imports the package by name, as your code would: wrap decideTier2, route one turn, print the verdict
// and the routing span it left. test/examples/examples.test.ts runs it and checks what it prints.
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { decideTier2, instrumentDecideTier2, resolveRoutingPolicy } from 'routescope';

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

// Same signature, same verdict object; one span per call when an SDK is recording.
const decide = instrumentDecideTier2(decideTier2, {
  tracerProvider, // omit to use the globally registered provider
  routerName: 'support-desk',
  scorerName: 'embedding',
  context: () => ({ conversationId: 'conv-42', agentName: 'support' }),
});

const scores = [
  { id: 'refunds', score: 0.61 },
  { id: 'returns', score: 0.6 },
  { id: 'shipping', score: 0.2 },
];
const verdict = decide(scores, undefined, resolveRoutingPolicy(), {}); // an embedding scorer: no floor

console.log(`verdict: ${verdict.kind}${verdict.kind === 'menu' ? ` [${verdict.offered.join(', ')}]` : ''}`);
for (const span of exporter.getFinishedSpans()) {
  console.log(`span ${span.name}`);
  for (const [key, value] of Object.entries(span.attributes))
    console.log(`  ${key} = ${JSON.stringify(value)}`);
}
