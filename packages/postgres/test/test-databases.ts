import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { vector } from '@electric-sql/pglite/vector';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { PostgresClient } from '../src/client/postgres-client';
import { postgresClientFromConnectionString } from '../src/client/node-postgres-client';
import { postgresClientFromPglite } from '../src/client/pglite-client';

/** The real server the global setup started or found, or why there is none (its suites skip). */
export const realServer = { url: inject('postgresAdminUrl'), skipReason: inject('postgresSkipReason') };

/** `url` with another database name. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: realServer.url! });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the real server for the calling test file (test files run in
 * parallel), created before its tests and dropped after them. Returns its connection string.
 */
export function useRealDatabase(): () => string {
  let url: string | undefined;
  const name = `reverie_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    url = withDatabase(realServer.url!, name);
  });
  afterAll(async () => {
    if (url) await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  return () => {
    if (!url) throw new Error('useRealDatabase() is read outside a test');
    return url;
  };
}

/** A client of its own (and its pool) on the test file's real database, ended after the file. */
export function useRealClient(database: () => string = useRealDatabase()): () => PostgresClient {
  let client: PostgresClient | undefined;
  beforeAll(() => {
    client = postgresClientFromConnectionString(database());
  });
  afterAll(async () => client?.close());
  return () => client!;
}

export interface PgliteOptions {
  /** Load pgvector (default true). */
  vector?: boolean;
  /** Load btree_gin (default true). */
  btreeGin?: boolean;
  /** A directory to keep the database in (default: in memory), so it can be closed and opened again. */
  dataDir?: string;
}

/** An in-process PGlite database with the extensions the stores use. */
export function createPglite(options: PgliteOptions = {}): Promise<PGlite> {
  return PGlite.create({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    extensions: { ...(options.btreeGin === false ? {} : { btree_gin }), ...(options.vector === false ? {} : { vector }) },
  });
}

/** A PGlite database for the calling test file, closed after it. */
export function usePgliteClient(options: PgliteOptions = {}): () => PostgresClient {
  let db: PGlite | undefined;
  let client: PostgresClient | undefined;
  beforeAll(async () => {
    db = await createPglite(options);
    client = postgresClientFromPglite(db);
  });
  afterAll(async () => db?.close());
  return () => client!;
}

/**
 * How `client`'s server stores vectors: as pgvector's `vector` where the extension is available
 * (the test PGlite loads it; Debian's PostgreSQL ships none, a server with it installed has it),
 * else as `real[]`.
 */
export async function vectorStorageOn(client: PostgresClient): Promise<'vector' | 'real[]'> {
  const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  return available.length > 0 ? 'vector' : 'real[]';
}
