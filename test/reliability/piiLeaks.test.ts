/**
 * No user text leaves the process by default; witness text, once opted in, goes through the user's redaction.
 *
 * The demo's 64 conversations are routed the way the demo agent routes them — its scorers, `decideTier2`
 * wrapped by `instrumentDecideTier2`, `recordTurnRoute` for each turn, `markMisrouted` for the turns its
 * reviewer labels disagree with — plus a tier-1 entry rule whose witness is the whole message (the worst case:
 * a rule that matched on the user's words). Everything the SDK would export (span names, attributes, event
 * names and attributes, status messages, resource and scope; attribute keys are not user-controlled, they come
 * from semconv.ts and the SDK) is cut into words (runs of letters) and checked for every word of the messages
 * longer than 4 letters, case-insensitively.
 *
 * Excluded from the scan: the user words that are also vocabulary the instrumentation legitimately writes —
 * the skill ids (split at `-`), router, scorer, agent and service names, conversation ids, verdict kinds,
 * turn `by` values, the demo's misroute source, reason template and picker, and the SDK's default resource. Those are the agent's own
 * configuration, not user text; the test prints them and checks they stay a small part of the vocabulary.
 * A control run with witness recording on and no redaction must find the words, so the scan can fail.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AttributeValue, Attributes } from '@opentelemetry/api';
import { defaultResource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CONVERSATIONS } from '../../src/demo/demoConversations.js';
import { createDemoScorer } from '../../src/demo/demoScorers.js';
import { DEMO_ROUTERS, DEMO_SKILLS } from '../../src/demo/demoSkills.js';
import {
  DEMO_AGENT_NAME,
  DEMO_SERVICE_NAME,
  resolveTurn,
  runDemoAgent,
} from '../../src/demo/runDemoAgent.js';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { recordTurnRoute } from '../../src/instrument/recordTurnRoute.js';
import { ATTR_ROUTING_WITNESS_TEXT, SPAN_ROUTING_TURN } from '../../src/semconv/semconv.js';
import { decideTier2, resolveRoutingPolicy } from '../../src/policy/routingPolicy.js';
import type { TurnRouteBy } from '../../src/policy/types.js';
import { createMemorySdk } from '../helpers/otelSdk.js';

const MISROUTE_SOURCE = 'human-review';
const PICKER = { provider: 'demo', model: 'menu-picker' };
const VERDICT_KINDS = ['move', 'stay', 'menu', 'unmatched'];
const TURN_BY: readonly TurnRouteBy[] = ['entry', 'intent', 'continuity', 'menu', 'decider', 'none'];

function lettersWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => w.length > 4);
}

/** Every word longer than 4 letters in the demo's user messages. */
const USER_WORDS = new Set(DEMO_CONVERSATIONS.flatMap((c) => c.turns.flatMap((t) => lettersWords(t.text))));

/** What the instrumentation and the demo's configuration legitimately write, as words. */
const VOCABULARY = new Set(
  [
    ...DEMO_SKILLS.map((s) => s.id),
    ...DEMO_ROUTERS.flatMap((r) => [r.name, r.scorer]),
    ...DEMO_CONVERSATIONS.map((c) => c.id),
    DEMO_AGENT_NAME,
    DEMO_SERVICE_NAME,
    ...VERDICT_KINDS,
    ...TURN_BY,
    MISROUTE_SOURCE,
    'answered by',
    PICKER.provider,
    PICKER.model,
    // The SDK's own resource (service.name `unknown_service:…`, telemetry.sdk.*) on every span.
    ...Object.values(defaultResource().attributes).filter((v): v is string => typeof v === 'string'),
  ].flatMap(lettersWords),
);

const EXCLUDED = [...USER_WORDS].filter((w) => VOCABULARY.has(w)).sort();
const SCANNED = [...USER_WORDS].filter((w) => !VOCABULARY.has(w)).sort();

/** Every string a span would carry out of the process. */
function exportedStrings(span: ReadableSpan): string[] {
  const out: string[] = [span.name, span.instrumentationScope.name];
  const addAttrs = (attrs: Attributes | undefined): void => {
    for (const value of Object.values(attrs ?? {})) {
      const items: unknown[] = Array.isArray(value) ? value : [value as AttributeValue];
      for (const item of items) if (typeof item === 'string') out.push(item);
    }
  };
  addAttrs(span.attributes);
  addAttrs(span.resource.attributes);
  for (const event of span.events) {
    out.push(event.name);
    addAttrs(event.attributes);
  }
  for (const link of span.links) addAttrs(link.attributes);
  if (span.status.message !== undefined) out.push(span.status.message);
  return out;
}

/** The user words found in `strings` (as whole words: runs of letters, case-insensitive). */
function leakedWords(strings: readonly string[]): string[] {
  const found = new Set(strings.flatMap(lettersWords));
  return SCANNED.filter((w) => found.has(w));
}

interface WitnessOptions {
  readonly recordWitness?: boolean;
  readonly redactWitness?: (text: string) => string;
}

/** Route every demo message through the instrumentation, as the demo agent does; returns the finished spans. */
function routeDemoMessages(witness: WitnessOptions = {}): { spans: ReadableSpan[]; entryTexts: string[] } {
  const sdk = createMemorySdk();
  const entryTexts: string[] = [];
  const prepared = new Map(
    DEMO_ROUTERS.map((router) => {
      const scorer = createDemoScorer(router.scorer, DEMO_SKILLS);
      const current: { conversationId?: string } = {};
      const decide = instrumentDecideTier2(decideTier2, {
        tracerProvider: sdk.provider,
        routerName: router.name,
        scorerName: scorer.name,
        context: () => ({ conversationId: current.conversationId, agentName: DEMO_AGENT_NAME }),
        ...witness,
      });
      return [router.name, { router, scorer, decide, current, policy: resolveRoutingPolicy(router.policy) }];
    }),
  );
  for (const conv of DEMO_CONVERSATIONS) {
    const p = prepared.get(conv.router)!;
    const ids = { conversationId: conv.id, agentName: DEMO_AGENT_NAME };
    let incumbent: string | undefined;
    for (const [index, turn] of conv.turns.entries()) {
      p.current.conversationId = conv.id;
      if (index === 0) {
        // A tier-1 entry rule that fired on the user's words: the witness is the whole message.
        recordTurnRoute(
          { by: 'entry', to: turn.expected, witness: { text: turn.text, keyword: 'rule-1' } },
          { tracerProvider: sdk.provider, routerName: p.router.name, context: ids, ...witness },
        );
        entryTexts.push(turn.text);
      }
      const verdict = p.decide(
        p.scorer.score(turn.text, p.router.skills),
        incumbent,
        p.policy,
        p.scorer.traits,
      );
      const { route, skill, picked } = resolveTurn(verdict, incumbent, turn.expected, p.router.skills);
      const turnCtx = recordTurnRoute(route, {
        tracerProvider: sdk.provider,
        routerName: p.router.name,
        context: ids,
        ...(picked === undefined ? {} : { decider: { ...PICKER, picked } }),
      });
      if (skill !== turn.expected && turnCtx !== undefined) {
        markMisrouted(
          { traceId: turnCtx.traceId, spanId: turnCtx.spanId },
          { expected: turn.expected, reason: `answered by ${skill}`, source: MISROUTE_SOURCE },
          { tracerProvider: sdk.provider },
        );
      }
      incumbent = skill;
    }
  }
  return { spans: sdk.spans().slice(), entryTexts };
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('PII: user text in exported telemetry', () => {
  it('the scan is meaningful: many user words, few excluded as legitimate vocabulary', () => {
    console.log(
      `user words scanned: ${SCANNED.length}; excluded as vocabulary the instrumentation writes: ${EXCLUDED.join(', ')}`,
    );
    expect(SCANNED.length).toBeGreaterThan(150);
    expect(EXCLUDED.length).toBeLessThan(SCANNED.length / 5);
  });

  it('default settings: no exported attribute, event or name holds any user word', () => {
    const { spans } = routeDemoMessages();
    const decisions = DEMO_CONVERSATIONS.reduce((n, c) => n + c.turns.length, 0);
    expect(spans.length).toBeGreaterThanOrEqual(2 * decisions);
    expect(leakedWords(spans.flatMap(exportedStrings))).toEqual([]);
    expect(spans.some((s) => s.attributes[ATTR_ROUTING_WITNESS_TEXT] !== undefined)).toBe(false);
  });

  it('control: witness recording on with no redaction does leak the words (the scan can fail)', () => {
    const { spans } = routeDemoMessages({ recordWitness: true });
    expect(leakedWords(spans.flatMap(exportedStrings)).length).toBeGreaterThan(20);
  });

  it("witness recording on: the user's redaction function is applied to exactly the witness text", () => {
    const seen: string[] = [];
    const redactWitness = (text: string): string => {
      seen.push(text);
      return text.replace(/[A-Za-z]{5,}/g, (w) => `<${w.length}>`);
    };
    const { spans, entryTexts } = routeDemoMessages({ recordWitness: true, redactWitness });
    expect(seen).toEqual(entryTexts);
    const witnessValues = spans
      .filter((s) => s.name === SPAN_ROUTING_TURN)
      .map((s) => s.attributes[ATTR_ROUTING_WITNESS_TEXT])
      .filter((v) => v !== undefined);
    expect(witnessValues).toEqual(entryTexts.map(redactWitness));
    expect(leakedWords(spans.flatMap(exportedStrings))).toEqual([]);
  });

  it('a redaction function that throws drops the witness text instead of leaking it', () => {
    const { spans } = routeDemoMessages({
      recordWitness: true,
      redactWitness: () => {
        throw new Error('redactor down');
      },
    });
    expect(spans.some((s) => s.attributes[ATTR_ROUTING_WITNESS_TEXT] !== undefined)).toBe(false);
    expect(leakedWords(spans.flatMap(exportedStrings))).toEqual([]);
  });

  it("the demo agent's own trace file holds no user word (its tool names excepted)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'routescope-pii-'));
    tempDirs.push(dir);
    const file = join(dir, 'demo.jsonl');
    await runDemoAgent({ path: file });
    const strings: string[] = [];
    // Every string value of the OTLP/JSON, except attribute keys (`"key": …`, fixed vocabulary) and the
    // demo's tool names (get_invoice, refund_status, …: the agent developer's words, not the user's).
    const collect = (node: unknown, key?: string): void => {
      if (typeof node === 'string') {
        if (key !== 'key' && !(key === 'name' && node.startsWith('execute_tool '))) strings.push(node);
      } else if (Array.isArray(node)) node.forEach((n) => collect(n, key));
      else if (node !== null && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        if (record.key === 'gen_ai.tool.name') return;
        for (const [k, v] of Object.entries(record)) collect(v, k);
      }
    };
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    for (const line of lines) collect(JSON.parse(line));
    expect(strings.length).toBeGreaterThan(1000);
    expect(leakedWords(strings)).toEqual([]);
  });
});
