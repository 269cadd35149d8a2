import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { PostgresClient } from './postgres-client';
import { postgresError } from './postgres-error';

const QUERY = 'query PostgreSQL';

/** Connections whose rollback failed: they may be left inside a transaction, so none is reused. */
const brokenConnections = new WeakSet<PoolClient>();

/** A client bound to one checked-out connection; `depth` counts the transactions open on it. */
function connectionClient(connection: PoolClient, depth: number): PostgresClient {
  const run = async (sql: string) => {
    try {
      await connection.query(sql);
    } catch (error) {
      throw postgresError(error, QUERY);
    }
  };
  const client: PostgresClient = {
    async query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      try {
        return (await connection.query(sql, params as unknown[] | undefined)).rows as T[];
      } catch (error) {
        throw postgresError(error, QUERY);
      }
    },
    async transaction<T>(fn: (tx: PostgresClient) => Promise<T>): Promise<T> {
      const savepoint = `reverie_savepoint_${depth}`;
      await run(depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      let result: T;
      try {
        result = await fn(connectionClient(connection, depth + 1));
      } catch (error) {
        await run(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`).catch((rollbackError: unknown) => {
          brokenConnections.add(connection);
          throw rollbackError;
        });
        throw error;
      }
      await run(depth === 0 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
      return result;
    },
    session: (fn) => fn(client),
    close: async () => undefined,
  };
  return client;
}

/**
 * Checks a connection out of `pool`, runs `fn` on it, and gives it back — destroyed if it broke,
 * or if `fn` failed and `destroyOnError` (a session whose locks or settings may be left behind).
 * While checked out, a connection the server ends (a restart, `pg_terminate_backend`) is
 * reported on it: the report is taken here, and its next query fails.
 */
async function withConnection<T>(pool: Pool, fn: (connection: PoolClient) => Promise<T>, destroyOnError = false): Promise<T> {
  let connection: PoolClient;
  try {
    connection = await pool.connect();
  } catch (error) {
    throw postgresError(error, 'connect to PostgreSQL');
  }
  const lost = () => void brokenConnections.add(connection);
  connection.on('error', lost);
  let failure: Error | undefined;
  try {
    return await fn(connection);
  } catch (error) {
    if (destroyOnError) {
      failure = new Error('the session ended with an error', { cause: error });
      await releaseSessionLocks(connection);
    }
    throw error;
  } finally {
    connection.off('error', lost);
    connection.release(brokenConnections.has(connection) ? new Error('the connection broke') : failure);
  }
}

/**
 * Releases the session-level advisory locks of a session that failed, before its connection is
 * destroyed: the server lets go of a closed connection's locks only once it notices the close,
 * and the caller may try to take them again at once. A connection that broke, or whose
 * transaction was left aborted, keeps them until the server ends it.
 */
async function releaseSessionLocks(connection: PoolClient): Promise<void> {
  if (brokenConnections.has(connection)) return;
  try {
    await connection.query('SELECT pg_advisory_unlock_all()');
  } catch {
    // Destroying the connection releases them all the same, a moment later.
  }
}

/**
 * A `PostgresClient` over a node-postgres `Pool` the application made (and ends): several
 * stores and Reverie instances can share it. Statements run on any pooled connection; a
 * transaction or a session holds one connection until it ends.
 */
export function postgresClientFromPool(pool: Pool): PostgresClient {
  return {
    async query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      try {
        return (await pool.query(sql, params as unknown[] | undefined)).rows as T[];
      } catch (error) {
        throw postgresError(error, QUERY);
      }
    },
    transaction: (fn) => withConnection(pool, (connection) => connectionClient(connection, 0).transaction(fn)),
    session: (fn) => withConnection(pool, (connection) => fn(connectionClient(connection, 0)), true),
    close: async () => undefined,
  };
}

/**
 * A `PostgresClient` with a pool of its own, made from a connection string such as
 * `postgres://user:password@host:5432/database`; `close()` ends the pool.
 */
export function postgresClientFromConnectionString(connectionString: string, options: { max?: number } = {}): PostgresClient {
  const pool = new pg.Pool({ connectionString, ...(options.max === undefined ? {} : { max: options.max }) });
  // An idle connection that drops (a server restart) is reported on the pool: without a
  // listener Node would crash the process. The next query gets a fresh connection.
  pool.on('error', () => undefined);
  const client = postgresClientFromPool(pool);
  let ended: Promise<void> | undefined;
  return { ...client, close: () => (ended ??= pool.end()) };
}
