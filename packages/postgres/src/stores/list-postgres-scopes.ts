import type { PostgresClient } from '../client/postgres-client';
import { ensureMigrated } from '../migrations/migrate-postgres';

/**
 * Every scope that has a row in one of Reverie's tables (`reverie_*` with a `scope` column in
 * the current schema), sorted: the scopes of a shared database, whichever stores they use.
 */
export async function listPostgresScopes(client: PostgresClient): Promise<string[]> {
  await ensureMigrated(client);
  const tables = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'scope' AND table_name LIKE 'reverie\\_%'
      ORDER BY table_name`,
  );
  if (tables.length === 0) return [];
  const union = tables.map(({ name }) => `SELECT scope FROM ${quoteIdentifier(name)}`).join(' UNION ');
  const rows = await client.query<{ scope: string }>(`SELECT scope FROM (${union}) scopes ORDER BY scope COLLATE "C"`);
  return rows.map((row) => row.scope);
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
