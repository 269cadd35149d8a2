import { writeFileAtomic } from '@reverie/file-store';
import { join } from 'node:path';
import { isReverieError, newId, ReverieError, ReverieValidationError } from '@reverie/core';
import { ModelGateway } from '../gateway/model-gateway';
import { RunFolder } from '../runs/run-folder';
import { failuresDir } from '../runs/run-paths';
import type { CycleReport, DreamPass, DreamPhase, DreamServices, PassContext, PassOutcome, PassPlan, PassSkip } from './dream-types';
import { applyJournalled, archiveOperations, orderOperations } from './operation-applier';
import { renderCycleSummary } from './render-cycle-summary';
import { undoRun, type UndoReport } from './undo-run';

export interface RunRequest {
  /** Only these passes (by name), in cycle order. */
  passes?: string[];
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

/** What `RunRequest.onPass` is told: `index` counts from 0 among the `total` selected passes. */
export type PassProgress =
  | { type: 'start'; name: string; phase: DreamPhase; index: number; total: number }
  | { type: 'finish'; outcome: PassOutcome; index: number; total: number };

const PHASES: readonly DreamPhase[] = ['light-sleep', 'rem', 'deep-sleep'];

/**
 * Runs the dream passes in cycle order (SPEC "Pass names and order"). Each pass plans; the
 * engine writes the plan and an archive of everything it will replace or delete, fsynced,
 * before it touches a store; then applies the operations, saves first and deletes last,
 * journalling every step. A failing pass is recorded and the others still run; a user turn
 * aborts the in-flight model call and ends the cycle cleanly. Every run can be undone.
 */
export class DreamEngine {
  constructor(
    private readonly services: DreamServices,
    private readonly passes: readonly DreamPass[],
  ) {}

  /** The passes this engine knows, in cycle order. */
  get passNames(): string[] {
    return this.passes.map((pass) => pass.name);
  }

  async run(request: RunRequest): Promise<CycleReport> {
    const selected = this.select(request);
    const { clock, logger, dataPath } = this.services;
    const runId = newId();
    const startedAt = clock.now();
    const dryRun = request.dryRun ?? false;
    const folder = dryRun ? undefined : await RunFolder.create(dataPath, runId, request.trigger, startedAt);
    const signals = [request.signal, this.services.activity?.userTurnSignal()].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
    const gateway = this.services.model
      ? new ModelGateway({
          model: this.services.model,
          dataPath,
          logger,
          artifact: async (name: string, content: string) => {
            await folder?.writeArtifact(name, content);
          },
        })
      : undefined;

    const outcomes: PassOutcome[] = [];
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
      if (signal.aborted) {
        interrupted = describeAbort(signal);
        break;
      }
      const missing = pass.requires.filter((service) => this.services[service] === undefined);
      if (missing.length > 0) {
        record({ name: pass.name, phase: pass.phase, status: 'skipped', reason: `needs ${missing.join(', ')}` }, index);
        continue;
      }
      if (pass.model === 'required' && !gateway) {
        record({ name: pass.name, phase: pass.phase, status: 'skipped', reason: 'needs a language model' }, index);
        continue;
      }
      tell({ type: 'start', name: pass.name, phase: pass.phase, index, total: selected.length });
      const outcome = await this.runPass(pass, { runId, gateway, signal, folder, dryRun });
      record(outcome, index);
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
      ...(folder ? { runFolder: folder.dir } : {}),
      ...(interrupted ? { interrupted } : {}),
    };
    if (folder) await this.finish(folder, report);
    logger.info('Dream cycle finished.', { runId, trigger: request.trigger, dryRun, interrupted });
    return report;
  }

  /** Restores what a run deleted or replaced and removes what it created, unless changed since (SPEC O8). */
  async undo(runId: string): Promise<UndoReport> {
    const folder = await RunFolder.open(this.services.dataPath, runId);
    if (!folder) {
      throw new ReverieError('NOT_FOUND', `No dream run ${JSON.stringify(runId)} in ${this.services.dataPath}: list the runs in _system/dreams/runs/.`);
    }
    return undoRun(folder, this.services);
  }

  /**
   * Finishes runs that a crash interrupted (SPEC B2): the pass that was being applied is rolled
   * forward from its fsynced plan and journal, so no source is left deleted without its merge
   * or merged without being deleted. Call at startup before the first run.
   */
  async recover(): Promise<string[]> {
    const recovered: string[] = [];
    for (const { manifest } of await RunFolder.list(this.services.dataPath)) {
      if (manifest.status !== 'running') continue;
      const folder = (await RunFolder.open(this.services.dataPath, manifest.runId))!;
      if (manifest.applying) {
        const plan = await folder.readPlan(manifest.applying);
        const done = (await folder.readJournal()).filter((line) => line.pass === manifest.applying);
        const next = done.length === 0 ? 0 : Math.max(...done.map((line) => line.index)) + 1;
        await applyJournalled(folder, manifest.applying, plan.operations, this.services, next);
      }
      await folder.update({ status: 'interrupted', completedAt: this.services.clock.now().toISOString() });
      this.services.logger.warn('Finished a dream run that was interrupted by a crash.', { runId: manifest.runId, pass: manifest.applying });
      recovered.push(manifest.runId);
    }
    return recovered;
  }

  private select(request: RunRequest): DreamPass[] {
    if (request.phase !== undefined && !PHASES.includes(request.phase)) {
      throw new ReverieValidationError('INVALID_INPUT', `Unknown phase ${JSON.stringify(request.phase)}: use one of ${PHASES.join(', ')}.`);
    }
    for (const name of request.passes ?? []) {
      if (!this.passes.some((pass) => pass.name === name)) {
        throw new ReverieValidationError('INVALID_INPUT', `Unknown pass ${JSON.stringify(name)}: the passes are ${this.passNames.join(', ')}.`);
      }
    }
    return this.passes.filter(
      (pass) => (request.phase === undefined || pass.phase === request.phase) && (request.passes === undefined || request.passes.includes(pass.name)),
    );
  }

  private async runPass(
    pass: DreamPass,
    run: { runId: string; gateway: ModelGateway | undefined; signal: AbortSignal; folder: RunFolder | undefined; dryRun: boolean },
  ): Promise<PassOutcome> {
    const started = performance.now();
    const tokensBefore = { ...(run.gateway?.usage ?? { inputTokens: 0, outputTokens: 0 }) };
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
    let planned: PassPlan | PassSkip;
    try {
      planned = await pass.plan(context);
    } catch (error) {
      return this.failed(pass, error, tokens(), started);
    }
    if ('skipped' in planned) return { name: pass.name, phase: pass.phase, status: 'skipped', reason: planned.skipped };

    const operations = orderOperations(planned.operations);
    const base = {
      name: pass.name,
      phase: pass.phase,
      itemsProcessed: planned.itemsProcessed,
      notes: planned.notes,
      refusals: planned.refusals,
      ...(planned.details === undefined ? {} : { details: planned.details }),
      tokens: tokens(),
    };
    const status = planned.failure === undefined ? ('ok' as const) : ('failed' as const);
    const failure = planned.failure === undefined ? {} : { error: planned.failure };
    if (run.dryRun || !run.folder) {
      return { ...base, status, ...failure, applied: 0, conflicts: 0, planned: operations, durationMs: performance.now() - started };
    }
    try {
      await run.folder.writePlan({ pass: pass.name, operations, notes: planned.notes, refusals: planned.refusals });
      await archiveOperations(run.folder, pass.name, operations, this.services);
      const { applied, conflicts } = await applyJournalled(run.folder, pass.name, operations, this.services);
      await run.folder.update({ applying: undefined });
      await planned.afterApply?.();
      if (planned.failure !== undefined) {
        this.services.logger.error(`Dream pass ${pass.name} failed; its clean-up was applied and the other passes still run.`, { error: planned.failure });
      }
      return { ...base, status, ...failure, applied, conflicts, durationMs: performance.now() - started };
    } catch (error) {
      return this.failed(pass, error, tokens(), started);
    }
  }

  /** The lowest read position of every other pass that reads the conversation log with a cursor. */
  private async conversationLogHorizon(asking: DreamPass): Promise<number> {
    let horizon = Number.POSITIVE_INFINITY;
    for (const pass of this.passes) {
      if (pass === asking || !pass.conversationLogReadThrough) continue;
      horizon = Math.min(horizon, await pass.conversationLogReadThrough(this.services));
    }
    return horizon;
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

  private async finish(folder: RunFolder, report: CycleReport): Promise<void> {
    const failed = report.passes.filter((pass) => pass.status === 'failed');
    await folder.writeArtifact('report.json', `${JSON.stringify(report, null, 2)}\n`);
    await folder.writeArtifact('summary.md', renderCycleSummary(report));
    await folder.update({
      status: report.interrupted ? 'interrupted' : failed.length > 0 ? 'failed' : 'complete',
      completedAt: report.completedAt,
      applying: undefined,
    });
    if (failed.length > 0) {
      const deadLetter = {
        runId: report.runId,
        trigger: report.trigger,
        failedAt: report.completedAt,
        passes: failed.map((pass) => ({ name: pass.name, error: pass.status === 'failed' ? pass.error : undefined })),
        runFolder: folder.dir,
      };
      await writeFileAtomic(join(failuresDir(this.services.dataPath), `${report.runId}.json`), `${JSON.stringify(deadLetter, null, 2)}\n`);
    }
  }
}

function describeAbort(signal: AbortSignal): string {
  const reason = signal.reason as unknown;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'cancelled';
}
