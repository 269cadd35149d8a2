/** One row of a result, as the driver returns it. */
export type PostgresRow = Record<string, unknown>;

/**
 * What every Reverie store needs from a PostgreSQL connection, whatever the driver: node-postgres
 * (`postgresClientFromPool`, `postgresClientFromConnectionString`) or PGlite in-process
 * (`postgresClientFromPglite`). Errors come out as `ReverieError`s (see `postgresError`).
 */
export interface PostgresClient {
  /** Runs one statement with `$1…` parameters and returns its rows. */
  query<T extends object = PostgresRow>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Runs `fn` in a transaction on one connection: committed when `fn` resolves, rolled back when
   * it throws (the error is rethrown). Inside another transaction it becomes a savepoint.
   */
  transaction<T>(fn: (tx: PostgresClient) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on one connection held throughout (no transaction of its own), for what lives as
   * long as a session: session-level advisory locks, `SET` without `LOCAL`. Undo what `fn` set
   * up (unlock) before it returns: a pooled connection goes back to the pool afterwards. When
   * `fn` throws, the connection is closed instead, so nothing it set up outlives the session.
   */
  session<T>(fn: (session: PostgresClient) => Promise<T>): Promise<T>;
  /** Releases what this client owns (a pool it created); a pool or database passed in is the caller's. */
  close(): Promise<void>;
}
