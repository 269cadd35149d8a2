import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isValidId, ReverieError } from '@reverie/core';
import { fsyncDirectory, writeFileAtomic } from '../../fs/atomic-write';
import { type PlanApplied, planAppliedSchema, type SavedPlan, savedPlanSchema } from '@reverie/dream-state';
import { plansDir } from '../dream-state-paths';
import type { SavedPlanStore, StoredPlan } from '@reverie/dream-state';

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
