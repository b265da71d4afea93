/**
 * tracerSource — the tracer the agentfootprint strategy records with, looked up when routed turns arrive.
 *
 * The README builds the strategy before the app calls `setGlobalTracerProvider`. With one copy of
 * @opentelemetry/api that is fine: the global provider is a proxy that receives the SDK later. With two copies
 * (npm link, a `file:` dependency, a monorepo, a bundler) it is not: before registration routescope's copy hands
 * out a proxy of its own, which no SDK ever reaches, and only a read after registration finds the app's, through
 * the API's shared global (when the two versions are compatible). So the global provider is read at the first
 * routed turn, and again while it has only the no-op: on each of the first 64 turns without an SDK, then on one
 * in 64 (a read costs a few nanoseconds, less than reading the clock to space them would). An SDK once seen is
 * kept. Turns no SDK could record are counted; the first is reported once through diag. A provider passed in is
 * used as given and only asked whether an SDK is behind it yet. Nothing here throws.
 */
import { trace } from '@opentelemetry/api';
import type { Tracer, TracerProvider } from '@opentelemetry/api';
import type { NothingRecorded } from './types.js';
import { INSTRUMENTATION_SCOPE_NAME, logSwallowed, safeExecute, tell } from './safeExecute.js';

/** Turns without an SDK that are each followed by a fresh look; past them, one turn in this many. */
export const SDK_LOOKS_EVERY_TURN_UNTIL = 64;

/** Where the strategy's spans go, looked up per routed turn, and what the looking found. */
export interface TracerSource {
  /** The tracer for this turn; undefined when nothing can record it (no SDK yet: counted, or no tracer at all). */
  tracerForTurn(): Tracer | undefined;
  /** The provider to flush: the one in use, else the global one as it is now. */
  providerToFlush(): TracerProvider;
  /** True once an SDK is seen behind the provider (always, for a provider that is no proxy). */
  readonly sdkFound: boolean;
  /** Routed turns that found no SDK to record them. */
  readonly turnsWithoutSdk: number;
  /** Why no SDK is reachable (meaningful while `sdkFound` is false): the same words as the warning. */
  whyNoSdk(): NothingRecorded;
}

/** The API's ProxyTracerProvider of any copy, by its public method (`instanceof` only knows routescope's copy). */
interface ProxyLike {
  getDelegateTracer(name: string): Tracer | undefined;
}

function isProxy(provider: TracerProvider): provider is TracerProvider & ProxyLike {
  return typeof (provider as Partial<ProxyLike>).getDelegateTracer === 'function';
}

/** Is an SDK behind `provider`? Any provider that is no API proxy is one; a proxy, once it has a delegate. */
function hasSdk(provider: TracerProvider): boolean {
  return !isProxy(provider) || provider.getDelegateTracer(INSTRUMENTATION_SCOPE_NAME) !== undefined;
}

/**
 * A source of tracers: the global provider, read lazily, when `given` is undefined; else `given` (its tracer
 * taken now, as before).
 */
export function createTracerSource(given: TracerProvider | undefined): TracerSource {
  const fromGlobal = given === undefined;
  let provider = given;
  let tracer: Tracer | undefined;
  let sdkFound = false;
  let turnsWithoutSdk = 0;
  if (given !== undefined) {
    tracer = safeExecute('getting a tracer', () => given.getTracer(INSTRUMENTATION_SCOPE_NAME));
    sdkFound = tracer === undefined || !isProxy(given);
  }

  /** One look for an SDK; a provider that throws while asked counts as found (spans are tried, as elsewhere). */
  const lookForSdk = (): boolean => {
    try {
      const current = fromGlobal ? trace.getTracerProvider() : provider!;
      provider = current;
      if (!hasSdk(current)) return false;
      if (fromGlobal) tracer = current.getTracer(INSTRUMENTATION_SCOPE_NAME);
    } catch (err) {
      logSwallowed('looking for the OpenTelemetry SDK', err);
    }
    return true;
  };

  /** A turn while no SDK has been seen: look again (every turn at first, then one in 64), else count it. */
  const tracerWhileNoSdk = (): Tracer | undefined => {
    if (turnsWithoutSdk < SDK_LOOKS_EVERY_TURN_UNTIL || turnsWithoutSdk % SDK_LOOKS_EVERY_TURN_UNTIL === 0) {
      if (lookForSdk()) {
        sdkFound = true;
        if (turnsWithoutSdk > 0) {
          tell(
            `found the OpenTelemetry SDK after ${turnsWithoutSdk} routed turns it could not record`,
            'info',
          );
        }
        return tracer;
      }
    }
    turnsWithoutSdk++;
    if (turnsWithoutSdk === 1) tell(whyNoSdk().message);
    return undefined;
  };
  const whyNoSdk = (): NothingRecorded => {
    if (!fromGlobal) return NO_SDK_ON_THE_GIVEN;
    const other = sdkOnAnotherApiCopy();
    return other === undefined ? NO_SDK_ON_THE_GLOBAL : sdkOnAnotherCopy(other);
  };
  // Kept apart from the looking, so this stays small enough for the JIT to inline into exportEvent: measured,
  // one function doing both cost 8 ns more per turn with no SDK (19 against 11).
  const tracerForTurn = (): Tracer | undefined => (sdkFound ? tracer : tracerWhileNoSdk());

  return {
    tracerForTurn,
    providerToFlush: () =>
      provider !== undefined && (sdkFound || !fromGlobal) ? provider : trace.getTracerProvider(),
    get sdkFound() {
      return sdkFound;
    },
    get turnsWithoutSdk() {
      return turnsWithoutSdk;
    },
    whyNoSdk,
  };
}

/** The API's global slots are keyed by major version; the majors looked at for another copy's registration. */
const API_MAJORS_LOOKED_AT = [0, 1, 2, 3];

/**
 * The version of another @opentelemetry/api copy that has an SDK registered on its global slot which routescope's
 * copy does not see (its major differs, or its minor is older than routescope's); undefined when there is none.
 * Read from the slot itself (`Symbol.for('opentelemetry.js.api.<major>')`: `{ version, trace }`), as any copy
 * writes it; nothing here throws.
 */
export function sdkOnAnotherApiCopy(): string | undefined {
  try {
    const ours = trace.getTracerProvider();
    const slots = globalThis as unknown as Record<symbol, unknown>;
    for (const major of API_MAJORS_LOOKED_AT) {
      const slot = slots[Symbol.for(`opentelemetry.js.api.${major}`)] as
        { version?: unknown; trace?: unknown } | undefined;
      const registered = slot?.trace as TracerProvider | undefined;
      if (registered === undefined || registered === ours || typeof slot?.version !== 'string') continue;
      if (hasSdk(registered)) return slot.version;
    }
  } catch (err) {
    logSwallowed('looking for an SDK on another copy of @opentelemetry/api', err);
  }
  return undefined;
}

const STATS_HINT =
  'routescope keeps looking; `strategy.status()` counts the routed turns not recorded (docs/instrumentation.md)';

const NO_SDK_ON_THE_GLOBAL: NothingRecorded = {
  code: 'no-sdk',
  message:
    'a routed turn arrived and the global tracer provider of the @opentelemetry/api copy routescope resolves has ' +
    'no SDK behind it, so no routing span was recorded. Either no SDK is registered yet (register one: ' +
    '`trace.setGlobalTracerProvider(provider)`, or start NodeSDK), or your app registered it on another copy of ' +
    '@opentelemetry/api (npm link, a file: dependency, a monorepo, a bundler; see `npm ls @opentelemetry/api`): ' +
    `then pass your provider as \`tracerProvider\`, or install a single copy. ${STATS_HINT}`,
};

/** An SDK registered through another copy (npm link, a file: dependency, a monorepo, a bundler) of `version`. */
function sdkOnAnotherCopy(version: string): NothingRecorded {
  return {
    code: 'sdk-on-another-api-copy',
    message:
      `a routed turn arrived and no routing span was recorded: your SDK is registered through @opentelemetry/api ` +
      `${version}, another copy than the one routescope resolves, which cannot share its globals (two copies: npm ` +
      'link, a file: dependency, a monorepo, a bundler; see `npm ls @opentelemetry/api`). Pass your provider as ' +
      `\`tracerProvider\`, or install a single copy. ${STATS_HINT}`,
  };
}

const NO_SDK_ON_THE_GIVEN: NothingRecorded = {
  code: 'provider-without-sdk',
  message:
    'a routed turn arrived and the tracerProvider given to routescopeObservability is the API proxy with no SDK ' +
    `behind it yet, so no routing span was recorded; pass the SDK's provider itself. ${STATS_HINT}`,
};
