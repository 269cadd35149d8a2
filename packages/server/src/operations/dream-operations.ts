import { ReverieError, ReverieValidationError } from '@reverie/core';
import { DREAM_PHASES } from '@reverie/dream/options';
import { z } from 'zod';
import { defineOperation } from './operation';

const reason = z.string().min(1).max(200).optional().describe('What asked for the cycle, recorded as its trigger (default "server")');
const selection = {
  phase: z.enum(DREAM_PHASES).optional().describe('Only the passes of this phase'),
  passes: z.array(z.string().min(1)).min(1).optional().describe('Only these passes, by name'),
};
const runId = z.string().min(1).describe('A run id (from list_dream_runs or a report)');

export const dreamStatus = defineOperation({
  name: 'get_dream_status',
  title: 'Dream status',
  description:
    'What the dream cycle has been doing: the ledger aggregated per phase over a window (runs, passes ok/failed/skipped, changes, tokens), the last run of each pass, and the lock.',
  access: 'read',
  input: z.object({
    windowHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 366)
      .optional()
      .describe('How many hours back to look (default 24)'),
  }),
  http: { method: 'GET', path: '/api/dream/status' },
  async run({ windowHours }, { reverie }) {
    return reverie.dreams.status(windowHours === undefined ? {} : { windowHours });
  },
});

export const dreamRun = defineOperation({
  name: 'run_dream',
  title: 'Run a dream cycle',
  description:
    'Asks for a dream cycle through the gates, evaluated now (disabled, time, sessions, lock, signal), and waits for its report. A blocked cycle is refused with DREAM_BLOCKED naming the gate that blocked it and why.',
  access: 'write',
  input: z.object({ reason }),
  http: { method: 'POST', path: '/api/dream/run' },
  async run(input, { reverie }) {
    const result = await reverie.dreams.trigger({ reason: input.reason ?? 'server' });
    if (!result.triggered) {
      throw new ReverieError('DREAM_BLOCKED', `The dream cycle did not run: the ${result.gate} gate blocked it (${result.reason}).`, {
        details: { gate: result.gate, reason: result.reason, gates: result.gates },
      });
    }
    return result.report;
  },
});

export const dreamTrigger = defineOperation({
  name: 'trigger_dream',
  title: 'Trigger a dream cycle',
  description:
    'Asks for a dream cycle through the gates and answers at once (202) without waiting: the cycle runs in the background when the gates let it. See what happened with get_dream_status and list_dream_runs.',
  access: 'write',
  input: z.object({ reason }),
  http: { method: 'POST', path: '/api/dream/trigger', status: 202 },
  async run(input, { reverie, background }) {
    const trigger = input.reason ?? 'server';
    background((signal) => reverie.dreams.trigger({ reason: trigger, signal }));
    return { accepted: true, trigger };
  },
});

export const dreamPlan = defineOperation({
  name: 'plan_dream',
  title: 'Plan a dream cycle',
  description:
    'A dry run, without the gates: plans what a cycle (or one phase, or named passes) would change, applies nothing, and saves the plan. Its planId is what apply_dream_plan applies after review.',
  access: 'write',
  input: z.object(selection),
  http: { method: 'POST', path: '/api/dream/plan' },
  async run({ phase, passes }, { reverie }) {
    return reverie.dreams.run({
      dryRun: true,
      trigger: 'server',
      ...(phase === undefined ? {} : { phase }),
      ...(passes === undefined ? {} : { passes }),
    });
  },
});

export const dreamPlans = defineOperation({
  name: 'list_dream_plans',
  title: 'List saved plans',
  description: 'The plans dry runs saved and not applied yet, newest first: id, when made, expired or not, the operations of each pass.',
  access: 'read',
  input: z.object({}),
  http: { method: 'GET', path: '/api/dream/plans' },
  async run(_input, { reverie }) {
    return reverie.dreams.plans();
  },
});

export const dreamApply = defineOperation({
  name: 'apply_dream_plan',
  title: 'Apply a reviewed plan',
  description:
    'Applies exactly the plan a dry run saved, without asking a model; entries changed since are skipped and listed as conflicts. PLAN_NOT_FOUND, PLAN_APPLIED, PLAN_EXPIRED, LOCK_HELD.',
  access: 'write',
  input: z.object({ planId: z.string().min(1).describe('The planId of a dry run (plan_dream, list_dream_plans)') }),
  http: { method: 'POST', path: '/api/dream/plans/{planId}/apply' },
  async run({ planId }, { reverie }) {
    return reverie.dreams.apply(planId);
  },
});

export const dreamRuns = defineOperation({
  name: 'list_dream_runs',
  title: 'List dream runs',
  description:
    'Every dream run, newest first: id, status, trigger, when, the passes that planned something, and whether it left a dead letter.',
  access: 'read',
  input: z.object({}),
  http: { method: 'GET', path: '/api/dream/runs' },
  async run(_input, { reverie }) {
    return reverie.dreams.listRuns();
  },
});

export const dreamShow = defineOperation({
  name: 'show_dream_run',
  title: 'Show a dream run',
  description:
    'One run: its manifest, each pass outcome (notes, refusals, errors, tokens), the summary and any dead letter. "latest" names the newest run. RUN_NOT_FOUND when unknown.',
  access: 'read',
  input: z.object({ runId: runId.describe('A run id, or "latest"') }),
  http: { method: 'GET', path: '/api/dream/runs/{runId}' },
  async run(input, { reverie }) {
    let id = input.runId;
    if (id === 'latest') {
      const [newest] = await reverie.dreams.listRuns();
      if (newest === undefined) throw new ReverieError('RUN_NOT_FOUND', 'There is no dream run yet: start one with run_dream.');
      id = newest.runId;
    }
    return reverie.dreams.show(id);
  },
});

export const dreamUndo = defineOperation({
  name: 'undo_dream_run',
  title: 'Undo a dream run',
  description:
    'Reverses a run: restores what it deleted or replaced and removes what it created, except records changed since (listed as kept). RUN_NOT_FOUND when unknown.',
  access: 'write',
  input: z.object({ runId }),
  http: { method: 'POST', path: '/api/dream/runs/{runId}/undo' },
  async run(input, { reverie }) {
    if (input.runId === 'latest')
      throw new ReverieValidationError(
        'INVALID_ID',
        'Undo names the run to reverse by its id, not "latest": find it with list_dream_runs.',
      );
    return reverie.dreams.undo(input.runId);
  },
});
