import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isValidId, ReverieError } from '@reverie/core';
import { fsyncDirectory, writeFileAtomic } from '@reverie/file-store';
import { dreamOperationSchema } from '../runs/run-folder';
import { plansDir } from '../runs/run-paths';
import type { SavedPlanStore, StoredPlan } from '../state/dream-state-store';

const phaseSchema = z.enum(['light-sleep', 'rem', 'deep-sleep']);

/** One pass of a saved plan: what its dry run decided, everything `apply` needs and nothing more. */
export const savedPassSchema = z.discriminatedUnion('status', [
  z.object({ name: z.string(), phase: phaseSchema, status: z.literal('skipped'), reason: z.string() }),
  /** The pass could not plan (its model call failed, say): applying the plan records it as failed. */
  z.object({ name: z.string(), phase: phaseSchema, status: z.literal('failed'), error: z.string() }),
  z.object({
    name: z.string(),
    phase: phaseSchema,
    status: z.literal('planned'),
    itemsProcessed: z.number(),
    /** In the order the engine applies them (saves, then deletes, then log clears). */
    operations: z.array(dreamOperationSchema),
    notes: z.array(z.string()),
    refusals: z.array(z.string()),
    misbehaviour: z.array(z.string()).optional(),
    proposals: z.object({ proposed: z.number(), accepted: z.number(), acceptedFirstTry: z.number().optional(), repairs: z.number().optional() }).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    failure: z.string().optional(),
    /** The pass's bookkeeping after apply (`PassPlan.commit`). */
    commit: z.unknown().optional(),
  }),
]);
export type SavedPass = z.infer<typeof savedPassSchema>;

/** `_system/dreams/plans/<planId>/plan.json`: written once by a dry run, never changed. */
export const savedPlanSchema = z.object({
  schemaVersion: z.literal(1),
  planId: z.string(),
  createdAt: z.string(),
  /** The trigger of the dry run that made the plan. */
  trigger: z.string(),
  /** The dry run's id, which the lineage its saves record names until a run applies it (SPEC B10). Absent in plans made before. */
  runId: z.string().optional(),
  /** Why the dry run stopped early, when it did: passes after that point are not in the plan. */
  interrupted: z.string().optional(),
  passes: z.array(savedPassSchema),
});
export type SavedPlan = z.infer<typeof savedPlanSchema>;

/** `applied.json` beside the plan: written, under the dream lock, before the plan's run touches a store. */
export const planAppliedSchema = z.object({ runId: z.string(), appliedAt: z.string() });
export type PlanApplied = z.infer<typeof planAppliedSchema>;

/**
 * Plans saved by dry runs, in `_system/dreams/plans/<planId>/`: `plan.json` (the plan) and
 * `summary.md` (the dry run's report, for people), both written atomically and fsynced, and
 * `applied.json` once a run applies it. A folder whose `plan.json` a crash cut short is not a plan.
 */
export class PlanStore implements SavedPlanStore {
  constructor(private readonly dataPath: string) {}

  dir(planId: string): string {
    return join(plansDir(this.dataPath), planId);
  }

  async save(plan: SavedPlan, summary: string): Promise<{ location: string }> {
    const dir = this.dir(plan.planId);
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, 'summary.md'), summary);
    // plan.json last: its presence says the plan is complete.
    await writeFileAtomic(join(dir, 'plan.json'), `${JSON.stringify(savedPlanSchema.parse(plan), null, 2)}\n`);
    await fsyncDirectory(plansDir(this.dataPath));
    return { location: dir };
  }

  /** The plan and whether it was applied; PLAN_NOT_FOUND when there is no such (complete, readable) plan. */
  async read(planId: string): Promise<StoredPlan> {
    const dir = isValidId(planId) ? this.dir(planId) : undefined;
    const plan = dir === undefined ? undefined : await readJson(join(dir, 'plan.json'), savedPlanSchema);
    if (!dir || !plan) {
      throw new ReverieError(
        'PLAN_NOT_FOUND',
        `No dream plan ${JSON.stringify(planId)} in ${plansDir(this.dataPath)}. List the pending plans with dreams.plans() (reverie dream plans), or make one with a dry run.`,
        { details: { planId } },
      );
    }
    const applied = await readJson(join(dir, 'applied.json'), planAppliedSchema);
    return { plan, location: dir, ...(applied ? { applied } : {}) };
  }

  async markApplied(planId: string, applied: PlanApplied): Promise<void> {
    await writeFileAtomic(join(this.dir(planId), 'applied.json'), `${JSON.stringify(applied)}\n`);
  }

  /** Every readable plan, newest first. */
  async list(): Promise<StoredPlan[]> {
    const names = await readdir(plansDir(this.dataPath)).catch(() => [] as string[]);
    const found: StoredPlan[] = [];
    for (const name of names.filter(isValidId)) {
      try {
        found.push(await this.read(name));
      } catch {
        // an incomplete or unreadable plan is left out
      }
    }
    return found.sort((a, b) => (a.plan.createdAt < b.plan.createdAt ? 1 : a.plan.createdAt > b.plan.createdAt ? -1 : 0));
  }
}

/** The parsed file, or undefined when it is missing or does not parse (a torn or hand-broken file). */
async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T | undefined> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
