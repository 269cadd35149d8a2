import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { ManualClock } from '@reverie/core';
import { createReverie } from 'reverie';
import { createPglite, realServer, useRealDatabase } from '../../postgres/test/test-databases';
import { buildIfStale } from './built-packages';
import { describeScopeIsolation } from './scope-isolation-property';

// The scope property of scopes.test.ts on PostgreSQL: memory and the dream state are there; the
// working memory is not on PostgreSQL in this release, so its command is left out.
beforeAll(() => buildIfStale(['core', 'file-store', 'dream', 'postgres']), 600_000);

const clock = () => new ManualClock('2026-06-01T00:00:00Z');

describe('on PGlite', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
  }, 60_000);
  afterAll(async () => db.close());
  describeScopeIsolation('PostgreSQL (PGlite)', () => ({
    builder: (dataPath) => createReverie({ dataPath, clock: clock() }).withPostgres({ pglite: db }).withMemory().withDreaming({ enabled: false }),
    workingMemory: false,
  }));
});

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  const database = useRealDatabase();
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: database() });
  });
  afterAll(async () => pool.end());
  describeScopeIsolation('PostgreSQL (a real server, one pool)', () => ({
    builder: (dataPath) => createReverie({ dataPath, clock: clock() }).withPostgres({ pool }).withMemory().withDreaming({ enabled: false }),
    workingMemory: false,
  }));
});
