import type { PostgresClient } from '../src/client/postgres-client';

/**
 * A `PostgresClient` that counts the statements run through it, in its transactions and sessions
 * too (a transaction counts its BEGIN and COMMIT): how many round trips a piece of work costs, a
 * figure the shared machine's load does not blur. Reset `statements` between measurements.
 */
export class CountingClient implements PostgresClient {
  statements = 0;

  constructor(private readonly inner: PostgresClient) {}

  query<T extends object>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    this.statements += 1;
    return this.inner.query<T>(sql, params);
  }

  transaction<T>(fn: (tx: PostgresClient) => Promise<T>): Promise<T> {
    this.statements += 2;
    return this.inner.transaction((tx) => fn(this.counting(tx)));
  }

  session<T>(fn: (session: PostgresClient) => Promise<T>): Promise<T> {
    return this.inner.session((session) => fn(this.counting(session)));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** `client` counting into this counter. */
  private counting(client: PostgresClient): PostgresClient {
    return {
      query: <T extends object>(sql: string, params?: readonly unknown[]) => {
        this.statements += 1;
        return client.query<T>(sql, params);
      },
      transaction: (fn) => {
        this.statements += 2;
        return client.transaction((tx) => fn(this.counting(tx)));
      },
      session: (fn) => client.session((session) => fn(this.counting(session))),
      close: () => client.close(),
    };
  }
}
