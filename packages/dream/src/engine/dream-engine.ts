import type { TelemetrySettings } from 'ai';
import { type DreamTracing, NO_TRACING } from './dream-tracing';
import { newId } from '@reverie/core';
import type { DreamLockStatus, DreamStateStore } from '@reverie/dream-state';
import { holdingLock } from '@reverie/dream-state';
import { type RecordChange, type RecordHistoryItem, type RecordKey, readRecordHistory, readRunChanges } from '../runs/run-changes';
import { listRunSummaries, readRunDetails, type RunDetails, runNotFound, type RunSummary } from '../runs/run-details';
import { applyHostOperations, type HostOperations } from './apply-host-operations';
import { applyPlan, DEFAULT_PLAN_MAX_AGE_MS, type PlanSummary, pendingPlans } from './apply-plan';
import type { CycleReport, DreamPass, DreamServices } from './dream-types';
import type { EngineContext } from './engine-context';
import { PassRoster } from './pass-roster';
import { recoverRuns } from './recover-runs';
import { retryRun } from './retry-run';
import { runCycle } from './run-cycle';
import type { ApplyRequest, RunRequest } from './run-request';
import { type UndoReport, undoRun } from './undo-run';

export interface DreamEngineOptions {
  /** A saved plan older than this (ms) is refused by `apply` with PLAN_EXPIRED (default 24 h). */
  planMaxAgeMs?: number;
  /** The longest model reply read at all, in characters (default 100,000); a longer one is refused before it is parsed. */
  maxReplyChars?: number;
  /** SPEC E3: hooks around each run and pass, for spans (the `reverie` package's telemetry). */
  tracing?: DreamTracing;
  /** SPEC E3: the host's AI SDK telemetry settings, passed on to every model call the passes make. */
  telemetry?: TelemetrySettings;
}

/**
 * Runs the dream passes in cycle order (SPEC "Pass names and order"). Each pass plans; the
 * engine writes the plan and an archive of everything it will replace or delete, fsynced,
 * before it touches a store; then applies the operations, saves first and deletes last,
 * journalling every step. A failing pass is recorded and the others still run; a user turn
 * aborts the in-flight model call and ends the cycle cleanly. Every run can be undone. A real
 * run holds the scope's lock (SPEC O3) and appends one ledger line per pass (SPEC O5). All of it
 * is kept in `services.state` (see `DreamStateStore`).
 *
 * The engine is a facade: a cycle is run by `run-cycle.ts` (each pass by `run-pass.ts`),
 * interrupted runs are finished by `recover-runs.ts`, saved plans applied by `apply-plan.ts`,
 * failed passes retried by `retry-run.ts`, and runs read and undone through `runs/` and `undo-run.ts`.
 */
export class DreamEngine {
  private readonly state: DreamStateStore;
  private readonly engine: EngineContext;

  constructor(
    private readonly services: DreamServices,
    passes: readonly DreamPass[],
    options: DreamEngineOptions = {},
  ) {
    this.state = services.state;
    this.engine = {
      services,
      state: services.state,
      roster: new PassRoster(services, passes),
      planMaxAgeMs: options.planMaxAgeMs ?? DEFAULT_PLAN_MAX_AGE_MS,
      maxReplyChars: options.maxReplyChars,
      tracing: options.tracing ?? NO_TRACING,
      telemetry: options.telemetry,
    };
  }

  /** The passes this engine knows, in cycle order. */
  get passNames(): string[] {
    return this.engine.roster.names;
  }

  /**
   * Runs the selected passes. A real run holds the scope's lock throughout (SPEC O3)
   * and throws LOCK_HELD when another runner has it; a dry run takes no lock and writes nothing.
   */
  async run(request: RunRequest): Promise<CycleReport> {
    const selected = this.engine.roster.select(request);
    const runId = newId();
    if (request.dryRun) return runCycle(this.engine, request, selected, runId);
    return holdingLock(this.state.lock, (_, lost) => runCycle(this.engine, request, selected, runId, { lost }), runId);
  }

  /**
   * Re-runs the passes that failed in `runId` (its dead letter, SPEC O7), as a new run with
   * trigger 'retry'. When every one of them ends ok the dead letter is removed; otherwise the
   * dead letter records this attempt and stays. RUN_NOT_FOUND when there is no such run;
   * NOT_FOUND when the run has no dead letter (nothing failed, or it was already retried).
   */
  retry(runId: string, options: { signal?: AbortSignal } = {}): Promise<CycleReport> {
    return retryRun(this.engine, runId, options);
  }

  /**
   * Applies the plan a dry run saved, exactly: its operations, with their optimistic checks (an
   * entry changed since the plan is skipped and reported as a conflict), then each pass's commit.
   * No model is called. The result is a normal run (trigger 'apply'): run folder, ledger lines,
   * undo. Holds the lock (LOCK_HELD). PLAN_NOT_FOUND, PLAN_APPLIED (a plan is applied once),
   * PLAN_EXPIRED (older than `planMaxAgeMs`), UNKNOWN_PASS (a pass this engine does not have).
   */
  apply(planId: string, request: ApplyRequest = {}): Promise<CycleReport> {
    return applyPlan(this.engine, planId, request);
  }

  /**
   * Applies changes the host decided on (a forget, an import) as one run with trigger
   * `request.trigger`: planned, archived, journalled and reported like a pass's, recovered after
   * a crash, undone with `undo`. Holds the lock (LOCK_HELD).
   */
  applyOperations(request: HostOperations): Promise<CycleReport> {
    return applyHostOperations(this.engine, request);
  }

  /** The plans dry runs saved that are not applied yet, newest first, with whether they expired. */
  pendingPlans(): Promise<PlanSummary[]> {
    return pendingPlans(this.engine);
  }

  /** Every run, newest first, with whether it has a dead letter. */
  listRuns(): Promise<RunSummary[]> {
    return listRunSummaries(this.state);
  }

  /** A run's manifest, pass outcomes, summary and dead letter; RUN_NOT_FOUND when there is no such run. */
  show(runId: string): Promise<RunDetails> {
    return readRunDetails(this.state, runId);
  }

  /** What a run changed, each record before and after, in the order applied; RUN_NOT_FOUND when there is no such run. */
  async changes(runId: string): Promise<RecordChange[]> {
    const run = await this.state.runs.open(runId);
    if (!run) throw runNotFound(this.state, runId);
    return readRunChanges(run);
  }

  /** Which runs created, merged, changed or deleted a record, oldest first (empty when none touched it). */
  history(record: RecordKey): Promise<RecordHistoryItem[]> {
    return readRecordHistory(this.state.runs, record);
  }

  /** Whether a runner holds the lock of this scope, and who. */
  lockState(): Promise<DreamLockStatus> {
    return this.state.lock.state();
  }

  /**
   * Restores what a run deleted or replaced and removes what it created, unless changed since
   * (SPEC O8). Holds the lock; once the lock is lost, stops before its next write with LOCK_LOST,
   * leaving the run to be undone again.
   */
  async undo(runId: string): Promise<UndoReport> {
    const folder = await this.state.runs.open(runId);
    if (!folder) {
      throw runNotFound(this.state, runId);
    }
    return holdingLock(this.state.lock, (_, lost) => undoRun(folder, this.services, lost));
  }

  /**
   * Finishes runs that a crash interrupted (SPEC B2): the pass that was being applied is rolled
   * forward from its fsynced plan and journal, so no source is left deleted without its merge
   * or merged without being deleted, and then committed (its cursor moves as after a clean apply). Call at startup before the first run. While another runner
   * holds the lock, its run is not interrupted: nothing is recovered and the list is empty.
   */
  recover(): Promise<string[]> {
    return recoverRuns(this.engine);
  }
}
