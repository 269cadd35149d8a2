import type { DreamPhase, PassOutcome } from './dream-types';

/**
 * Hooks around each cycle and each pass of it, for tracing (SPEC E3): the `reverie` package turns
 * them into OpenTelemetry spans, a run's span with a child per pass, and because each hook runs
 * the work inside it, what a pass calls (its model calls, its store writes) nests under the
 * pass's span. The engine knows nothing of OpenTelemetry.
 */
export interface DreamTracing {
  /** Runs one cycle (a run, a dry run, a retry or a saved plan applied) as `work`. */
  run<T>(run: { runId: string; trigger: string; dryRun: boolean; passes: readonly string[] }, work: () => Promise<T>): Promise<T>;
  /** Runs one pass of the cycle as `work`, whose result is the pass's outcome. */
  pass(pass: { runId: string; name: string; phase: DreamPhase }, work: () => Promise<PassOutcome>): Promise<PassOutcome>;
}

/** No tracing: the work runs as it is. */
export const NO_TRACING: DreamTracing = {
  run: (_run, work) => work(),
  pass: (_pass, work) => work(),
};
