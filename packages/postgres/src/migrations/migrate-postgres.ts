import { ReverieError } from '@reverie/core';
import type { PostgresClient } from '../client/postgres-client';
import type { PostgresMigration } from './postgres-migration';
import { POSTGRES_MIGRATIONS } from './postgres-migrations';

/** The transaction-level advisory lock every migration run holds ("REVERIE!" in ASCII). */
export const MIGRATION_LOCK_KEY = '5928230389648737569';

export interface MigrationReport {
  /** The schema version before the run (0 for an empty database). */
  from: number;
  /** The schema version after it: the newest this library knows. */
  to: number;
  /** The migrations the run applied, as `version-name`, in order. */
  applied: string[];
}

async function appliedVersions(client: PostgresClient): Promise<number[] | undefined> {
  const [table] = await client.query<{ name: string | null }>("SELECT to_regclass('reverie_schema_migrations')::text AS name");
  if (!table?.name) return undefined;
  const rows = await client.query<{ version: number }>('SELECT version FROM reverie_schema_migrations ORDER BY version');
  return rows.map((row) => Number(row.version));
}

function assertKnown(versions: readonly number[], migrations: readonly PostgresMigration[]): void {
  const newest = migrations.at(-1)?.version ?? 0;
  const unknown = versions.filter((version) => version > newest);
  if (unknown.length === 0) return;
  throw new ReverieError(
    'SCHEMA_TOO_NEW',
    `The database's Reverie schema is at version ${Math.max(...unknown)}, newer than this @reverie/postgres knows (up to ${newest}): a newer release migrated it. Upgrade @reverie/postgres in this application (every process sharing the database runs the same release or a newer one).`,
    { details: { databaseVersion: Math.max(...unknown), libraryVersion: newest } },
  );
}

/** `migratePostgres` with the list of migrations to apply (tests pass their own). */
export async function runMigrations(client: PostgresClient, migrations: readonly PostgresMigration[]): Promise<MigrationReport> {
  const newest = migrations.at(-1)?.version ?? 0;
  const before = await appliedVersions(client);
  if (before) assertKnown(before, migrations);
  if (before && migrations.every((migration) => before.includes(migration.version))) {
    return { from: Math.max(0, ...before), to: newest, applied: [] };
  }
  return client.transaction(async (tx) => {
    // Two processes migrating at once: the second waits here, then finds the work done.
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS reverie_schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const done = (await appliedVersions(tx)) ?? [];
    assertKnown(done, migrations);
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.includes(migration.version)) continue;
      await migration.up(tx);
      await tx.query('INSERT INTO reverie_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(`${migration.version}-${migration.name}`);
    }
    return { from: Math.max(0, ...done), to: newest, applied };
  });
}

/**
 * Brings the database's Reverie schema up to date: creates the tables on an empty database and
 * applies the migrations a newer release added, in one transaction under an advisory lock (two
 * processes migrating at once is safe; the second finds the work done). Every store does this
 * on first use; call it ahead of time to migrate at deploy time, or as a role with more
 * privileges than the application's. Fails with `SCHEMA_TOO_NEW` when a newer release already
 * migrated the database.
 */
export function migratePostgres(client: PostgresClient): Promise<MigrationReport> {
  return runMigrations(client, POSTGRES_MIGRATIONS);
}

const migrated = new WeakMap<PostgresClient, Promise<unknown>>();

/**
 * Migrates once per client and process, for the stores to await before their first statement;
 * a failed attempt is forgotten, so the next call tries again.
 */
export function ensureMigrated(client: PostgresClient): Promise<unknown> {
  let pending = migrated.get(client);
  if (!pending) {
    pending = migratePostgres(client);
    migrated.set(client, pending);
    pending.catch(() => migrated.delete(client));
  }
  return pending;
}
