import { ReverieError } from '@reverie/core';
import {
  type ArchiveRecord,
  type DreamRun,
  type DreamRunListing,
  type DreamRunStore,
  type JournalLine,
  journalLineSchema,
  type JournalWriter,
  type NewDreamRun,
  type PassPlanFile,
  passPlanFileSchema,
  type RunManifest,
  runManifestSchema,
} from '@reverie/dream-state';
import type { PostgresClient } from '../client/postgres-client';
import { type DreamStateScope, jsonParam } from './dream-state-scope';

const ARTIFACT_NAME = /^[\w.-]+$/;

/**
 * Runs in `reverie_dream_runs` (the manifest) with their artifacts, pass plans, archived
 * pre-images and journal in tables of their own, removed with the run.
 */
export class PostgresDreamRunStore implements DreamRunStore {
  constructor(private readonly db: DreamStateScope) {}

  async create(run: NewDreamRun): Promise<DreamRun> {
    const manifest: RunManifest = {
      schemaVersion: 1,
      runId: run.runId,
      trigger: run.trigger,
      startedAt: run.startedAt,
      status: 'running',
      passes: [],
      ...(run.retryOf === undefined ? {} : { retryOf: run.retryOf }),
      ...(run.planId === undefined ? {} : { planId: run.planId }),
    };
    const client = await this.db.ready();
    await client.query('INSERT INTO reverie_dream_runs (scope, run_id, started_at, manifest) VALUES ($1, $2, $3, $4::jsonb)', [
      this.db.scope,
      run.runId,
      run.startedAt,
      jsonParam(manifest),
    ]);
    return new PostgresDreamRun(this.db, manifest);
  }

  async open(runId: string): Promise<DreamRun | undefined> {
    const client = await this.db.ready();
    const [row] = await client.query<{ manifest: unknown }>('SELECT manifest FROM reverie_dream_runs WHERE scope = $1 AND run_id = $2', [
      this.db.scope,
      runId,
    ]);
    return row && new PostgresDreamRun(this.db, runManifestSchema.parse(row.manifest));
  }

  async list(): Promise<DreamRunListing[]> {
    const client = await this.db.ready();
    const rows = await client.query<{ manifest: unknown }>(
      'SELECT manifest FROM reverie_dream_runs WHERE scope = $1 ORDER BY started_at, run_id',
      [this.db.scope],
    );
    return rows.flatMap((row) => {
      const parsed = runManifestSchema.safeParse(row.manifest);
      return parsed.success ? [{ manifest: parsed.data }] : [];
    });
  }

  async remove(runId: string): Promise<void> {
    const client = await this.db.ready();
    await client.query('DELETE FROM reverie_dream_runs WHERE scope = $1 AND run_id = $2', [this.db.scope, runId]);
  }
}

/**
 * One run's rows. Every write is committed when it returns — an artifact, a journal line, an
 * archive — so what the engine needs to finish or undo a step is on record before the step
 * touches a store; `writePlan` records the plan and the manifest naming it in one transaction.
 */
class PostgresDreamRun implements DreamRun {
  constructor(
    private readonly db: DreamStateScope,
    private manifest: RunManifest,
  ) {}

  get runId(): string {
    return this.manifest.runId;
  }

  get state(): Readonly<RunManifest> {
    return this.manifest;
  }

  async update(change: Partial<RunManifest>): Promise<void> {
    const client = await this.db.ready();
    this.manifest = await this.saveManifest(client, { ...this.manifest, ...change });
  }

  async writeArtifact(name: string, content: string): Promise<void> {
    if (!ARTIFACT_NAME.test(name)) {
      throw new ReverieError('INVALID_INPUT', `Invalid artifact name ${JSON.stringify(name)}: use letters, digits, ".", "_" and "-" only.`);
    }
    const client = await this.db.ready();
    await client.query(
      `INSERT INTO reverie_dream_run_artifacts (scope, run_id, name, content) VALUES ($1, $2, $3, $4)
       ON CONFLICT (scope, run_id, name) DO UPDATE SET content = excluded.content`,
      [this.db.scope, this.runId, name, content],
    );
  }

  /** Nothing to flush: each artifact was committed as it was written. */
  async syncArtifacts(): Promise<void> {}

  async readArtifact(name: string): Promise<string | undefined> {
    if (!ARTIFACT_NAME.test(name)) return undefined;
    const client = await this.db.ready();
    const [row] = await client.query<{ content: string }>(
      'SELECT content FROM reverie_dream_run_artifacts WHERE scope = $1 AND run_id = $2 AND name = $3',
      [this.db.scope, this.runId, name],
    );
    return row?.content;
  }

  async listArtifacts(): Promise<string[]> {
    const client = await this.db.ready();
    const rows = await client.query<{ name: string }>(
      'SELECT name FROM reverie_dream_run_artifacts WHERE scope = $1 AND run_id = $2 ORDER BY name',
      [this.db.scope, this.runId],
    );
    return rows.map((row) => row.name);
  }

  async writePlan(plan: PassPlanFile): Promise<void> {
    const client = await this.db.ready();
    const manifest = {
      ...this.manifest,
      passes: [...this.manifest.passes.filter((pass) => pass !== plan.pass), plan.pass],
      applying: plan.pass,
    };
    this.manifest = await client.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO reverie_dream_run_plans (scope, run_id, pass, plan) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (scope, run_id, pass) DO UPDATE SET plan = excluded.plan`,
        [this.db.scope, this.runId, plan.pass, jsonParam(passPlanFileSchema.parse(plan))],
      );
      return this.saveManifest(tx, manifest);
    });
  }

  async readPlan(pass: string): Promise<PassPlanFile> {
    const client = await this.db.ready();
    const [row] = await client.query<{ plan: unknown }>(
      'SELECT plan FROM reverie_dream_run_plans WHERE scope = $1 AND run_id = $2 AND pass = $3',
      [this.db.scope, this.runId, pass],
    );
    if (!row) {
      throw new ReverieError(
        'NOT_FOUND',
        `Run ${this.runId} of scope ${JSON.stringify(this.db.scope)} recorded no plan for the pass ${JSON.stringify(pass)}.`,
        {
          details: { runId: this.runId, pass },
        },
      );
    }
    return passPlanFileSchema.parse(row.plan);
  }

  /** One statement for every record; a key archived already keeps its first pre-image. */
  async archive(pass: string, records: readonly ArchiveRecord[]): Promise<void> {
    if (records.length === 0) return;
    const client = await this.db.ready();
    await client.query(
      `INSERT INTO reverie_dream_run_archive (scope, run_id, pass, kind, key, record)
       SELECT $1, $2, $3, kind, key, record::jsonb FROM unnest($4::text[], $5::text[], $6::text[]) AS r(kind, key, record)
       ON CONFLICT (scope, run_id, pass, kind, key) DO NOTHING`,
      [this.db.scope, this.runId, pass, records.map((r) => r.kind), records.map((r) => r.key), records.map((r) => jsonParam(r.record))],
    );
  }

  async readArchive(pass: string, kind: ArchiveRecord['kind'], key: string): Promise<unknown | undefined> {
    const client = await this.db.ready();
    const [row] = await client.query<{ record: unknown }>(
      'SELECT record FROM reverie_dream_run_archive WHERE scope = $1 AND run_id = $2 AND pass = $3 AND kind = $4 AND key = $5',
      [this.db.scope, this.runId, pass, kind, key],
    );
    return row?.record;
  }

  /** Each line is committed by its `append`; `close` has nothing left to flush. */
  async openJournal(): Promise<JournalWriter> {
    const client = await this.db.ready();
    return {
      append: async (line) => {
        await client.query('INSERT INTO reverie_dream_run_journal (scope, run_id, line) VALUES ($1, $2, $3::jsonb)', [
          this.db.scope,
          this.runId,
          jsonParam(journalLineSchema.parse(line)),
        ]);
      },
      close: async () => undefined,
    };
  }

  async readJournal(): Promise<JournalLine[]> {
    const client = await this.db.ready();
    const rows = await client.query<{ line: unknown }>(
      'SELECT line FROM reverie_dream_run_journal WHERE scope = $1 AND run_id = $2 ORDER BY seq',
      [this.db.scope, this.runId],
    );
    return rows.flatMap((row) => {
      const parsed = journalLineSchema.safeParse(row.line);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** Writes the manifest and returns it as stored (the caller keeps it once the write committed). */
  private async saveManifest(client: PostgresClient, manifest: RunManifest): Promise<RunManifest> {
    // JSON drops the keys a change set to undefined.
    const stored = runManifestSchema.parse(JSON.parse(JSON.stringify(manifest)));
    await client.query('UPDATE reverie_dream_runs SET manifest = $3::jsonb WHERE scope = $1 AND run_id = $2', [
      this.db.scope,
      this.runId,
      jsonParam(stored),
    ]);
    return stored;
  }
}
