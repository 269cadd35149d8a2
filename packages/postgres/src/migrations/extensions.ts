import { ReverieError } from '@reverie/core';
import type { PostgresClient } from '../client/postgres-client';

/**
 * Creates extension `name` when it is missing and returns whether it is there now. Tried in a
 * savepoint, so a server without the extension (or a role that may not create it) leaves the
 * migration transaction usable.
 */
export async function tryCreateExtension(tx: PostgresClient, name: string): Promise<boolean> {
  try {
    await tx.transaction((savepoint) => savepoint.query(`CREATE EXTENSION IF NOT EXISTS ${name}`));
    return true;
  } catch {
    return false;
  }
}

/** Creates extension `name` when it is missing, or fails with what a database administrator must do. */
export async function requireExtension(tx: PostgresClient, name: string, why: string): Promise<void> {
  if (await tryCreateExtension(tx, name)) return;
  throw new ReverieError(
    'DATABASE_ERROR',
    `The PostgreSQL extension "${name}" is needed ${why}, and this role could not create it. It ships with PostgreSQL (contrib): ask a database owner or superuser to run "CREATE EXTENSION ${name};" in this database. With PGlite, load it: new PGlite({ extensions: { ${name} } }) from '@electric-sql/pglite/contrib/${name}'.`,
    { details: { extension: name } },
  );
}

/** True when extension `name` is installed in the current database. */
export async function hasExtension(client: PostgresClient, name: string): Promise<boolean> {
  const rows = await client.query('SELECT 1 FROM pg_extension WHERE extname = $1', [name]);
  return rows.length > 0;
}
