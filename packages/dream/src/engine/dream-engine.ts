import { isReverieError, newId, ReverieError, ReverieValidationError } from '@reverie/core';
import { ModelGateway } from '../gateway/model-gateway';
import { ledgerLineFor } from './ledger-line-for';
import type { DreamLockStatus, PlanApplied, SavedPass, SavedPlan } from '@reverie/dream-state';
import { assertStillHeld, type DreamRun, type DreamStateStore, holdingLock } from '@reverie/dream-state';
import { renderPlanSummary } from '../plans/render-plan-summary';
import { type RecordChange, type RecordHistoryItem, type RecordKey, readRecordHistory, readRunChanges } from '../runs/run-changes';
import { listRunSummaries, readRunDetails, type RunDetails, runNotFound, type RunSummary } from '../runs/run-details';
import type { CycleReport, DreamPass, DreamPhase, DreamServices, PassContext, PassOutcome, PassPlan, PassSkip } from './dream-types';
import { restampLineageRun } from './restamp-lineage-run';
import { faultPoint } from './fault-points';
import { asJsonRoundTrip } from './json-plain';
import { applyJournalled, archiveOperations, orderOperations } from './operation-applier';
import { renderCycleSummary } from './render-cycle-summary';
import { undoRun, type UndoReport } from './undo-run';
import { describeServiceNeeds } from './service-needs';

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

export interface DreamEngineOptions {
  /** A saved plan older than this (ms) is refused by `apply` with PLAN_EXPIRED (default 24 h). */
  planMaxAgeMs?: number;
  /** The longest model reply read at all, in characters (default 100,000); a longer one is refused before it is parsed. */
  maxReplyChars?: number;
}

/** How long a dry run's plan can be applied: a day. */
export const DEFAULT_PLAN_MAX_AGE_MS = 24 * 3_600_000;

/** What `apply(planId)` takes besides the plan. */
export type ApplyRequest = Pick<RunRequest, 'signal' | 'onPass'>;

/** A pending plan as `plans()` lists it. */
export interface PlanSummary {
  planId: string;
  createdAt: string;
  /** After this, `apply` refuses the plan (PLAN_EXPIRED). */
  expiresAt: string;
  expired: boolean;
  /** The trigger of the dry run that made it. */
  trigger: string;
  /** Where the plan is, when the state store has a place to show: its folder with `plan.json` (what would be applied) and `summary.md` (for people). */
  planFolder?: string;
  /** Every pass of the dry run, with how many operations it would apply. */
  passes: Array<{ name: string; status: SavedPass['status']; operations: number }>;
  operations: number;
}

/** The phases of a cycle, in the order they run (SPEC O1). */
export const DREAM_PHASES: readonly DreamPhase[] = ['light-sleep', 'rem', 'deep-sleep'];

/** What `RunRequest.onPass` is told: `index` counts from 0 among the `total` selected passes. */
export type PassProgress =
  | { type: 'start'; name: string; phase: DreamPhase; index: number; total: number }
  | { type: 'finish'; outcome: PassOutcome; index: number; total: number };

/**
 * Runs the dream passes in cycle order (SPEC "Pass names and order"). Each pass plans; the
 * engine writes the plan and an archive of everything it will replace or delete, fsynced,
 * before it touches a store; then applies the operations, saves first and deletes last,
 * journalling every step. A failing pass is recorded and the others still run; a user turn
 * aborts the in-flight model call and ends the cycle cleanly. Every run can be undone. A real
 * run holds the scope's lock (SPEC O3) and appends one ledger line per pass (SPEC O5). All of it
 * is kept in `services.state` (see `DreamStateStore`).
 */
export class DreamEngine {
  private readonly state: DreamStateStore;
  private readonly planMaxAgeMs: number;
  private readonly maxReplyChars: number | undefined;

  constructor(
    private readonly services: DreamServices,
    private readonly passes: readonly DreamPass[],
    options: DreamEngineOptions = {},
  ) {
    this.state = services.state;
    this.planMaxAgeMs = options.planMaxAgeMs ?? DEFAULT_PLAN_MAX_AGE_MS;
    this.maxReplyChars = options.maxReplyChars;
  }

  /** The passes this engine knows, in cycle order. */
  get passNames(): string[] {
    return this.passes.map((pass) => pass.name);
  }

  /**
   * Runs the selected passes. A real run holds the scope's lock throughout (SPEC O3)
   * and throws LOCK_HELD when another runner has it; a dry run takes no lock and writes nothing.
   */
  async run(request: RunRequest): Promise<CycleReport> {
    const selected = this.select(request);
    const runId = newId();
    if (request.dryRun) return this.cycle(request, selected, runId);
    return holdingLock(this.state.lock, (_, lost) => this.cycle(request, selected, runId, { lost }), runId);
  }

  /**
   * Re-runs the passes that failed in `runId` (its dead letter, SPEC O7), as a new run with
   * trigger 'retry'. When every one of them ends ok the dead letter is removed; otherwise the
   * dead letter records this attempt and stays. RUN_NOT_FOUND when there is no such run;
   * NOT_FOUND when the run has no dead letter (nothing failed, or it was already retried).
   */
  async retry(runId: string, options: { signal?: AbortSignal } = {}): Promise<CycleReport> {
    const { clock } = this.services;
    const letter = await this.state.deadLetters.read(runId);
    if (!letter) {
      if (!(await this.state.runs.open(runId))) throw runNotFound(this.state, runId);
      throw new ReverieError('NOT_FOUND', `Dream run ${runId} has no dead letter: none of its passes failed, or a retry already succeeded.`, { details: { runId } });
    }
    const request: RunRequest = { passes: letter.passes.map((pass) => pass.name), trigger: 'retry', ...(options.signal ? { signal: options.signal } : {}) };
    const selected = this.select(request);
    const needModel = this.services.model === undefined ? selected.filter((pass) => pass.model === 'required').map((pass) => pass.name) : [];
    if (needModel.length > 0) {
      // Running them would only skip them; the dead letter stays for a retry with a model.
      throw new ReverieError(
        'MODEL_UNAVAILABLE',
        `Dream run ${runId} failed in ${needModel.join(', ')}, which need${needModel.length === 1 ? 's' : ''} a language model: retry with a model configured (REVERIE_MODEL for the CLI). Its dead letter is kept.`,
        { details: { runId, passes: needModel } },
      );
    }
    const retryId = newId();
    const report = await holdingLock(this.state.lock, (_, lost) => this.cycle(request, selected, retryId, { retryOf: runId, lost }), retryId);
    const notOk = report.passes.filter((pass) => pass.status !== 'ok' && pass.status !== 'warning');
    if (notOk.length === 0 && !report.interrupted) {
      await this.state.deadLetters.remove(runId);
    } else {
      await this.state.deadLetters.write({
        ...letter,
        retries: (letter.retries ?? 0) + 1,
        lastRetry: {
          runId: retryId,
          at: clock.now().toISOString(),
          passes: notOk.map((pass) => ({
            name: pass.name,
            status: pass.status,
            ...(pass.status === 'skipped' ? { error: pass.reason } : pass.error === undefined ? {} : { error: pass.error }),
          })),
        },
      });
    }
    return report;
  }

  /**
   * Applies the plan a dry run saved, exactly: its operations, with their optimistic checks (an
   * entry changed since the plan is skipped and reported as a conflict), then each pass's commit.
   * No model is called. The result is a normal run (trigger 'apply'): run folder, ledger lines,
   * undo. Holds the lock (LOCK_HELD). PLAN_NOT_FOUND, PLAN_APPLIED (a plan is applied once),
   * PLAN_EXPIRED (older than `planMaxAgeMs`), UNKNOWN_PASS (a pass this engine does not have).
   */
  async apply(planId: string, request: ApplyRequest = {}): Promise<CycleReport> {
    this.applicable(planId, await this.state.plans.read(planId));
    const runId = newId();
    return holdingLock(this.state.lock, async (_, lost) => {
      // Read again under the lock: another runner may have applied it meanwhile.
      const { plan, applied } = await this.state.plans.read(planId);
      this.applicable(planId, { plan, ...(applied ? { applied } : {}) });
      const selected = plan.passes.map((saved) => this.passByName(saved.name));
      return this.cycle({ trigger: 'apply', ...request }, selected, runId, { plan, lost });
    }, runId);
  }

  /** The plans dry runs saved that are not applied yet, newest first, with whether they expired. */
  async pendingPlans(): Promise<PlanSummary[]> {
    const now = this.services.clock.now().getTime();
    return (await this.state.plans.list())
      .filter(({ applied }) => applied === undefined)
      .map(({ plan, location }) => {
        const expiresAt = Date.parse(plan.createdAt) + this.planMaxAgeMs;
        const passes = plan.passes.map((saved) => ({ name: saved.name, status: saved.status, operations: saved.status === 'planned' ? saved.operations.length : 0 }));
        return {
          planId: plan.planId,
          createdAt: plan.createdAt,
          expiresAt: new Date(expiresAt).toISOString(),
          expired: now > expiresAt,
          trigger: plan.trigger,
          ...(location === undefined ? {} : { planFolder: location }),
          passes,
          operations: passes.reduce((sum, pass) => sum + pass.operations, 0),
        };
      });
  }

  /** Throws when the plan cannot be applied (again, or any more). */
  private applicable(planId: string, found: { plan: SavedPlan; applied?: PlanApplied }): void {
    if (found.applied) {
      throw new ReverieError(
        'PLAN_APPLIED',
        `Dream plan ${planId} was already applied, by run ${found.applied.runId} at ${found.applied.appliedAt}; a plan is applied once. Inspect that run with dreams.show('${found.applied.runId}') (reverie dream show ${found.applied.runId}), undo it with dreams.undo, or make a new plan with a dry run.`,
        { details: { planId, ...found.applied } },
      );
    }
    const age = this.services.clock.now().getTime() - Date.parse(found.plan.createdAt);
    if (age > this.planMaxAgeMs) {
      throw new ReverieError(
        'PLAN_EXPIRED',
        `Dream plan ${planId} was made at ${found.plan.createdAt}, more than ${formatHours(this.planMaxAgeMs)} ago (planMaxAge): memory has likely moved on since. Make a new plan with a dry run (reverie dream run --dry-run) and apply that one, or raise withDreaming({ planMaxAge }).`,
        { details: { planId, createdAt: found.plan.createdAt, planMaxAgeMs: this.planMaxAgeMs } },
      );
    }
  }

  private passByName(name: string): DreamPass {
    const pass = this.passes.find((candidate) => candidate.name === name);
    if (!pass) {
      throw new ReverieValidationError('UNKNOWN_PASS', `The plan names pass ${JSON.stringify(name)}, which this engine does not have (its passes: ${this.passNames.join(', ')}). Apply it with the configuration that made it, or make a new plan.`, {
        details: { pass: name, passes: this.passNames },
      });
    }
    return pass;
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
   * Runs the passes under the lock. Once the lock is lost (`from.lost`), the cycle stops before its
   * next write with LOCK_LOST — no report, ledger line or manifest update — leaving the run as a
   * crash would, for the next runner's recovery; the model call in flight is aborted too.
   */
  private async cycle(
    request: RunRequest,
    selected: DreamPass[],
    runId: string,
    from: { retryOf?: string | undefined; plan?: SavedPlan; lost?: AbortSignal | undefined } = {},
  ): Promise<CycleReport> {
    const { clock, logger, dataPath } = this.services;
    const startedAt = clock.now();
    const dryRun = request.dryRun ?? false;
    const saved = from.plan;
    const folder = dryRun
      ? undefined
      : await this.state.runs.create({ runId, trigger: request.trigger, startedAt: startedAt.toISOString(), retryOf: from.retryOf, planId: saved?.planId });
    // Claimed only once its run folder exists: a crash before leaves the plan pending, one after leaves a run to recover.
    if (saved) await this.state.plans.markApplied(saved.planId, { runId, appliedAt: startedAt.toISOString() });
    // Applying a saved plan asks no model, so a user turn need not stop it; an explicit signal still does.
    const { lost } = from;
    const signals = [request.signal, saved ? undefined : this.services.activity?.userTurnSignal(), lost].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
    const gateway =
      this.services.model && !saved
        ? new ModelGateway({
            model: this.services.model,
            ...(this.maxReplyChars === undefined ? {} : { maxReplyChars: this.maxReplyChars }),
            ...(dataPath === undefined ? {} : { dataPath }),
            logger,
            artifact: async (name: string, content: string) => {
              await folder?.writeArtifact(name, content);
            },
          })
        : undefined;

    const outcomes: PassOutcome[] = [];
    const keep: SavedPass[] = [];
    const tell = (progress: PassProgress) => {
      try {
        request.onPass?.(progress);
      } catch (error) {
        logger.warn('A dream progress callback threw; the run goes on.', { error: String(error) });
      }
    };
    const record = (outcome: PassOutcome, index: number) => {
      outcomes.push(outcome);
      tell({ type: 'finish', outcome, index, total: selected.length });
    };
    let interrupted: string | undefined;
    for (const [index, pass] of selected.entries()) {
      assertStillHeld(lost);
      if (signal.aborted) {
        interrupted = describeAbort(signal);
        break;
      }
      const passStartedAt = clock.now();
      const stored = saved?.passes.find((candidate) => candidate.name === pass.name);
      const skipped = stored ? (stored.status === 'skipped' ? stored.reason : this.missingServices(pass)) : this.skipReason(pass, gateway);
      if (skipped === undefined) tell({ type: 'start', name: pass.name, phase: pass.phase, index, total: selected.length });
      const outcome: PassOutcome =
        skipped === undefined
          ? await this.runPass(pass, { runId, gateway, signal, lost, folder, dryRun, keep, ...(stored && saved ? { stored, planId: saved.planId, plannedBy: saved.runId } : {}) })
          : { name: pass.name, phase: pass.phase, status: 'skipped', reason: skipped };
      if (outcome.status === 'skipped') keep.push({ name: pass.name, phase: pass.phase, status: 'skipped', reason: outcome.reason });
      record(outcome, index);
      assertStillHeld(lost);
      if (!dryRun) await this.recordInLedger(outcome, { runId, trigger: request.trigger, startedAt: passStartedAt, completedAt: clock.now() });
      if (signal.aborted && outcome.status === 'failed') {
        interrupted = describeAbort(signal);
        break;
      }
    }

    const report: CycleReport = {
      runId,
      trigger: request.trigger,
      dryRun,
      startedAt: startedAt.toISOString(),
      completedAt: clock.now().toISOString(),
      passes: outcomes,
      ...(folder?.location === undefined ? {} : { runFolder: folder.location }),
      ...(interrupted ? { interrupted } : {}),
      ...(from.retryOf ? { retryOf: from.retryOf } : {}),
      ...(saved ? { planId: saved.planId } : {}),
    };
    assertStillHeld(lost);
    if (folder) await this.finish(folder, report);
    if (folder && !interrupted && outcomes.every((outcome) => outcome.status !== 'failed')) await this.compactMemoryFeed(lost);
    if (dryRun) {
      const planId = newId();
      const plan: SavedPlan = { schemaVersion: 1, planId, createdAt: report.startedAt, trigger: request.trigger, runId, ...(interrupted ? { interrupted } : {}), passes: keep };
      const { location } = await this.state.plans.save(plan, renderPlanSummary(plan));
      if (location !== undefined) report.planFolder = location;
      report.planId = planId;
    }
    logger.info('Dream cycle finished.', { runId, trigger: request.trigger, dryRun, interrupted, planId: report.planId });
    return report;
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
  async recover(): Promise<string[]> {
    try {
      return await holdingLock(this.state.lock, (_, lost) => this.recoverLocked(lost));
    } catch (error) {
      if (!isReverieError(error, 'LOCK_HELD')) throw error;
      this.services.logger.info('Another runner holds the dream lock; its runs are in progress, nothing to recover.', { error: error.message });
      return [];
    }
  }

  private async recoverLocked(lost: AbortSignal | undefined): Promise<string[]> {
    const recovered: string[] = [];
    for (const { manifest } of await this.state.runs.list()) {
      if (manifest.status !== 'running') continue;
      const folder = await this.state.runs.open(manifest.runId);
      if (!folder) continue;
      if (manifest.applying) {
        const plan = await folder.readPlan(manifest.applying);
        const done = (await folder.readJournal()).filter((line) => line.pass === manifest.applying);
        const next = done.length === 0 ? 0 : Math.max(...done.map((line) => line.index)) + 1;
        // The crash may have come before the archive was complete: archive again what has not
        // changed since the plan (a record already applied has a new updatedAt and keeps the
        // pre-image archived before it), so undo can restore everything the roll-forward touches.
        await archiveOperations(folder, manifest.applying, plan.operations, this.services);
        const pass = this.passes.find((candidate) => candidate.name === manifest.applying);
        const checks = pass ? { conversationLogHorizon: () => this.conversationLogHorizon(pass) } : {};
        await applyJournalled(folder, manifest.applying, plan.operations, this.services, next, { resumed: true, checks, lost });
        assertStillHeld(lost);
        if (pass) await commitPass(pass, this.services, plan.commit);
      }
      assertStillHeld(lost);
      await folder.update({ status: 'interrupted', completedAt: this.services.clock.now().toISOString() });
      this.services.logger.warn('Finished a dream run that was interrupted by a crash.', { runId: manifest.runId, pass: manifest.applying });
      recovered.push(manifest.runId);
    }
    return recovered;
  }

  private select(request: RunRequest): DreamPass[] {
    if (request.phase !== undefined && !DREAM_PHASES.includes(request.phase)) {
      throw new ReverieValidationError('UNKNOWN_PHASE', `Unknown phase ${JSON.stringify(request.phase)}: use one of ${DREAM_PHASES.join(', ')}.`, {
        details: { phase: request.phase, phases: [...DREAM_PHASES] },
      });
    }
    const names = request.pass === undefined ? request.passes : [...(request.passes ?? []), request.pass];
    for (const name of names ?? []) {
      if (!this.passes.some((pass) => pass.name === name)) {
        throw new ReverieValidationError('UNKNOWN_PASS', `Unknown pass ${JSON.stringify(name)}: the passes are ${this.passNames.join(', ')}.`, {
          details: { pass: name, passes: this.passNames },
        });
      }
    }
    return this.passes.filter((pass) => (request.phase === undefined || pass.phase === request.phase) && (names === undefined || names.includes(pass.name)));
  }

  /** Why the pass cannot run in this cycle (a missing service, no model), or undefined. */
  private skipReason(pass: DreamPass, gateway: ModelGateway | undefined): string | undefined {
    const missing = this.missingServices(pass);
    if (missing !== undefined) return missing;
    if (pass.model === 'required' && !gateway) return 'needs a language model';
    return undefined;
  }

  /** `needs …` when a service the pass requires is not configured, or undefined. */
  private missingServices(pass: DreamPass): string | undefined {
    const missing = pass.requires.filter((service) => this.services[service] === undefined);
    return missing.length > 0 ? describeServiceNeeds(missing) : undefined;
  }

  /** Appends the pass's ledger line (SPEC O5); a ledger that cannot be written is logged, never fatal to the run. */
  private async recordInLedger(outcome: PassOutcome, run: Parameters<typeof ledgerLineFor>[1]): Promise<void> {
    try {
      await this.state.ledger.append(ledgerLineFor(outcome, run));
    } catch (error) {
      this.services.logger.error('Could not append to the dream ledger; the run goes on, but status will not show this pass.', {
        ...(this.state.location === undefined ? {} : { state: this.state.location }),
        pass: outcome.name,
        error: String((error as Error)?.message ?? error),
      });
    }
  }

  /**
   * Plans the pass (or takes its `stored` plan), then, in a real run, writes the plan, archives,
   * applies and commits it. A dry run adds what it planned to `keep`, for the saved plan.
   */
  private async runPass(
    pass: DreamPass,
    run: {
      runId: string;
      gateway: ModelGateway | undefined;
      signal: AbortSignal;
      lost: AbortSignal | undefined;
      folder: DreamRun | undefined;
      dryRun: boolean;
      keep: SavedPass[];
      stored?: SavedPass;
      planId?: string;
      /** The dry run that made the stored plan, when the plan says (SPEC B10: its saves' lineage names the applying run instead). */
      plannedBy?: string | undefined;
    },
  ): Promise<PassOutcome> {
    const started = performance.now();
    const tokensBefore = { ...(run.gateway?.usage ?? { inputTokens: 0, outputTokens: 0 }) };
    const refusedBefore = run.gateway?.refusals.length ?? 0;
    const tokens = () => ({
      input: (run.gateway?.usage.inputTokens ?? 0) - tokensBefore.inputTokens,
      output: (run.gateway?.usage.outputTokens ?? 0) - tokensBefore.outputTokens,
    });
    const context: PassContext = {
      runId: run.runId,
      services: this.services,
      gateway: run.gateway,
      signal: run.signal,
      conversationLogHorizon: () => this.conversationLogHorizon(pass),
      artifact: async (name, content) => {
        await run.folder?.writeArtifact(name, content);
      },
      now: () => this.services.clock.now(),
    };
    if (run.stored?.status === 'failed') {
      return this.failed(pass, `could not plan in the dry run that made plan ${run.planId}: ${run.stored.error}`, tokens(), started);
    }
    let planned: PassPlan | PassSkip;
    try {
      planned = run.stored?.status === 'planned' ? fromSavedPass(run.stored, run.plannedBy, run.runId) : await pass.plan(context);
      // The pass's prompts and replies are on disk (unsynced) before its plan is recorded.
      await run.gateway?.settle();
    } catch (error) {
      await run.gateway?.settle().catch(() => undefined);
      assertStillHeld(run.lost);
      const outcome = this.failed(pass, error, tokens(), started);
      if (outcome.status === 'failed') run.keep.push({ name: pass.name, phase: pass.phase, status: 'failed', error: outcome.error ?? 'failed' });
      return outcome;
    }
    if ('skipped' in planned) return { name: pass.name, phase: pass.phase, status: 'skipped', reason: planned.skipped };

    const operations = orderOperations(planned.operations);
    // Replies the gateway refused (too long, no JSON, not the contract) are refusals of this pass too.
    const refusals = [...(run.gateway?.refusals.slice(refusedBefore) ?? []), ...planned.refusals];
    const base = {
      name: pass.name,
      phase: pass.phase,
      itemsProcessed: planned.itemsProcessed,
      notes: planned.notes,
      refusals,
      ...(planned.misbehaviour && planned.misbehaviour.length > 0 ? { misbehaviour: planned.misbehaviour } : {}),
      ...(planned.details === undefined ? {} : { details: planned.details }),
      tokens: tokens(),
    };
    const failure = planned.failure === undefined ? {} : { error: planned.failure };
    const status = (applied: number | undefined) => outcomeStatus(planned, applied);
    if (run.dryRun || !run.folder) {
      run.keep.push({
        name: pass.name,
        phase: pass.phase,
        status: 'planned',
        itemsProcessed: planned.itemsProcessed,
        operations,
        notes: planned.notes,
        refusals,
        ...(base.misbehaviour ? { misbehaviour: base.misbehaviour } : {}),
        ...(planned.proposals ? { proposals: planned.proposals } : {}),
        ...(planned.details === undefined ? {} : { details: planned.details }),
        ...(planned.failure === undefined ? {} : { failure: planned.failure }),
        ...(planned.commit === undefined ? {} : { commit: planned.commit }),
      });
      return { ...base, ...status(undefined), ...failure, applied: 0, conflicts: 0, planned: operations, durationMs: performance.now() - started };
    }
    try {
      assertStillHeld(run.lost);
      await run.folder.writePlan({
        pass: pass.name,
        operations,
        notes: planned.notes,
        refusals,
        ...(base.misbehaviour ? { misbehaviour: base.misbehaviour } : {}),
        ...(planned.commit === undefined ? {} : { commit: planned.commit }),
      });
      faultPoint('plan-written');
      assertStillHeld(run.lost);
      await archiveOperations(run.folder, pass.name, operations, this.services);
      faultPoint('archive-written');
      const checks = { conversationLogHorizon: () => this.conversationLogHorizon(pass) };
      const { applied, conflicts, conflicted } = await applyJournalled(run.folder, pass.name, operations, this.services, 0, { checks, lost: run.lost });
      faultPoint('pass-applied');
      assertStillHeld(run.lost);
      await commitPass(pass, this.services, planned.commit);
      faultPoint('after-commit');
      // Until here a crash leaves the pass marked as applying: recovery rolls it forward and commits.
      assertStillHeld(run.lost);
      await run.folder.update({ applying: undefined });
      if (planned.failure !== undefined) {
        this.services.logger.error(`Dream pass ${pass.name} failed; its clean-up was applied and the other passes still run.`, { error: planned.failure });
      }
      return { ...base, ...status(applied), ...failure, applied, conflicts, ...(conflicted.length > 0 ? { conflicted } : {}), durationMs: performance.now() - started };
    } catch (error) {
      assertStillHeld(run.lost);
      return this.failed(pass, error, tokens(), started);
    }
  }

  /**
   * After a successful cycle: lets the memory store forget the changes of its feed that every
   * pass reading it has passed. A reader that can never run here holds nothing back (as for the
   * conversation log); one that runs later from an older cursor is answered with a reset and
   * lists every entry. A failure only costs the space: it is logged, and the next cycle tries again.
   */
  private async compactMemoryFeed(lost: AbortSignal | undefined): Promise<void> {
    const { memory, logger } = this.services;
    if (!memory?.compactChanges) return;
    const keep: string[] = [];
    for (const pass of this.passes) {
      if (pass.memoryFeedCursors && this.canEverRun(pass)) keep.push(...(await pass.memoryFeedCursors(this.services)));
    }
    if (keep.length === 0) return;
    assertStillHeld(lost);
    try {
      const { removed } = await memory.compactChanges(keep);
      if (removed > 0) logger.info('Compacted the memory change feed.', { removed });
    } catch (error) {
      logger.warn('Could not compact the memory change feed; the next cycle tries again.', { error: String((error as Error)?.message ?? error) });
    }
  }

  /** The lowest read position of every other pass that reads the conversation log with a cursor. */
  private async conversationLogHorizon(asking: DreamPass): Promise<number> {
    let horizon = Number.POSITIVE_INFINITY;
    for (const pass of this.passes) {
      // A reader that can never run here (a missing service, no model) holds nothing back.
      if (pass === asking || !pass.conversationLogReadThrough || !this.canEverRun(pass)) continue;
      horizon = Math.min(horizon, await pass.conversationLogReadThrough(this.services));
    }
    return horizon;
  }

  private canEverRun(pass: DreamPass): boolean {
    if (pass.requires.some((service) => this.services[service] === undefined)) return false;
    return pass.model !== 'required' || this.services.model !== undefined;
  }

  private failed(pass: DreamPass, error: unknown, tokens: { input: number; output: number }, started: number): PassOutcome {
    const message = isReverieError(error) ? `${error.code}: ${error.message}` : String((error as Error)?.message ?? error);
    this.services.logger.error(`Dream pass ${pass.name} failed; the other passes still run.`, { error: message });
    return {
      name: pass.name,
      phase: pass.phase,
      status: 'failed',
      itemsProcessed: 0,
      applied: 0,
      conflicts: 0,
      notes: [],
      refusals: [],
      error: message,
      tokens,
      durationMs: performance.now() - started,
    };
  }

  private async finish(folder: DreamRun, report: CycleReport): Promise<void> {
    const failed = report.passes.filter((pass) => pass.status === 'failed');
    await folder.writeArtifact('report.json', `${JSON.stringify(report, null, 2)}\n`);
    await folder.writeArtifact('summary.md', renderCycleSummary(report));
    await folder.syncArtifacts();
    faultPoint('run-finishing');
    await folder.update({
      status: report.interrupted ? 'interrupted' : failed.length > 0 ? 'failed' : 'complete',
      completedAt: report.completedAt,
      applying: undefined,
    });
    // A retry's failures are recorded on the dead letter of the run it retried (see retry()).
    if (failed.length > 0 && report.retryOf === undefined) {
      await this.state.deadLetters.write({
        runId: report.runId,
        trigger: report.trigger,
        failedAt: report.completedAt,
        passes: failed.map((pass) => ({ name: pass.name, ...(pass.status === 'failed' && pass.error !== undefined ? { error: pass.error } : {}) })),
        ...(folder.location === undefined ? {} : { runFolder: folder.location }),
      });
    }
  }
}

/**
 * `failed` when the pass's main work failed; `warning` when the model proposed changes and none
 * was accepted by the guards or (in a real run, `applied` known) none was applied; else `ok`.
 */
function outcomeStatus(planned: PassPlan, applied: number | undefined): { status: 'ok' | 'warning' | 'failed'; warning?: string } {
  if (planned.failure !== undefined) return { status: 'failed' };
  const misbehaviour = planned.misbehaviour?.length ?? 0;
  if (misbehaviour > 0) return { status: 'warning', warning: `${misbehaviour} model repl${misbehaviour === 1 ? 'y was' : 'ies were'} refused whole for breaking a run budget (see misbehaviour)` };
  const proposals = planned.proposals;
  if (!proposals || proposals.proposed === 0) return { status: 'ok' };
  if (proposals.accepted === 0) {
    return { status: 'warning', warning: `the model proposed ${proposals.proposed} change(s) and the guards accepted none (see refusals)` };
  }
  if (applied === 0) {
    return { status: 'warning', warning: `the model proposed ${proposals.proposed} change(s), ${proposals.accepted} passed the guards, and none was applied (see conflicts)` };
  }
  return { status: 'ok' };
}

/** A saved pass plan as the engine applies it. */
function fromSavedPass(saved: Extract<SavedPass, { status: 'planned' }>, plannedBy: string | undefined, runId: string): PassPlan {
  return {
    operations: plannedBy === undefined ? saved.operations : restampLineageRun(saved.operations, plannedBy, runId),
    itemsProcessed: saved.itemsProcessed,
    notes: saved.notes,
    refusals: saved.refusals,
    ...(saved.misbehaviour ? { misbehaviour: saved.misbehaviour } : {}),
    ...(saved.proposals ? { proposals: saved.proposals } : {}),
    ...(saved.details === undefined ? {} : { details: saved.details }),
    ...(saved.failure === undefined ? {} : { failure: saved.failure }),
    ...(saved.commit === undefined ? {} : { commit: saved.commit }),
  };
}

function formatHours(ms: number): string {
  const hours = ms / 3_600_000;
  return `${Number.isInteger(hours) ? hours : hours.toFixed(2)} h`;
}

/**
 * Hands a pass its plan's `commit` data once the plan's operations are applied, as JSON gives it
 * back (`asJsonRoundTrip`), so a direct run commits exactly what a saved plan would.
 */
async function commitPass(pass: DreamPass, services: DreamServices, data: unknown): Promise<void> {
  if (data === undefined || !pass.commit) return;
  await pass.commit(services, asJsonRoundTrip(data));
}

function describeAbort(signal: AbortSignal): string {
  const reason = signal.reason as unknown;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'cancelled';
}
