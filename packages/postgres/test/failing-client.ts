import type { PostgresClient } from '../src/client/postgres-client';

/**
 * `client`, except that the first statement `matches` picks throws "injected failure" instead of
 * running (inside a transaction too): a crash in the middle of a write.
 */
export function failingOn(client: PostgresClient, matches: (sql: string) => boolean): PostgresClient {
  let armed = true;
  const wrap = (inner: PostgresClient): PostgresClient => ({
    async query(sql, params) {
      if (armed && matches(sql)) {
        armed = false;
        throw new Error('injected failure');
      }
      return inner.query(sql, params);
    },
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
    session: (fn) => inner.session((session) => fn(wrap(session))),
    close: () => inner.close(),
  });
  return wrap(client);
}
