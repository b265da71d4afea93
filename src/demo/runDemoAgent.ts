/**
 * runDemoAgent — run the demo's support-desk agent over its conversations and leave the trace file a user's
 * Collector would have written.
 *
 * The demo routes the way a real agentfootprint agent does, and is observed the way one is: a simulated
 * RouteTurn stage calls agentfootprint 9.62's verdict function itself (`createDecideTier2('agentfootprint-9.62')`)
 * and reports each turn as an `agentfootprint.skill.turn_routed` event of the framework's shape, which the
 * project's `routescopeObservability` strategy turns into spans — the path real users take. Everything else is
 * the real thing except the models: the real OpenTelemetry SDK (a BatchSpanProcessor), the strategy's span
 * processor joining routing spans to the turn's root span by run id, `markMisrouted` (through the strategy's
 * hook) for the turns a reviewer's labels disagree with, and the Collector's `format: json` file layout.
 * One trace per conversation: the app's `conversation` span, and per turn the framework's root span (with
 * `agentfootprint.run.id`), the routing and turn spans, an LLM `chat` span and, for skills that act, an
 * `execute_tool` span. The incumbent of a turn is the skill the previous turn ended on; a menu (or an
 * `unmatched` full menu) is resolved by a simulated tier-3 decider that takes the reviewer's skill when it is
 * offered (a good model would), else the first entry. No user text is recorded anywhere. Ids come from a seeded
 * generator and batches are cut by size only, so two runs write the same file apart from timestamps. Times come
 * from a simulated clock that spreads the conversations over the simulated day before the run (turns tens of
 * seconds apart), so the report's charts over time have a day to show, not one instant.
 * I/O: writes the trace file.
 */
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { markMisrouted } from '../instrument/markMisrouted.js';
import { routescopeObservability } from '../instrument/routescopeObservability.js';
import type { RoutescopeObservability } from '../instrument/routescopeObservability.js';
import { ATTR_AGENTFOOTPRINT_RUN_ID, createRunSpanIndex } from '../instrument/runSpanIndex.js';
import type { RunSpanIndex } from '../instrument/runSpanIndex.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_SERVICE_NAME,
  SPAN_ROUTING_TIER2,
} from '../semconv/semconv.js';
import { createDecideTier2, effectiveFloor, resolveRoutingPolicy } from '../policy/routingPolicy.js';
import { TURN_ROUTED_EVENT_TYPE } from '../policy/turnRoutedEvent.js';
import type { DecideTier2, RoutingPolicy, Tier2Verdict, TurnRoute } from '../policy/types.js';
import { answerTurn } from './answerTurn.js';
import { createDemoClock, DAY_MS, type DemoClock } from './demoClock.js';
import { OtlpJsonLinesFileExporter } from './otlpJsonLinesFileExporter.js';
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

const DECIDER = { provider: 'demo', model: 'menu-picker' } as const;
/** The behaviour the simulated framework routes by: the release real agents run. */
const FRAMEWORK_DECIDE: DecideTier2 = createDecideTier2('agentfootprint-9.62');
/** Options of `runDemoAgent`. */
export interface DemoAgentConfig {
  /** The trace file to write (truncated first). */
  readonly path: string;
  /** Seed of the trace and span ids. @default DEMO_SEED */
  readonly seed?: number;
  /** The conversations to handle. @default DEMO_CONVERSATIONS */
  readonly conversations?: readonly DemoConversation[];
  /**
   * Another span processor that gets every span the file gets (a BatchSpanProcessor with an OTLP exporter to a
   * Collector, say); it is flushed and shut down with the run. Its failures are its own: the file is written
   * either way.
   */
  readonly alsoTo?: SpanProcessor;
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

/**
 * Run every conversation through the instrumented router and write the trace file. Throws TraceFileError when
 * the file cannot be opened or a batch could not be written to it (a full disk): the file is then incomplete.
 */
export async function runDemoAgent(config: DemoAgentConfig): Promise<DemoRunSummary> {
  ensureContextManager();
  const exporter = new OtlpJsonLinesFileExporter({ path: config.path, append: false });
  // One index for every router's strategy: it joins their routing spans to the framework's turn spans.
  const runSpans = createRunSpanIndex();
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
      runSpans,
      // Batches are cut by size only (the timer never fires during a run), so every run cuts them alike.
      new BatchSpanProcessor(exporter, {
        maxExportBatchSize: 256,
        maxQueueSize: 8192,
        scheduledDelayMillis: 60_000,
      }),
      ...(config.alsoTo === undefined ? [] : [config.alsoTo]),
    ],
  });
  const tracer = provider.getTracer('routescope-demo');
  const framework = provider.getTracer('agentfootprint');
  const review: ReviewState = {};
  const observers = new Map(DEMO_ROUTERS.map((r) => [r.name, observeRouter(r, provider, runSpans, review)]));
  const routers = new Map(DEMO_ROUTERS.map((r) => [r.name, prepareRouter(r)]));

  let decisions = 0;
  let misroutes = 0;
  let firstMisrouted: string | undefined;
  let firstTieMisrouted: string | undefined;
  const conversations = config.conversations ?? DEMO_CONVERSATIONS;
  const clock = createDemoClock(Date.now() - DAY_MS, conversations.length);
  try {
    for (const [k, conv] of conversations.entries()) {
      clock.startConversation(k);
      const router = routers.get(conv.router);
      const observer = observers.get(conv.router);
      if (router === undefined || observer === undefined) {
        throw new Error(`conversation ${conv.id}: unknown router "${conv.router}"`);
      }
      const result = await handleConversation(conv, router, { tracer, framework, observer, review, clock });
      decisions += result.decisions;
      misroutes += result.misroutes;
      if (result.misroutes > 0) firstMisrouted ??= conv.id;
      if (result.tieMisroutes > 0) firstTieMisrouted ??= conv.id;
    }
  } finally {
    for (const observer of observers.values()) {
      await observer.flush();
      observer.stop();
    }
    await provider.shutdown();
  }
  // A batch that did not reach the file (a full disk) fails the run: the file is incomplete.
  if (exporter.failure !== undefined) throw exporter.failure;
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
}

/** The turn under review, which the strategy's hook reads to mark a misroute on the routing span. */
interface ReviewState {
  turn?: { readonly expected: string; readonly skill: string };
}

function prepareRouter(router: DemoRouter): PreparedRouter {
  return {
    router,
    scorer: createDemoScorer(router.scorer, DEMO_SKILLS),
    policy: resolveRoutingPolicy(router.policy),
  };
}

/**
 * The strategy a user would enable for this router's agent. The reviewer's label is known before the turn
 * runs, so the mark rides the routing span itself as an event (the same mark a later review would add as a
 * feedback span, without a second clock in the trace).
 */
function observeRouter(
  router: DemoRouter,
  provider: BasicTracerProvider,
  runSpans: RunSpanIndex,
  review: ReviewState,
): RoutescopeObservability {
  const strategy = routescopeObservability({
    tracerProvider: provider,
    runSpanIndex: runSpans,
    routerName: router.name,
    agentName: DEMO_AGENT_NAME,
    attributesHook: (span, _reading, spanName) => {
      const turn = review.turn;
      if (spanName !== SPAN_ROUTING_TIER2 || turn === undefined || turn.skill === turn.expected) return;
      markMisrouted(span, {
        expected: turn.expected,
        reason: `answered by ${turn.skill}`,
        source: 'human-review',
      });
    },
  });
  return strategy;
}

interface DemoTracers {
  readonly tracer: Tracer;
  readonly framework: Tracer;
  readonly observer: RoutescopeObservability;
  readonly review: ReviewState;
  readonly clock: DemoClock;
}

async function handleConversation(
  conv: DemoConversation,
  prepared: PreparedRouter,
  t: DemoTracers,
): Promise<{ decisions: number; misroutes: number; tieMisroutes: number }> {
  const { router, scorer, policy } = prepared;
  const root = t.tracer.startSpan(`conversation ${DEMO_AGENT_NAME}`, {
    kind: SpanKind.INTERNAL,
    startTime: t.clock.now(),
    attributes: { [ATTR_GEN_AI_AGENT_NAME]: DEMO_AGENT_NAME, [ATTR_GEN_AI_CONVERSATION_ID]: conv.id },
  });
  let misroutes = 0;
  let tieMisroutes = 0;
  await context.with(trace.setSpan(context.active(), root), async () => {
    let incumbent: string | undefined;
    for (const [index, turn] of conv.turns.entries()) {
      const runId = `${conv.id}-run-${index + 1}`;
      // The user thinks and types between turns: 20 to 60 simulated seconds.
      t.clock.advance(index === 0 ? 1_000 : 20_000 + ((index * 7_919 + turn.text.length * 131) % 40_000));
      // The framework's own turn span: it carries the run id and, like the framework's, is never made active.
      const run = t.framework.startSpan(DEMO_AGENT_NAME, {
        kind: SpanKind.INTERNAL,
        startTime: t.clock.now(),
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          [ATTR_GEN_AI_AGENT_NAME]: DEMO_AGENT_NAME,
          [ATTR_AGENTFOOTPRINT_RUN_ID]: runId,
          'agentfootprint.turn.index': index,
        },
      });
      const verdict = FRAMEWORK_DECIDE(
        scorer.score(turn.text, router.skills),
        incumbent,
        policy,
        scorer.traits,
      );
      const resolved = resolveTurn(verdict, incumbent, turn.expected, router.skills);
      t.review.turn = { expected: turn.expected, skill: resolved.skill };
      t.observer.exportEvent(
        buildTurnRoutedEvent(verdict, resolved, {
          scorer,
          policy,
          runId,
          sessionId: conv.id,
          index,
          wallClockMs: t.clock.advance(3),
        }),
      );
      t.review.turn = undefined;
      await context.with(trace.setSpan(context.active(), run), () =>
        answerTurn(t.tracer, t.clock, resolved.skill, turn.text, index),
      );
      run.end(t.clock.advance(5));
      if (resolved.skill !== turn.expected) {
        misroutes++;
        const tied = [verdict.ranked[0]?.id, verdict.runnerUp?.id];
        if (!verdict.decisive && verdict.runnerUp !== undefined && tied.includes(turn.expected))
          tieMisroutes++;
      }
      incumbent = resolved.skill;
    }
  });
  root.end(t.clock.advance(10));
  return { decisions: conv.turns.length, misroutes, tieMisroutes };
}

/**
 * The `agentfootprint.skill.turn_routed` event the framework would emit for this turn, in its shape: the
 * ranked scores with their shares, the runner-up, decisive, the policy with the effective floor, what
 * happened (`by`, `to`, `offered`, `stayOffered`) and the decider's pick; meta with the run and session.
 */
export function buildTurnRoutedEvent(
  verdict: Tier2Verdict,
  resolved: ResolvedTurn,
  turn: {
    scorer: DemoScorer;
    policy: RoutingPolicy;
    runId: string;
    sessionId: string;
    index: number;
    /** When the turn was routed (the demo's simulated clock). @default Date.now() */
    wallClockMs?: number;
  },
): Record<string, unknown> {
  const floor = effectiveFloor(turn.policy, turn.scorer.traits);
  const { route } = resolved;
  const payload: Record<string, unknown> = {
    by: route.by,
    ...(route.from === undefined ? {} : { from: route.from }),
    ...(route.to === undefined ? {} : { to: route.to }),
    scorer: turn.scorer.name,
    scores: verdict.ranked.map((c) => ({ id: c.id, score: c.score, relevance: c.relevance })),
    ...(verdict.runnerUp === undefined ? {} : { runnerUp: { ...verdict.runnerUp } }),
    decisive: verdict.decisive,
    ...(route.offered === undefined ? {} : { offered: [...route.offered] }),
    ...(route.stayOffered === undefined ? {} : { stayOffered: route.stayOffered }),
    policy: {
      nearTieMargin: turn.policy.nearTieMargin,
      menuSize: turn.policy.menuSize,
      ...(floor === undefined ? {} : { floor }),
    },
    ...(resolved.picked === undefined ? {} : { decider: { ...DECIDER, picked: resolved.picked } }),
  };
  return {
    type: TURN_ROUTED_EVENT_TYPE,
    payload,
    meta: {
      wallClockMs: turn.wallClockMs ?? Date.now(),
      runOffsetMs: 1,
      runtimeStageId: 'pick-entry#1',
      subflowPath: [],
      compositionPath: [`Agent:${DEMO_AGENT_NAME}`],
      runId: turn.runId,
      sessionId: turn.sessionId,
    },
  };
}

/** A verdict as the loop acted on it: the route the turn_routed event reports, the skill, the decider's pick. */
export interface ResolvedTurn {
  readonly route: TurnRoute;
  readonly skill: string;
  /** What the decider picked (`stay` for the incumbent), when a menu went to it. */
  readonly picked?: string;
}

/**
 * What the loop does with a verdict, as the framework reports it: move (`intent`) and stay (`continuity`) are
 * taken as they are; a menu (or the full menu of an `unmatched`) goes to the simulated tier-3 decider, which
 * picks the reviewer's skill when it is offered (STAY included, mid-conversation), else the first entry. A
 * pick of STAY is `continuity`, any other pick `decider`; the event still carries what was offered.
 */
export function resolveTurn(
  verdict: Tier2Verdict,
  incumbent: string | undefined,
  expected: string,
  visible: readonly string[],
): ResolvedTurn {
  const from = incumbent === undefined ? {} : { from: incumbent };
  if (verdict.kind === 'move') return { route: { by: 'intent', ...from, to: verdict.to }, skill: verdict.to };
  if (verdict.kind === 'stay' && incumbent !== undefined) {
    return { route: { by: 'continuity', ...from, to: incumbent }, skill: incumbent };
  }
  const offered = verdict.kind === 'menu' ? verdict.offered : visible;
  const menu = { offered, ...(incumbent === undefined ? {} : { stayOffered: true }) };
  if (incumbent !== undefined && expected === incumbent) {
    return { route: { by: 'continuity', ...from, to: incumbent, ...menu }, skill: incumbent, picked: 'stay' };
  }
  const pick = offered.includes(expected) ? expected : (offered[0] ?? visible[0] ?? expected);
  return { route: { by: 'decider', ...from, to: pick, ...menu }, skill: pick, picked: pick };
}

/** Spans nest only under a context manager; register the Node one unless the process already has one. */
function ensureContextManager(): void {
  const manager = new AsyncLocalStorageContextManager();
  manager.enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
}
