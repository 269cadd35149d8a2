import { isValidId, ReverieError } from '@reverie/core';
import {
  type AppendOnlyLog,
  type DeadLetter,
  deadLetterSchema,
  type DeadLetterStore,
  type JsonlContents,
  type PlanApplied,
  planAppliedSchema,
  type SavedPlan,
  savedPlanSchema,
  type SavedPlanStore,
  type StoredPlan,
} from '@reverie/dream-state';
import type { z } from 'zod';
import { type DreamStateScope, jsonParam } from './dream-state-scope';

/** Dead letters in `reverie_dream_dead_letters`, one row per run. */
export class PostgresDeadLetterStore implements DeadLetterStore {
  constructor(private readonly db: DreamStateScope) {}

  async write(letter: DeadLetter): Promise<void> {
    const client = await this.db.ready();
    const parsed = deadLetterSchema.parse(letter);
    await client.query(
      `INSERT INTO reverie_dream_dead_letters (scope, run_id, letter) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (scope, run_id) DO UPDATE SET letter = excluded.letter`,
      [this.db.scope, parsed.runId, jsonParam(parsed)],
    );
  }

  async read(runId: string): Promise<DeadLetter | undefined> {
    const client = await this.db.ready();
    const [row] = await client.query<{ letter: unknown }>(
      'SELECT letter FROM reverie_dream_dead_letters WHERE scope = $1 AND run_id = $2',
      [this.db.scope, runId],
    );
    const parsed = deadLetterSchema.safeParse(row?.letter);
    return parsed.success ? parsed.data : undefined;
  }

  async remove(runId: string): Promise<void> {
    const client = await this.db.ready();
    await client.query('DELETE FROM reverie_dream_dead_letters WHERE scope = $1 AND run_id = $2', [this.db.scope, runId]);
  }

  async list(): Promise<string[]> {
    const client = await this.db.ready();
    const rows = await client.query<{ run_id: string }>('SELECT run_id FROM reverie_dream_dead_letters WHERE scope = $1 ORDER BY run_id', [
      this.db.scope,
    ]);
    return rows.map((row) => row.run_id);
  }
}

/** Saved plans in `reverie_dream_plans`: the plan, its summary for people, and whether a run applied it, in one row. */
export class PostgresSavedPlanStore implements SavedPlanStore {
  constructor(private readonly db: DreamStateScope) {}

  async save(plan: SavedPlan, summary: string): Promise<{ location?: string | undefined }> {
    const client = await this.db.ready();
    const parsed = savedPlanSchema.parse(plan);
    await client.query(
      `INSERT INTO reverie_dream_plans (scope, plan_id, created_at, plan, summary) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (scope, plan_id) DO UPDATE SET created_at = excluded.created_at, plan = excluded.plan, summary = excluded.summary`,
      [this.db.scope, parsed.planId, parsed.createdAt, jsonParam(parsed), summary],
    );
    return {};
  }

  async read(planId: string): Promise<StoredPlan> {
    const client = await this.db.ready();
    const [row] = isValidId(planId)
      ? await client.query<PlanRow>('SELECT plan, applied FROM reverie_dream_plans WHERE scope = $1 AND plan_id = $2', [
          this.db.scope,
          planId,
        ])
      : [];
    const stored = row && storedPlan(row);
    if (!stored) {
      throw new ReverieError(
        'PLAN_NOT_FOUND',
        `No dream plan ${JSON.stringify(planId)} in the dream state of scope ${JSON.stringify(this.db.scope)}. List the pending plans with dreams.plans() (reverie dream plans), or make one with a dry run.`,
        { details: { planId } },
      );
    }
    return stored;
  }

  async markApplied(planId: string, applied: PlanApplied): Promise<void> {
    const client = await this.db.ready();
    await client.query('UPDATE reverie_dream_plans SET applied = $3::jsonb WHERE scope = $1 AND plan_id = $2', [
      this.db.scope,
      planId,
      jsonParam(planAppliedSchema.parse(applied)),
    ]);
  }

  async list(): Promise<StoredPlan[]> {
    const client = await this.db.ready();
    const rows = await client.query<PlanRow>(
      'SELECT plan, applied FROM reverie_dream_plans WHERE scope = $1 ORDER BY created_at DESC, plan_id DESC',
      [this.db.scope],
    );
    return rows.flatMap((row) => storedPlan(row) ?? []);
  }
}

interface PlanRow {
  plan: unknown;
  applied: unknown;
}

function storedPlan(row: PlanRow): StoredPlan | undefined {
  const plan = savedPlanSchema.safeParse(row.plan);
  if (!plan.success) return undefined;
  const applied = planAppliedSchema.safeParse(row.applied);
  return { plan: plan.data, ...(applied.success ? { applied: applied.data } : {}) };
}

/** An append-only log (the ledger, the completed sessions) as the rows of `reverie_dream_logs` named `log`, in append order. */
export class PostgresDreamLog<T> implements AppendOnlyLog<T> {
  constructor(
    private readonly db: DreamStateScope,
    private readonly log: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  async append(record: T): Promise<void> {
    const client = await this.db.ready();
    await client.query('INSERT INTO reverie_dream_logs (scope, log, record) VALUES ($1, $2, $3::jsonb)', [
      this.db.scope,
      this.log,
      jsonParam(this.schema.parse(record)),
    ]);
  }

  async read(): Promise<JsonlContents<T>> {
    const client = await this.db.ready();
    const rows = await client.query<{ record: unknown }>(
      'SELECT record FROM reverie_dream_logs WHERE scope = $1 AND log = $2 ORDER BY seq',
      [this.db.scope, this.log],
    );
    const lines: T[] = [];
    let invalidLines = 0;
    for (const row of rows) {
      const parsed = this.schema.safeParse(row.record);
      if (parsed.success) lines.push(parsed.data);
      else invalidLines += 1;
    }
    return { lines, invalidLines };
  }
}
