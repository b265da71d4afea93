/**
 * resolveInstrumentationConfig — fill an `InstrumentationConfig` against the defaults.
 *
 * Defaults are chosen so that wrapping alone is safe to ship: the global provider (a no-op until an SDK
 * registers), the framework's own list bound of 20 candidates, and no user text on spans.
 * Pure apart from reading the global tracer provider.
 */
import { trace } from '@opentelemetry/api';
import type { InstrumentationConfig, ResolvedInstrumentationConfig } from './types.js';

/** Keep the text as it is (used only once a caller has opted in to witness text). */
function keepWitnessText(text: string): string {
  return text;
}

/** The defaults that do not depend on the global provider. */
export const DEFAULT_INSTRUMENTATION_CONFIG = Object.freeze({
  maxRecordedCandidates: 20,
  recordWitness: false,
  redactWitness: keepWitnessText,
});

/** Fill the defaults; a negative or non-finite `maxRecordedCandidates` falls back to the default. */
export function resolveInstrumentationConfig(
  config: InstrumentationConfig = {},
): ResolvedInstrumentationConfig {
  const max = config.maxRecordedCandidates;
  return {
    tracerProvider: config.tracerProvider ?? trace.getTracerProvider(),
    meterProvider: config.meterProvider,
    routerName: config.routerName,
    scorerName: config.scorerName,
    scorerTraits: config.scorerTraits,
    context: config.context,
    maxRecordedCandidates:
      typeof max === 'number' && Number.isFinite(max) && max >= 0
        ? Math.floor(max)
        : DEFAULT_INSTRUMENTATION_CONFIG.maxRecordedCandidates,
    policySemantics: config.policySemantics,
    attributesHook: config.attributesHook,
    recordWitness: config.recordWitness ?? DEFAULT_INSTRUMENTATION_CONFIG.recordWitness,
    redactWitness: config.redactWitness ?? DEFAULT_INSTRUMENTATION_CONFIG.redactWitness,
  };
}
