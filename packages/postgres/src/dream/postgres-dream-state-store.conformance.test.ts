import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { DreamStateStore } from '@reverie/dream-state';
import { describeDreamEngineConformance } from '@reverie/dream/testing';
import { describeDreamStateConformance, type DreamStateFactory } from '@reverie/dream-state/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import { postgresClientFromPglite } from '../client/pglite-client';
import { createPglite, realServer, useRealDatabase } from '../../test/test-databases';
import { PostgresDreamStateStore } from './postgres-dream-state-store';

/**
 * PGlite: one database on disk shared by every handle of a test (one process, one connection).
 * A crash is the process ending: the database is closed and opened again from its directory,
 * so its session and advisory locks are gone and what was committed is still there.
 */
describe('on PGlite', () => {
  const root = mkdtempSync(join(tmpdir(), 'reverie-pglite-dream-'));
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite({ dataDir: root });
  });
  afterAll(async () => {
    await db.close();
    rmSync(root, { recursive: true, force: true });
  });
  // Every handle reaches the database through this, so it follows the database across a reopen.
  const current: PostgresClient = {
    query: (sql, params) => postgresClientFromPglite(db).query(sql, params),
    transaction: (fn) => postgresClientFromPglite(db).transaction(fn),
    session: (fn) => postgresClientFromPglite(db).session(fn),
    close: async () => undefined,
  };
  const onPglite: DreamStateFactory = ({ clock, scope }) => ({
    open: async () => new PostgresDreamStateStore({ client: current, scope, clock }),
    async crash() {
      await db.close();
      db = await createPglite({ dataDir: root });
    },
  });
  describeDreamStateConformance('PostgresDreamStateStore on PGlite', onPglite);
  describeDreamEngineConformance('PostgresDreamStateStore on PGlite', onPglite);
});

/** A real server: each handle has a pool of its own, named, so a crash ends that pool's sessions on the server. */
describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  const database = useRealDatabase();
  const pools = new Map<DreamStateStore, { client: PostgresClient; name: string }>();
  let handles = 0;
  afterAll(async () => {
    await Promise.all([...pools.values()].map(({ client }) => client.close()));
  });
  const onServer: DreamStateFactory = ({ clock, scope }) => ({
    async open() {
      const name = `reverie_handle_${process.pid}_${++handles}`;
      const url = new URL(database());
      url.searchParams.set('application_name', name);
      const client = postgresClientFromConnectionString(url.toString());
      const store = new PostgresDreamStateStore({ client, scope, clock });
      pools.set(store, { client, name });
      return store;
    },
    async crash(store) {
      const admin = new pg.Client({ connectionString: database() });
      await admin.connect();
      try {
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [pools.get(store)!.name]);
      } finally {
        await admin.end();
      }
    },
  });
  describeDreamStateConformance('PostgresDreamStateStore on PostgreSQL', onServer);
  describeDreamEngineConformance('PostgresDreamStateStore on PostgreSQL', onServer);
});
