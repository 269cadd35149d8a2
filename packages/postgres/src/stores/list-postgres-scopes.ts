import { validateScope } from '@reverie/core';
import type { PostgresClient } from '../client/postgres-client';
import { ensureMigrated } from '../migrations/migrate-postgres';

/** Reverie's tables (`reverie_*`) with a `scope` column in the current schema, sorted. */
async function scopedTables(client: PostgresClient): Promise<string[]> {
  await ensureMigrated(client);
  const tables = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'scope' AND table_name LIKE 'reverie\\_%'
      ORDER BY table_name`,
  );
  return tables.map(({ name }) => name);
}

/**
 * Every scope that has a row in one of Reverie's tables (`reverie_*` with a `scope` column in
 * the current schema), sorted: the scopes of a shared database, whichever stores they use.
 */
export async function listPostgresScopes(client: PostgresClient): Promise<string[]> {
  const tables = await scopedTables(client);
  if (tables.length === 0) return [];
  const union = tables.map((name) => `SELECT scope FROM ${quoteIdentifier(name)}`).join(' UNION ');
  const rows = await client.query<{ scope: string }>(`SELECT scope FROM (${union}) scopes ORDER BY scope COLLATE "C"`);
  return rows.map((row) => row.scope);
}

/**
 * SPEC B14: removes every row of `scope` from every one of Reverie's tables, in one transaction
 * (all or nothing, also after a crash), and says how many rows went from how many tables. Close
 * the scope's stores first; another scope's rows are never touched. INVALID_SCOPE for a bad scope.
 */
export async function dropPostgresScope(client: PostgresClient, scope: string): Promise<{ rows: number; tables: number }> {
  validateScope(scope);
  const tables = await scopedTables(client);
  return client.transaction(async (tx) => {
    let rows = 0;
    for (const name of tables) {
      const [deleted] = await tx.query<{ n: number }>(
        `WITH deleted AS (DELETE FROM ${quoteIdentifier(name)} WHERE scope = $1 RETURNING 1) SELECT count(*)::int AS n FROM deleted`,
        [scope],
      );
      rows += deleted?.n ?? 0;
    }
    return { rows, tables: tables.length };
  });
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
