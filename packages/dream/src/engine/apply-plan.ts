import { newId, ReverieError } from '@reverie/core';
import type { PlanApplied, SavedPass, SavedPlan } from '@reverie/dream-state';
import { holdingLock } from '@reverie/dream-state';
import type { CycleReport } from './dream-types';
import type { EngineContext } from './engine-context';
import { runCycle } from './run-cycle';
import type { ApplyRequest } from './run-request';

/** How long a dry run's plan can be applied: a day. */
export const DEFAULT_PLAN_MAX_AGE_MS = 24 * 3_600_000;

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

/**
 * Applies the plan a dry run saved, exactly: its operations, with their optimistic checks (an
 * entry changed since the plan is skipped and reported as a conflict), then each pass's commit.
 * No model is called. The result is a normal run (trigger 'apply'): run folder, ledger lines,
 * undo. Holds the lock (LOCK_HELD). PLAN_NOT_FOUND, PLAN_APPLIED (a plan is applied once),
 * PLAN_EXPIRED (older than `planMaxAgeMs`), UNKNOWN_PASS (a pass this engine does not have).
 */
export async function applyPlan(engine: EngineContext, planId: string, request: ApplyRequest = {}): Promise<CycleReport> {
  const { state, roster } = engine;
  assertApplicable(engine, planId, await state.plans.read(planId));
  const runId = newId();
  return holdingLock(
    state.lock,
    async (_, lost) => {
      // Read again under the lock: another runner may have applied it meanwhile.
      const { plan, applied } = await state.plans.read(planId);
      assertApplicable(engine, planId, { plan, ...(applied ? { applied } : {}) });
      const selected = plan.passes.map((saved) => roster.byName(saved.name));
      return runCycle(engine, { trigger: 'apply', ...request }, selected, runId, { plan, lost });
    },
    runId,
  );
}

/** The plans dry runs saved that are not applied yet, newest first, with whether they expired. */
export async function pendingPlans({ services, state, planMaxAgeMs }: EngineContext): Promise<PlanSummary[]> {
  const now = services.clock.now().getTime();
  return (await state.plans.list())
    .filter(({ applied }) => applied === undefined)
    .map(({ plan, location }) => {
      const expiresAt = Date.parse(plan.createdAt) + planMaxAgeMs;
      const passes = plan.passes.map((saved) => ({
        name: saved.name,
        status: saved.status,
        operations: saved.status === 'planned' ? saved.operations.length : 0,
      }));
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
function assertApplicable(
  { services, planMaxAgeMs }: EngineContext,
  planId: string,
  found: { plan: SavedPlan; applied?: PlanApplied },
): void {
  if (found.applied) {
    throw new ReverieError(
      'PLAN_APPLIED',
      `Dream plan ${planId} was already applied, by run ${found.applied.runId} at ${found.applied.appliedAt}; a plan is applied once. Inspect that run with dreams.show('${found.applied.runId}') (reverie dream show ${found.applied.runId}), undo it with dreams.undo, or make a new plan with a dry run.`,
      { details: { planId, ...found.applied } },
    );
  }
  const age = services.clock.now().getTime() - Date.parse(found.plan.createdAt);
  if (age > planMaxAgeMs) {
    throw new ReverieError(
      'PLAN_EXPIRED',
      `Dream plan ${planId} was made at ${found.plan.createdAt}, more than ${formatHours(planMaxAgeMs)} ago (planMaxAge): memory has likely moved on since. Make a new plan with a dry run (reverie dream run --dry-run) and apply that one, or raise withDreaming({ planMaxAge }).`,
      { details: { planId, createdAt: found.plan.createdAt, planMaxAgeMs } },
    );
  }
}

function formatHours(ms: number): string {
  const hours = ms / 3_600_000;
  return `${Number.isInteger(hours) ? hours : hours.toFixed(2)} h`;
}
