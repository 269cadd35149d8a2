import type { TelemetrySettings } from 'ai';
import type { DreamTracing } from './dream-tracing';
import type { DreamStateStore } from '@reverie/dream-state';
import type { DreamServices } from './dream-types';
import type { PassRoster } from './pass-roster';

/** What the engine's modules (run, recover, apply, retry) share: its services, state, passes and options. */
export interface EngineContext {
  readonly services: DreamServices;
  readonly state: DreamStateStore;
  readonly roster: PassRoster;
  /** A saved plan older than this (ms) is refused by `apply` with PLAN_EXPIRED. */
  readonly planMaxAgeMs: number;
  /** The longest model reply read at all, in characters; the gateway's default when undefined. */
  readonly maxReplyChars: number | undefined;
  /** Spans around runs and passes (SPEC E3); `NO_TRACING` without. */
  readonly tracing: DreamTracing;
  /** The host's AI SDK telemetry settings, given to every model call (`experimental_telemetry`). */
  readonly telemetry: TelemetrySettings | undefined;
}
