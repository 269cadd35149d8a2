import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { ManualClock } from '@reverie/core';
import { createReverie } from 'reverie';
import { createPglite, realServer, useRealDatabase } from '../../postgres/test/test-databases';
import { buildIfStale } from './built-packages';
import { describeScopeIsolation } from './scope-isolation-property';

// The scope property of scopes.test.ts on PostgreSQL: every store and the dream state there.
beforeAll(() => buildIfStale(['core', 'dream-state', 'file-store', 'dream', 'postgres']), 600_000);

/** The same concerns as the file stores' run of the property. */
const onPostgres = (dataPath: string) =>
  createReverie({ dataPath, clock: new ManualClock('2026-06-01T00:00:00Z') })
    .withMemory()
    .withWorkingMemory()
    .withConversationLog()
    .withDreaming({ enabled: false });

describe('on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
  }, 60_000);
  afterAll(async () => db.close());
  describeScopeIsolation('PostgreSQL (PGlite)', () => (dataPath) => onPostgres(dataPath).withPostgres({ pglite: db }));
});

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  const database = useRealDatabase();
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: database() });
    // The database is dropped WITH (FORCE) after the file, which can reach a connection that
    // pool.end() is still closing: the pool reports it as an error, to be ignored here.
    pool.on('error', () => undefined);
  });
  afterAll(async () => pool.end());
  describeScopeIsolation('PostgreSQL (a real server, one pool)', () => (dataPath) => onPostgres(dataPath).withPostgres({ pool }));
});
