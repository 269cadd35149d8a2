import type { DreamPhase, PassOutcome } from './dream-types';

export interface RunRequest {
  /** Only these passes (by name), in cycle order. */
  passes?: string[];
  /** Only this pass (same as `passes: [pass]`). */
  pass?: string;
  /** Only the passes of this phase. */
  phase?: DreamPhase;
  /** Plan and report, write nothing (SPEC O6). */
  dryRun?: boolean;
  /** What started the run: 'schedule', 'manual', 'session-end'… (recorded in the report). */
  trigger: string;
  signal?: AbortSignal;
  /**
   * Told when a pass starts and when it has an outcome (skipped ones only finish), so a host
   * can show progress on long runs. A callback that throws is logged and otherwise ignored.
   */
  onPass?: (progress: PassProgress) => void;
}

/** What `apply(planId)` takes besides the plan. */
export type ApplyRequest = Pick<RunRequest, 'signal' | 'onPass'>;

export { DREAM_PHASES } from './pass-declaration';

/** What `RunRequest.onPass` is told: `index` counts from 0 among the `total` selected passes. */
export type PassProgress =
  | { type: 'start'; name: string; phase: DreamPhase; index: number; total: number }
  | { type: 'finish'; outcome: PassOutcome; index: number; total: number };
