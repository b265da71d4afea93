// plugIntoYourAgent — the README's "plug into your agent", runnable as written with plain Node 20:
//
//   npm run build && node examples/plugIntoYourAgent.mjs
//
// The agent itself is not here (agentfootprint is not a dependency): the example hands the strategy the
// framework's own `turn_routed` event, exactly as `agent.enable.observability({ strategy })` would, and an
// unrelated event the framework also sends, then prints the spans it left. test/examples/examples.test.ts runs
// it and checks what it prints.
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createRunSpanIndex, routescopeObservability } from 'routescope';

/** One routed turn, as agentfootprint 9.62 reports it (a near-tie at cold start: a menu was offered). */
const TURN_ROUTED_EVENT = {
  type: 'agentfootprint.skill.turn_routed',
  payload: {
    by: 'menu',
    scorer: 'keyword',
    scores: [
      { id: 'shipping', score: 0.25, relevance: 0.2314 },
      { id: 'billing', score: 0.2357, relevance: 0.2281 },
      { id: 'account', score: 0, relevance: 0.1802 },
    ],
    runnerUp: { id: 'billing', gap: 0.00715 },
    decisive: false,
    offered: ['shipping', 'billing'],
    policy: { nearTieMargin: 0.15, menuSize: 3, floor: 0 },
  },
  meta: { runId: 'run-1', sessionId: 'sess-42', wallClockMs: Date.UTC(2026, 11, 3, 12) },
};

const exporter = new InMemorySpanExporter();
// The run-span index joins routing spans to the framework's own turn spans (when otelObservability runs too).
const runSpans = createRunSpanIndex();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [runSpans, new SimpleSpanProcessor(exporter)],
});
const strategy = routescopeObservability({
  tracerProvider,
  runSpanIndex: runSpans,
  routerName: 'support-desk',
});

// In an app: agent.enable.observability({ strategy }) — the agent then calls these itself.
strategy.exportEvent({ type: 'agentfootprint.agent.turn_start', payload: {}, meta: { runId: 'run-1' } });
strategy.exportEvent(TURN_ROUTED_EVENT);
await strategy.flush(); // what `await agent.shutdown()` calls

for (const span of exporter.getFinishedSpans()) {
  console.log(`span ${span.name}`);
  for (const [key, value] of Object.entries(span.attributes))
    console.log(`  ${key} = ${JSON.stringify(value)}`);
}

// What the strategy saw and recorded; `reason` says why while it has recorded nothing (README, "Nothing shows up?").
const { eventsReceived, turnsReceived, spansRecorded, reason } = strategy.status();
console.log(
  `status: ${eventsReceived} events, ${turnsReceived} routed, ${spansRecorded} spans, reason ${reason?.code ?? 'none'}`,
);
