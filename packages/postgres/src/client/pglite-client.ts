import type { PostgresClient } from './postgres-client';
import { postgresError } from './postgres-error';

const QUERY = 'query PGlite';

/** The part of a PGlite transaction this adapter uses. */
export interface PgliteTransactionLike {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** The part of a `PGlite` instance (`@electric-sql/pglite`) this adapter uses. */
export interface PgliteLike extends PgliteTransactionLike {
  transaction<T>(fn: (tx: PgliteTransactionLike) => Promise<T>): Promise<T>;
}

function transactionClient(tx: PgliteTransactionLike, depth: number): PostgresClient {
  const client: PostgresClient = {
    async query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      try {
        return (await tx.query<T>(sql, params as unknown[] | undefined)).rows;
      } catch (error) {
        throw postgresError(error, QUERY);
      }
    },
    async transaction<T>(fn: (inner: PostgresClient) => Promise<T>): Promise<T> {
      const savepoint = `reverie_savepoint_${depth}`;
      await client.query(`SAVEPOINT ${savepoint}`);
      try {
        const result = await fn(transactionClient(tx, depth + 1));
        await client.query(`RELEASE SAVEPOINT ${savepoint}`);
        return result;
      } catch (error) {
        await client.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw error;
      }
    },
    session: (fn) => fn(client),
    close: async () => undefined,
  };
  return client;
}

/**
 * A `PostgresClient` over a PGlite database (PostgreSQL compiled to WebAssembly, in-process):
 * for tests, demos and single-process apps. PGlite has one connection, so a session is that
 * connection and a transaction holds the whole database until it ends. Load the extensions the
 * stores use when creating it: `new PGlite({ extensions: { vector, btree_gin } })`. The
 * database is the caller's: `close()` leaves it open.
 */
export function postgresClientFromPglite(db: PgliteLike): PostgresClient {
  const client: PostgresClient = {
    async query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      try {
        return (await db.query<T>(sql, params as unknown[] | undefined)).rows;
      } catch (error) {
        throw postgresError(error, QUERY);
      }
    },
    async transaction<T>(fn: (tx: PostgresClient) => Promise<T>): Promise<T> {
      // What `fn` throws is rethrown as it is; only BEGIN and COMMIT failures are PGlite's own.
      const thrown: { error?: unknown } = {};
      try {
        return await db.transaction(async (tx) => {
          try {
            return await fn(transactionClient(tx, 1));
          } catch (error) {
            thrown.error = error;
            throw error;
          }
        });
      } catch (error) {
        throw 'error' in thrown ? thrown.error : postgresError(error, QUERY);
      }
    },
    session: (fn) => fn(client),
    close: async () => undefined,
  };
  return client;
}
