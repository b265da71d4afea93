/**
 * hostileTrace — a real trace file whose every free-text field was chosen by an attacker.
 *
 * Skill ids, router, scorer and agent names, conversation ids and misroute reasons carry terminal escapes (CSI
 * colour and screen clearing, OSC 8 hyperlinks and OSC 52 clipboard writes, C1 CSI), forged lines (`\n`,
 * `\r`, U+2028, NEL), bidi overrides and isolates, Markdown structure, and HTML that would break out of a
 * text node, an attribute or a `<style>` element. The spans come from the real SDK through the real
 * instrumentation (near-ties, a floorless scorer, misroute marks), serialized by the OTLP JSON serializer.
 */
import { writeFileSync } from 'node:fs';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { recordTurnRoute } from '../../src/instrument/recordTurnRoute.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';

/** Text every hostile string carries, so a test can tell it is shown (escaped) rather than dropped. */
export const MARK = 'PWNED';

/** Each hostile string; the names say what each one tries. */
export const HOSTILE = {
  csi: `\u001b[2J\u001b[31m${MARK}-csi\u001b[0m`,
  osc8: `\u001b]8;;https://evil.example/\u0007${MARK}-link\u001b]8;;\u0007`,
  osc52: `\u001b]52;c;ZXZpbA==\u0007${MARK}-clip`,
  c1: `\u009b31m${MARK}-c1\u009d0;title\u009c`,
  newline: `${MARK}-nl\nFORGED line\r\nFORGED crlf\u2028FORGED ls\u0085FORGED nel`,
  bidi: `${MARK}-bidi\u202egnp.exe\u2066isolated\u2069\u200f`,
  markdown: `${MARK}-md | forged | cell |\n# FORGED heading [link](javascript:alert(1)) **bold** \`code\``,
  script: `${MARK}-script<script>window.__pwned=1;console.log('PWNED-ran')</script>`,
  style: `${MARK}-style</style><script>window.__pwned=2</script><style>`,
  attr: `${MARK}-attr" onmouseover="window.__pwned=3" x='<img src=x onerror="window.__pwned=4">`,
  img: `${MARK}-img<img src=x onerror="window.__pwned=5;console.log('PWNED-ran')">`,
  svg: `${MARK}-svg</text><svg onload="window.__pwned=6"></svg><text>`,
} as const;

const ids = Object.values(HOSTILE);

/** Write the hostile trace as OTLP/JSON lines to `file`; returns the conversation id explain can be asked about. */
export function writeHostileTrace(file: string): { conversationId: string } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': HOSTILE.script }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const conversationId = HOSTILE.osc8;
  let markNext = false;
  for (const [index, router] of [HOSTILE.csi, HOSTILE.style, HOSTILE.attr].entries()) {
    const decide = instrumentDecideTier2(decideTier2, {
      tracerProvider: provider,
      routerName: router,
      scorerName: index === 0 ? HOSTILE.bidi : HOSTILE.svg,
      context: () => ({ conversationId, agentName: HOSTILE.newline }),
      attributesHook: (span) => {
        if (!markNext) return;
        markMisrouted(span, { expected: HOSTILE.img, reason: HOSTILE.markdown, source: HOSTILE.osc52 });
        markNext = false;
      },
    });
    for (let i = 0; i < ids.length; i++) {
      const a = ids[i]!;
      const b = ids[(i + 1) % ids.length]!;
      const c = ids[(i + 2) % ids.length]!;
      markNext = i % 3 === 0;
      // Near-ties between hostile ids, with and without an incumbent; the embedding-like scorer is floorless.
      decide(
        [
          { id: a, score: 0.61 + i * 0.001 },
          { id: b, score: 0.6 },
          { id: c, score: 0.1 },
        ],
        i % 2 === 0 ? undefined : c,
        { nearTieMargin: 0.15, menuSize: 3 },
        index === 0 ? { floor: 0 } : undefined,
      );
      recordTurnRoute(
        { by: 'decider', from: c, to: a, offered: [a, b] },
        {
          tracerProvider: provider,
          routerName: router,
          context: { conversationId, agentName: HOSTILE.newline },
          decider: { provider: HOSTILE.c1, model: HOSTILE.script, picked: a },
        },
      );
    }
  }
  const spans = exporter.getFinishedSpans();
  const lines = [];
  for (let i = 0; i < spans.length; i += 10) {
    lines.push(Buffer.from(JsonTraceSerializer.serializeRequest(spans.slice(i, i + 10))!).toString('utf8'));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return { conversationId };
}
