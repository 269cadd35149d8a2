import { isReverieError } from '@reverie/core';
import type { SavedPass } from '@reverie/dream-state';
import { assertStillHeld, type DreamRun } from '@reverie/dream-state';
import type { ModelGateway } from '../gateway/model-gateway';
import { commitPass } from './commit-pass';
import type { DreamPass, DreamServices, PassContext, PassOutcome, PassPlan, PassSkip } from './dream-types';
import type { EngineContext } from './engine-context';
import { faultPoint } from './fault-points';
import { isHostOperationsPass } from './host-operations-pass';
import { withoutForgottenFacts } from './without-forgotten-facts';
import { applyJournalled, archiveOperations, orderOperations } from './operation-applier';
import { restampLineageRun } from './restamp-lineage-run';

/** The run a pass is part of, as `runPass` needs it. */
export interface PassRun {
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
}

/**
 * Plans the pass (or takes its `stored` plan), then, in a real run, writes the plan, archives,
 * applies and commits it. A dry run adds what it planned to `keep`, for the saved plan.
 */
export async function runPass(engine: EngineContext, pass: DreamPass, run: PassRun): Promise<PassOutcome> {
  const { services, roster } = engine;
  const started = performance.now();
  const tokensBefore = { ...(run.gateway?.usage ?? { inputTokens: 0, outputTokens: 0 }) };
  const refusedBefore = run.gateway?.refusals.length ?? 0;
  const tokens = () => ({
    input: (run.gateway?.usage.inputTokens ?? 0) - tokensBefore.inputTokens,
    output: (run.gateway?.usage.outputTokens ?? 0) - tokensBefore.outputTokens,
  });
  const context: PassContext = {
    runId: run.runId,
    services,
    gateway: run.gateway,
    signal: run.signal,
    conversationLogHorizon: () => roster.conversationLogHorizon(pass),
    artifact: async (name, content) => {
      await run.folder?.writeArtifact(name, content);
    },
    now: () => services.clock.now(),
  };
  if (run.stored?.status === 'failed') {
    return failed(services, pass, `could not plan in the dry run that made plan ${run.planId}: ${run.stored.error}`, tokens(), started);
  }
  let planned: PassPlan | PassSkip;
  try {
    planned = run.stored?.status === 'planned' ? fromSavedPass(run.stored, run.plannedBy, run.runId) : await pass.plan(context);
    // The pass's prompts and replies are on disk (unsynced) before its plan is recorded.
    await run.gateway?.settle();
  } catch (error) {
    await run.gateway?.settle().catch(() => undefined);
    assertStillHeld(run.lost);
    const outcome = failed(services, pass, error, tokens(), started);
    if (outcome.status === 'failed')
      run.keep.push({ name: pass.name, phase: pass.phase, status: 'failed', error: outcome.error ?? 'failed' });
    return outcome;
  }
  if ('skipped' in planned) return { name: pass.name, phase: pass.phase, status: 'skipped', reason: planned.skipped };
  if (!isHostOperationsPass(pass) && services.forgotten) planned = withoutForgottenFacts(planned, await services.forgotten.matcher());

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
    return {
      ...base,
      ...status(undefined),
      ...failure,
      applied: 0,
      conflicts: 0,
      planned: operations,
      durationMs: performance.now() - started,
    };
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
    await archiveOperations(run.folder, pass.name, operations, services);
    faultPoint('archive-written');
    const checks = { conversationLogHorizon: () => roster.conversationLogHorizon(pass) };
    const { applied, conflicts, conflicted } = await applyJournalled(run.folder, pass.name, operations, services, 0, {
      checks,
      lost: run.lost,
    });
    faultPoint('pass-applied');
    assertStillHeld(run.lost);
    await commitPass(pass, services, planned.commit);
    faultPoint('after-commit');
    // Until here a crash leaves the pass marked as applying: recovery rolls it forward and commits.
    assertStillHeld(run.lost);
    await run.folder.update({ applying: undefined });
    if (planned.failure !== undefined) {
      services.logger.error(`Dream pass ${pass.name} failed; its clean-up was applied and the other passes still run.`, {
        error: planned.failure,
      });
    }
    return {
      ...base,
      ...status(applied),
      ...failure,
      applied,
      conflicts,
      ...(conflicted.length > 0 ? { conflicted } : {}),
      durationMs: performance.now() - started,
    };
  } catch (error) {
    assertStillHeld(run.lost);
    return failed(services, pass, error, tokens(), started);
  }
}

function failed(
  services: DreamServices,
  pass: DreamPass,
  error: unknown,
  tokens: { input: number; output: number },
  started: number,
): PassOutcome {
  const message = isReverieError(error) ? `${error.code}: ${error.message}` : String((error as Error)?.message ?? error);
  services.logger.error(`Dream pass ${pass.name} failed; the other passes still run.`, { error: message });
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

/**
 * `failed` when the pass's main work failed; `warning` when the model proposed changes and none
 * was accepted by the guards or (in a real run, `applied` known) none was applied; else `ok`.
 */
function outcomeStatus(planned: PassPlan, applied: number | undefined): { status: 'ok' | 'warning' | 'failed'; warning?: string } {
  if (planned.failure !== undefined) return { status: 'failed' };
  const misbehaviour = planned.misbehaviour?.length ?? 0;
  if (misbehaviour > 0)
    return {
      status: 'warning',
      warning: `${misbehaviour} model repl${misbehaviour === 1 ? 'y was' : 'ies were'} refused whole for breaking a run budget (see misbehaviour)`,
    };
  const proposals = planned.proposals;
  if (!proposals || proposals.proposed === 0) return { status: 'ok' };
  if (proposals.accepted === 0) {
    return { status: 'warning', warning: `the model proposed ${proposals.proposed} change(s) and the guards accepted none (see refusals)` };
  }
  if (applied === 0) {
    return {
      status: 'warning',
      warning: `the model proposed ${proposals.proposed} change(s), ${proposals.accepted} passed the guards, and none was applied (see conflicts)`,
    };
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
