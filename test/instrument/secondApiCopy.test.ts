/**
 * secondApiCopy.test — the strategy when the app and routescope resolve two copies of @opentelemetry/api.
 *
 * The app's copy is real files on disk (apiCopy.ts); the app registers its SDK through it, as the README's setup
 * does, after building the strategy. routescope (this checkout's source) resolves the installed copy. With a
 * compatible version, a provider read before registration is routescope's own proxy and never receives the SDK,
 * while the framework's spans (made through the app's copy) flow: the strategy must look again when turns
 * arrive. With a version routescope's copy cannot share globals with, no SDK is ever reachable: one warning and
 * `stats` say so.
 */
import { diag, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routescopeObservability } from '../../src/instrument/routescopeObservability.js';
import { SDK_LOOKS_EVERY_TURN_UNTIL } from '../../src/instrument/tracerSource.js';
import { SPAN_ROUTING_TIER2, SPAN_ROUTING_TURN } from '../../src/semconv/semconv.js';
import { createMemorySdk, type MemorySdk } from '../helpers/otelSdk.js';
import { keepDiagLines, turnRoutedEvent } from '../helpers/turnRoutedEvents.js';
import {
  INSTALLED_API_VERSION,
  loadApiCopy,
  nextMajor,
  sameMajor,
  saveApiGlobals,
  type ApiCopy,
} from './apiCopy.js';

/** One routed turn as agentfootprint 9.62 reports it: a scorer ran and moved decisively. */
const TURN_ROUTED = turnRoutedEvent({}, { wallClockMs: Date.UTC(2026, 11, 3, 12) });

let sdk: MemorySdk;
let globals: { restore: () => void };
let warnings: string[];

/** A diag logger that keeps routescope's warnings, installed through the copy given. */
const keepWarnings = (api: { diag: typeof diag }): void => keepDiagLines(warnings, { api });
const noSdkWarnings = (): string[] => warnings.filter((w) => w.includes('no routing span was recorded'));
const routingSpans = (): string[] =>
  sdk
    .spans()
    .map((s) => s.name)
    .filter((n) => n === SPAN_ROUTING_TIER2 || n === SPAN_ROUTING_TURN)
    .sort();

beforeEach(() => {
  globals = saveApiGlobals();
  sdk = createMemorySdk();
  warnings = [];
});
afterEach(async () => {
  diag.disable();
  globals.restore();
  await sdk.shutdown();
});

describe(`the app's copy is compatible (${sameMajor(1, 0)}, routescope's ${INSTALLED_API_VERSION})`, () => {
  let app: ApiCopy;
  beforeAll(() => {
    app = loadApiCopy(sameMajor(1, 0));
  });
  afterAll(() => app.remove());
  beforeEach(() => keepWarnings(app.api));
  afterEach(() => {
    app.api.trace.disable();
    app.api.diag.disable();
  });

  it('is a separate copy: its own proxy, its own version, sharing only the global', () => {
    expect(app.api.trace).not.toBe(trace);
    expect(app.api.ProxyTracerProvider).not.toBe(trace.getTracerProvider().constructor);
    app.api.trace.setGlobalTracerProvider(sdk.provider);
    const shared = (globalThis as unknown as Record<symbol, { version: string }>)[
      Symbol.for(`opentelemetry.js.api.${INSTALLED_API_VERSION.split('.')[0]}`)
    ];
    expect(shared?.version).toBe(app.version);
  });

  it('the scenario: a provider read before the app registers never gets its SDK, while the framework spans flow', () => {
    // What the strategy did when it was built: read routescope's global provider once, before registration.
    const readWhenBuilt = trace.getTracerProvider();
    const strategy = routescopeObservability({ tracerProvider: readWhenBuilt });
    app.api.trace.setGlobalTracerProvider(sdk.provider);

    const frameworkSpan = app.api.trace.getTracer('agentfootprint').startSpan('support');
    expect(frameworkSpan.isRecording()).toBe(true);
    frameworkSpan.end();
    const early = readWhenBuilt.getTracer('probe').startSpan('probe');
    expect(early.isRecording()).toBe(false);
    early.end();
    strategy.exportEvent(TURN_ROUTED);
    expect(routingSpans()).toEqual([]);
    expect(strategy.status()).toMatchObject({ turnsReceived: 1, turnsWithoutSdk: 1, sdkFound: false });
    // Read after registration, the same global finds the app's SDK.
    const late = trace.getTracerProvider().getTracer('probe').startSpan('probe');
    expect(late.isRecording()).toBe(true);
    late.end();
  });

  it('built before the SDK registers, the strategy records the routed turns after it, and warns of nothing', () => {
    const strategy = routescopeObservability({ routerName: 'support-desk' });
    app.api.trace.setGlobalTracerProvider(sdk.provider);
    strategy.exportEvent(TURN_ROUTED);
    strategy.exportEvent(TURN_ROUTED);
    expect(routingSpans()).toEqual([
      SPAN_ROUTING_TIER2,
      SPAN_ROUTING_TIER2,
      SPAN_ROUTING_TURN,
      SPAN_ROUTING_TURN,
    ]);
    expect(strategy.status()).toMatchObject({ turnsReceived: 2, turnsWithoutSdk: 0, sdkFound: true });
    expect(warnings).toEqual([]);
  });

  it('turns before the SDK registers are counted and warned about once, through the app’s diag logger', () => {
    const strategy = routescopeObservability();
    for (let i = 0; i < 3; i++) strategy.exportEvent(TURN_ROUTED);
    expect(routingSpans()).toEqual([]);
    expect(noSdkWarnings()).toHaveLength(1);
    expect(noSdkWarnings()[0]).toContain('another copy of @opentelemetry/api');
    expect(strategy.status().reason).toEqual({
      code: 'no-sdk',
      message: noSdkWarnings()[0]!.replace(/^routescope /, ''),
    });

    app.api.trace.setGlobalTracerProvider(sdk.provider);
    strategy.exportEvent(TURN_ROUTED);
    expect(routingSpans()).toEqual([SPAN_ROUTING_TIER2, SPAN_ROUTING_TURN]);
    expect(strategy.status()).toMatchObject({ turnsReceived: 4, turnsWithoutSdk: 3, sdkFound: true });
    expect(strategy.status()).toMatchObject({ spansRecorded: 2, reason: null });
    expect(warnings).toHaveLength(1);
  });

  it(`past ${SDK_LOOKS_EVERY_TURN_UNTIL} turns without an SDK it looks once in ${SDK_LOOKS_EVERY_TURN_UNTIL}`, () => {
    const strategy = routescopeObservability();
    for (let i = 0; i < SDK_LOOKS_EVERY_TURN_UNTIL + 10; i++) strategy.exportEvent(TURN_ROUTED);
    app.api.trace.setGlobalTracerProvider(sdk.provider);
    let unrecorded = 0;
    while (routingSpans().length === 0 && unrecorded < 3 * SDK_LOOKS_EVERY_TURN_UNTIL) {
      strategy.exportEvent(TURN_ROUTED);
      if (routingSpans().length === 0) unrecorded++;
    }
    expect(unrecorded).toBe(SDK_LOOKS_EVERY_TURN_UNTIL - 10);
    expect(strategy.status().turnsWithoutSdk).toBe(2 * SDK_LOOKS_EVERY_TURN_UNTIL);
    expect(noSdkWarnings()).toHaveLength(1);
  });

  it('flush reaches the SDK found through the global', async () => {
    let flushed = 0;
    const original = sdk.provider.forceFlush.bind(sdk.provider);
    sdk.provider.forceFlush = () => {
      flushed++;
      return original();
    };
    const strategy = routescopeObservability();
    app.api.trace.setGlobalTracerProvider(sdk.provider);
    await strategy.flush();
    strategy.exportEvent(TURN_ROUTED);
    await strategy.flush();
    expect(flushed).toBe(2);
  });
});

describe(`the app's copy is another major (${nextMajor()}): its global is another slot`, () => {
  let app: ApiCopy;
  beforeAll(() => {
    app = loadApiCopy(nextMajor());
  });
  afterAll(() => app.remove());
  afterEach(() => app.api.trace.disable());

  it('no SDK is ever reachable: one diag warning for many turns naming the other copy, and the status says so', () => {
    keepWarnings({ diag }); // routescope's own copy: the app's logger is out of its reach here
    const strategy = routescopeObservability();
    app.api.trace.setGlobalTracerProvider(sdk.provider);
    const frameworkSpan = app.api.trace.getTracer('agentfootprint').startSpan('support');
    expect(frameworkSpan.isRecording()).toBe(true);
    frameworkSpan.end();

    for (let i = 0; i < 200; i++) strategy.exportEvent(TURN_ROUTED);
    expect(routingSpans()).toEqual([]);
    expect(noSdkWarnings()).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(noSdkWarnings()[0]).toContain('strategy.status()');
    expect(noSdkWarnings()[0]).toContain(`registered through @opentelemetry/api ${app.version}`);
    expect(strategy.status()).toMatchObject({ turnsReceived: 200, turnsWithoutSdk: 200, sdkFound: false });
    expect(strategy.status()).toMatchObject({
      spansRecorded: 0,
      reason: { code: 'sdk-on-another-api-copy' },
    });
    expect(strategy.status().reason?.message).toContain(app.version);
  });

  it("the way out: the SDK's provider passed as tracerProvider records whichever copy registered it", () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    app.api.trace.setGlobalTracerProvider(sdk.provider);
    strategy.exportEvent(TURN_ROUTED);
    expect(routingSpans()).toEqual([SPAN_ROUTING_TIER2, SPAN_ROUTING_TURN]);
    expect(strategy.status()).toMatchObject({ turnsReceived: 1, turnsWithoutSdk: 0, sdkFound: true });
  });
});

describe(`the app's copy is an older minor (${sameMajor(-1, 0)}), whose global routescope's copy refuses`, () => {
  let app: ApiCopy;
  beforeAll(() => {
    app = loadApiCopy(sameMajor(-1, 0));
  });
  afterAll(() => app.remove());
  afterEach(() => {
    app.api.trace.disable();
    app.api.diag.disable();
  });

  it("the status says so, naming the other copy, even though routescope's warning cannot reach the app's diag logger", () => {
    keepWarnings(app.api);
    const strategy = routescopeObservability();
    app.api.trace.setGlobalTracerProvider(sdk.provider);
    for (let i = 0; i < 5; i++) strategy.exportEvent(TURN_ROUTED);
    expect(routingSpans()).toEqual([]);
    expect(strategy.status()).toMatchObject({ turnsReceived: 5, turnsWithoutSdk: 5, sdkFound: false });
    expect(strategy.status().reason).toMatchObject({ code: 'sdk-on-another-api-copy' });
    expect(strategy.status().reason?.message).toContain(`@opentelemetry/api ${app.version}`);
    // routescope's copy reads no global of this version, the diag logger included: hence the counter.
    expect(warnings).toEqual([]);
  });
});
