import { newId } from '@reverie/core';
import type { SavedPass, SavedPlan } from '@reverie/dream-state';
import { assertStillHeld, type DreamRun } from '@reverie/dream-state';
import { ModelGateway } from '../gateway/model-gateway';
import { renderPlanSummary } from '../plans/render-plan-summary';
import type { CycleReport, DreamPass, PassOutcome } from './dream-types';
import type { EngineContext } from './engine-context';
import { faultPoint } from './fault-points';
import { ledgerLineFor } from './ledger-line-for';
import { renderCycleSummary } from './render-cycle-summary';
import type { PassProgress, RunRequest } from './run-request';
import { runPass } from './run-pass';

/** Where a cycle comes from besides its request: the run it retries, the saved plan it applies, the lock's `lost` signal. */
export interface CycleOrigin {
  retryOf?: string | undefined;
  plan?: SavedPlan;
  lost?: AbortSignal | undefined;
  /** The host handed the operations (`applyOperations`): no model is asked and a user turn does not stop the run. */
  hostOperations?: boolean;
}

/**
 * Runs the passes under the lock. Once the lock is lost (`from.lost`), the cycle stops before its
 * next write with LOCK_LOST — no report, ledger line or manifest update — leaving the run as a
 * crash would, for the next runner's recovery; the model call in flight is aborted too.
 */
export function runCycle(
  engine: EngineContext,
  request: RunRequest,
  selected: DreamPass[],
  runId: string,
  from: CycleOrigin = {},
): Promise<CycleReport> {
  const run = { runId, trigger: request.trigger, dryRun: request.dryRun ?? false, passes: selected.map((pass) => pass.name) };
  return engine.tracing.run(run, () => runTracedCycle(engine, request, selected, runId, from));
}

async function runTracedCycle(
  engine: EngineContext,
  request: RunRequest,
  selected: DreamPass[],
  runId: string,
  from: CycleOrigin,
): Promise<CycleReport> {
  const { services, state, roster } = engine;
  const { clock, logger, dataPath } = services;
  const startedAt = clock.now();
  const dryRun = request.dryRun ?? false;
  const saved = from.plan;
  const folder = dryRun
    ? undefined
    : await state.runs.create({
        runId,
        trigger: request.trigger,
        startedAt: startedAt.toISOString(),
        retryOf: from.retryOf,
        planId: saved?.planId,
      });
  // Claimed only once its run folder exists: a crash before leaves the plan pending, one after leaves a run to recover.
  if (saved) await state.plans.markApplied(saved.planId, { runId, appliedAt: startedAt.toISOString() });
  // Applying a saved plan asks no model, so a user turn need not stop it; an explicit signal still does.
  const { lost } = from;
  const asksNoModel = saved !== undefined || from.hostOperations === true;
  const signals = [request.signal, asksNoModel ? undefined : services.activity?.userTurnSignal(), lost].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  const signal = signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal;
  const gateway =
    services.model && !asksNoModel
      ? new ModelGateway({
          model: services.model,
          ...(engine.maxReplyChars === undefined ? {} : { maxReplyChars: engine.maxReplyChars }),
          ...(dataPath === undefined ? {} : { dataPath }),
          logger,
          ...(engine.telemetry === undefined ? {} : { telemetry: engine.telemetry }),
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
    const skipped = stored
      ? stored.status === 'skipped'
        ? stored.reason
        : roster.missingServices(pass)
      : roster.skipReason(pass, gateway);
    if (skipped === undefined) tell({ type: 'start', name: pass.name, phase: pass.phase, index, total: selected.length });
    const outcome: PassOutcome = await engine.tracing.pass({ runId, name: pass.name, phase: pass.phase }, async () =>
      skipped === undefined
        ? runPass(engine, pass, {
            runId,
            gateway,
            signal,
            lost,
            folder,
            dryRun,
            keep,
            ...(stored && saved ? { stored, planId: saved.planId, plannedBy: saved.runId } : {}),
          })
        : { name: pass.name, phase: pass.phase, status: 'skipped', reason: skipped },
    );
    if (outcome.status === 'skipped') keep.push({ name: pass.name, phase: pass.phase, status: 'skipped', reason: outcome.reason });
    record(outcome, index);
    assertStillHeld(lost);
    if (!dryRun)
      await recordInLedger(engine, outcome, { runId, trigger: request.trigger, startedAt: passStartedAt, completedAt: clock.now() });
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
  if (folder) await finish(engine, folder, report);
  if (folder && !interrupted && outcomes.every((outcome) => outcome.status !== 'failed')) await compactMemoryFeed(engine, lost);
  if (dryRun) {
    const planId = newId();
    const plan: SavedPlan = {
      schemaVersion: 1,
      planId,
      createdAt: report.startedAt,
      trigger: request.trigger,
      runId,
      ...(interrupted ? { interrupted } : {}),
      passes: keep,
    };
    const { location } = await state.plans.save(plan, renderPlanSummary(plan));
    if (location !== undefined) report.planFolder = location;
    report.planId = planId;
  }
  logger.info('Dream cycle finished.', { runId, trigger: request.trigger, dryRun, interrupted, planId: report.planId });
  return report;
}

/** Appends the pass's ledger line (SPEC O5); a ledger that cannot be written is logged, never fatal to the run. */
async function recordInLedger(
  { services, state }: EngineContext,
  outcome: PassOutcome,
  run: Parameters<typeof ledgerLineFor>[1],
): Promise<void> {
  try {
    await state.ledger.append(ledgerLineFor(outcome, run));
  } catch (error) {
    services.logger.error('Could not append to the dream ledger; the run goes on, but status will not show this pass.', {
      ...(state.location === undefined ? {} : { state: state.location }),
      pass: outcome.name,
      error: String((error as Error)?.message ?? error),
    });
  }
}

/**
 * After a successful cycle: lets the memory store forget the changes of its feed that every
 * pass reading it has passed. A reader that can never run here holds nothing back (as for the
 * conversation log); one that runs later from an older cursor is answered with a reset and
 * lists every entry. A failure only costs the space: it is logged, and the next cycle tries again.
 */
async function compactMemoryFeed({ services, roster }: EngineContext, lost: AbortSignal | undefined): Promise<void> {
  const { memory, logger } = services;
  if (!memory?.compactChanges) return;
  const keep = await roster.memoryFeedCursors();
  if (keep.length === 0) return;
  assertStillHeld(lost);
  try {
    const { removed } = await memory.compactChanges(keep);
    if (removed > 0) logger.info('Compacted the memory change feed.', { removed });
  } catch (error) {
    logger.warn('Could not compact the memory change feed; the next cycle tries again.', {
      error: String((error as Error)?.message ?? error),
    });
  }
}

async function finish({ state }: EngineContext, folder: DreamRun, report: CycleReport): Promise<void> {
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
  // A retry's failures are recorded on the dead letter of the run it retried (see retryRun).
  if (failed.length > 0 && report.retryOf === undefined) {
    await state.deadLetters.write({
      runId: report.runId,
      trigger: report.trigger,
      failedAt: report.completedAt,
      passes: failed.map((pass) => ({
        name: pass.name,
        ...(pass.status === 'failed' && pass.error !== undefined ? { error: pass.error } : {}),
      })),
      ...(folder.location === undefined ? {} : { runFolder: folder.location }),
    });
  }
}

function describeAbort(signal: AbortSignal): string {
  const reason = signal.reason as unknown;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'cancelled';
}
