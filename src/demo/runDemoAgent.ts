/**
 * runDemoAgent — run the demo's support-desk agent over its conversations and leave the trace file a user's
 * Collector would have written.
 *
 * Everything on the way is the real thing except the models: the real OpenTelemetry SDK (a tracer provider
 * with a BatchSpanProcessor), the project's own `instrumentDecideTier2` around the project's `decideTier2`,
 * `recordTurnRoute` for the turn, `markMisrouted` for the turns a reviewer's labels disagree with, and the
 * Collector's `format: json` file layout. One trace per conversation: an `invoke_agent` root span, and per
 * turn the routing span (carrying a misroute event when the review label disagrees), the turn span, an LLM
 * `chat` span and, for skills that act, an `execute_tool` span.
 * The incumbent of a turn is the skill the previous turn ended on; a menu (or an `unmatched` full menu) is
 * resolved by a simulated picker that takes the reviewer's skill when it is offered (a good model would),
 * else the first entry. No user text is recorded anywhere. Ids come from a seeded generator and batches are
 * cut by size only, so two runs write the same file apart from timestamps.
 * I/O: writes the trace file.
 */
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { instrumentDecideTier2 } from '../instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../instrument/markMisrouted.js';
import { recordTurnRoute } from '../instrument/recordTurnRoute.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_SERVICE_NAME,
} from '../instrument/semconv.js';
import { decideTier2, resolveRoutingPolicy } from '../policy/routingPolicy.js';
import type { RoutingPolicy, Tier2Verdict, TurnRoute } from '../policy/types.js';
import { OtlpJsonLinesFileExporter } from '../trace/otlpJsonLinesFileExporter.js';
import { DEMO_CONVERSATIONS } from './demoConversations.js';
import type { DemoConversation } from './demoConversations.js';
import { createDemoScorer } from './demoScorers.js';
import type { DemoScorer } from './demoScorers.js';
import { DEMO_ROUTERS, DEMO_SKILLS } from './demoSkills.js';
import type { DemoRouter } from './demoSkills.js';
import { createSeededIdGenerator } from './seededIdGenerator.js';

/** The agent's name (`gen_ai.agent.name`) and its service (`service.name`). */
export const DEMO_AGENT_NAME = 'support-desk-agent';
export const DEMO_SERVICE_NAME = 'acme-support';
/** The seed of the demo's ids. @default */
export const DEMO_SEED = 20261202;

const MODEL = 'demo-chat-small';
const PICKER = { provider: 'demo', model: 'menu-picker' } as const;
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

/** Options of `runDemoAgent`. */
export interface DemoAgentConfig {
  /** The trace file to write (truncated first). */
  readonly path: string;
  /** Seed of the trace and span ids. @default DEMO_SEED */
  readonly seed?: number;
  /** The conversations to handle. @default DEMO_CONVERSATIONS */
  readonly conversations?: readonly DemoConversation[];
}

/** What one run did, for the demo's printout and its tests. */
export interface DemoRunSummary {
  readonly file: string;
  readonly conversations: number;
  /** User turns routed, one tier-2 decision each. */
  readonly decisions: number;
  /** Turns whose final skill differs from the reviewer's label (each marked misrouted in the trace). */
  readonly misroutes: number;
  /** Lines (export requests) written. */
  readonly lines: number;
  /**
   * The conversation to suggest to `routescope explain`: the first whose misrouted turn was a near-tie with
   * the right skill among the tied pair (the case explain is for), else the first with any misroute.
   */
  readonly explainConversationId?: string;
}

/** Run every conversation through the instrumented router and write the trace file. */
export async function runDemoAgent(config: DemoAgentConfig): Promise<DemoRunSummary> {
  ensureContextManager();
  const exporter = new OtlpJsonLinesFileExporter({ path: config.path, append: false });
  const provider = new BasicTracerProvider({
    idGenerator: createSeededIdGenerator(config.seed ?? DEMO_SEED),
    resource: defaultResource().merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: DEMO_SERVICE_NAME,
        'service.version': '1.4.2',
        'deployment.environment.name': 'demo',
      }),
    ),
    spanProcessors: [
      // Batches are cut by size only (the timer never fires during a run), so every run cuts them alike.
      new BatchSpanProcessor(exporter, {
        maxExportBatchSize: 256,
        maxQueueSize: 8192,
        scheduledDelayMillis: 60_000,
      }),
    ],
  });
  const tracer = provider.getTracer('routescope-demo');
  const routers = new Map(DEMO_ROUTERS.map((r) => [r.name, prepareRouter(r, provider)]));

  let decisions = 0;
  let misroutes = 0;
  let firstMisrouted: string | undefined;
  let firstTieMisrouted: string | undefined;
  const conversations = config.conversations ?? DEMO_CONVERSATIONS;
  try {
    for (const conv of conversations) {
      const router = routers.get(conv.router);
      if (router === undefined) throw new Error(`conversation ${conv.id}: unknown router "${conv.router}"`);
      const result = await handleConversation(conv, router, tracer, provider);
      decisions += result.decisions;
      misroutes += result.misroutes;
      if (result.misroutes > 0) firstMisrouted ??= conv.id;
      if (result.tieMisroutes > 0) firstTieMisrouted ??= conv.id;
    }
  } finally {
    await provider.shutdown();
  }
  const summary = {
    file: config.path,
    conversations: conversations.length,
    decisions,
    misroutes,
    lines: exporter.linesWritten,
  };
  const explainConversationId = firstTieMisrouted ?? firstMisrouted;
  return explainConversationId === undefined ? summary : { ...summary, explainConversationId };
}

interface PreparedRouter {
  readonly router: DemoRouter;
  readonly scorer: DemoScorer;
  readonly policy: RoutingPolicy;
  /** The instrumented `decideTier2`; reads the conversation and the turn under review through `current`. */
  readonly decide: typeof decideTier2;
  readonly current: { conversationId?: string; turn?: { incumbent?: string; expected: string } };
}

function prepareRouter(router: DemoRouter, provider: BasicTracerProvider): PreparedRouter {
  const scorer = createDemoScorer(router.scorer, DEMO_SKILLS);
  const current: PreparedRouter['current'] = {};
  const decide = instrumentDecideTier2(decideTier2, {
    tracerProvider: provider,
    routerName: router.name,
    scorerName: scorer.name,
    context: () => ({ conversationId: current.conversationId, agentName: DEMO_AGENT_NAME }),
    // The reviewer's label is known before the turn runs, so the mark rides the routing span itself as an
    // event (the same mark a later review would add as a feedback span, without a second clock in the trace).
    attributesHook: (span, _call, verdict) => {
      const turn = current.turn;
      if (turn === undefined) return;
      const { skill } = resolveTurn(verdict, turn.incumbent, turn.expected, router.skills);
      if (skill !== turn.expected) {
        markMisrouted(span, {
          expected: turn.expected,
          reason: `answered by ${skill}`,
          source: 'human-review',
        });
      }
    },
  });
  return { router, scorer, policy: resolveRoutingPolicy(router.policy), decide, current };
}

async function handleConversation(
  conv: DemoConversation,
  prepared: PreparedRouter,
  tracer: Tracer,
  provider: BasicTracerProvider,
): Promise<{ decisions: number; misroutes: number; tieMisroutes: number }> {
  const { router, scorer, policy, decide, current } = prepared;
  const ids = { conversationId: conv.id, agentName: DEMO_AGENT_NAME };
  const root = tracer.startSpan(`invoke_agent ${DEMO_AGENT_NAME}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      [ATTR_GEN_AI_AGENT_NAME]: DEMO_AGENT_NAME,
      [ATTR_GEN_AI_CONVERSATION_ID]: conv.id,
    },
  });
  let misroutes = 0;
  let tieMisroutes = 0;
  await context.with(trace.setSpan(context.active(), root), async () => {
    let incumbent: string | undefined;
    for (const [index, turn] of conv.turns.entries()) {
      current.conversationId = conv.id;
      current.turn =
        incumbent === undefined ? { expected: turn.expected } : { incumbent, expected: turn.expected };
      const verdict = decide(scorer.score(turn.text, router.skills), incumbent, policy, scorer.traits);
      const { route, skill, picked } = resolveTurn(verdict, incumbent, turn.expected, router.skills);
      recordTurnRoute(route, {
        tracerProvider: provider,
        routerName: router.name,
        context: ids,
        ...(picked === undefined ? {} : { decider: { ...PICKER, picked } }),
      });
      await answerTurn(tracer, skill, turn.text, index);
      if (skill !== turn.expected) {
        misroutes++;
        const tied = [verdict.ranked[0]?.id, verdict.runnerUp?.id];
        if (!verdict.decisive && verdict.runnerUp !== undefined && tied.includes(turn.expected))
          tieMisroutes++;
      }
      incumbent = skill;
    }
  });
  root.end();
  return { decisions: conv.turns.length, misroutes, tieMisroutes };
}

/**
 * What the loop does with a verdict: move and stay are taken as they are; a menu (or the full menu of an
 * `unmatched`) goes to the simulated picker, which picks the reviewer's skill when it is offered (STAY
 * included, mid-conversation), else the first entry.
 */
export function resolveTurn(
  verdict: Tier2Verdict,
  incumbent: string | undefined,
  expected: string,
  visible: readonly string[],
): { route: TurnRoute; skill: string; picked?: string } {
  const from = incumbent === undefined ? {} : { from: incumbent };
  if (verdict.kind === 'move') return { route: { by: 'intent', ...from, to: verdict.to }, skill: verdict.to };
  if (verdict.kind === 'stay' && incumbent !== undefined) {
    return { route: { by: 'continuity', ...from, to: incumbent }, skill: incumbent };
  }
  const offered = verdict.kind === 'menu' ? verdict.offered : visible;
  const options = incumbent === undefined ? offered : [...offered, incumbent];
  const pick = options.includes(expected) ? expected : (offered[0] ?? visible[0] ?? expected);
  return { route: { by: 'decider', ...from, to: pick }, skill: pick, picked: pick };
}

/** The skill answers: one LLM call, and for skills that act a tool call and a second LLM call. */
async function answerTurn(tracer: Tracer, skill: string, text: string, index: number): Promise<void> {
  const inputTokens = 180 + 40 * index + Math.ceil(text.length / 4);
  chatSpan(tracer, inputTokens, 24 + (text.length % 37));
  // A model call is asynchronous in a real agent; yielding here also lets the batch processor settle.
  await Promise.resolve();
  const tool = SKILL_TOOLS[skill];
  if (tool === undefined) return;
  const span = tracer.startSpan(`execute_tool ${tool}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.tool.type': 'function',
    },
  });
  span.end();
  chatSpan(tracer, inputTokens + 120, 60 + (text.length % 53));
  await Promise.resolve();
}

function chatSpan(tracer: Tracer, inputTokens: number, outputTokens: number): void {
  const span: Span = tracer.startSpan(`chat ${MODEL}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'demo',
      'gen_ai.request.model': MODEL,
      'gen_ai.usage.input_tokens': inputTokens,
      'gen_ai.usage.output_tokens': outputTokens,
    },
  });
  span.end();
}

/** Spans nest only under a context manager; register the Node one unless the process already has one. */
function ensureContextManager(): void {
  const manager = new AsyncLocalStorageContextManager();
  manager.enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
}
