import { describe, expect, it } from 'vitest';
import { postgresClientFromConnectionString } from './node-postgres-client';
import type { PostgresClient } from './postgres-client';
import { realServer, usePgliteClient, useRealClient } from '../../test/test-databases';

function describeClient(label: string, client: () => PostgresClient, options: { connections: 'one' | 'many' }) {
  describe(`PostgresClient on ${label}`, () => {
    it('commits a transaction that resolves and rolls back one that throws, rethrowing its error', async () => {
      await client().query('CREATE TABLE IF NOT EXISTS client_test (k text PRIMARY KEY, v int NOT NULL)');
      await client().query('DELETE FROM client_test');
      await client().transaction(async (tx) => tx.query("INSERT INTO client_test VALUES ('a', 1)"));
      const boom = new Error('boom');
      await expect(
        client().transaction(async (tx) => {
          await tx.query("INSERT INTO client_test VALUES ('b', 2)");
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await client().query('SELECT k FROM client_test ORDER BY k')).toEqual([{ k: 'a' }]);
    });

    it('turns a nested transaction into a savepoint', async () => {
      await client().query('CREATE TABLE IF NOT EXISTS client_nested (k text PRIMARY KEY)');
      await client().query('DELETE FROM client_nested');
      await client().transaction(async (tx) => {
        await tx.query("INSERT INTO client_nested VALUES ('outer')");
        await expect(
          tx.transaction(async (inner) => {
            await inner.query("INSERT INTO client_nested VALUES ('inner')");
            throw new Error('undo the inner part only');
          }),
        ).rejects.toThrow('undo the inner part only');
      });
      expect(await client().query('SELECT k FROM client_nested')).toEqual([{ k: 'outer' }]);
    });

    it('reports a unique violation as CONFLICT and other server errors as DATABASE_ERROR', async () => {
      await client().query('CREATE TABLE IF NOT EXISTS client_unique (k text PRIMARY KEY)');
      await client().query("INSERT INTO client_unique VALUES ('x') ON CONFLICT DO NOTHING");
      await expect(client().query("INSERT INTO client_unique VALUES ('x')")).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(client().query('SELECT * FROM no_such_table')).rejects.toMatchObject({
        code: 'DATABASE_ERROR',
        details: { code: '42P01' },
      });
    });

    it('runs a session on one connection throughout', async () => {
      const pids = await client().session(async (session) => {
        const seen = new Set<number>();
        for (let i = 0; i < 5; i++) {
          await Promise.all([client().query('SELECT pg_backend_pid()'), client().query('SELECT 1')]);
          const [row] = await session.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          seen.add(row!.pid);
        }
        return seen;
      });
      expect(pids.size).toBe(1);
      if (options.connections === 'many') {
        // A session-level advisory lock taken in the session is seen as held by another connection.
        await client().session(async (session) => {
          await session.query('SELECT pg_advisory_lock(42)');
          const [other] = await client().query<{ got: boolean }>('SELECT pg_try_advisory_lock(42) AS got');
          expect(other!.got).toBe(false);
          await session.query('SELECT pg_advisory_unlock(42)');
        });
      }
    });

    if (options.connections === 'many') {
      it('closes the connection of a session that throws, so nothing it took outlives it', async () => {
        const boom = new Error('the session failed before unlocking');
        await expect(
          client().session(async (session) => {
            await session.query('SELECT pg_advisory_lock(43)');
            throw boom;
          }),
        ).rejects.toBe(boom);
        const [other] = await client().query<{ got: boolean }>('SELECT pg_try_advisory_lock(43) AS got');
        expect(other!.got).toBe(true);
        await client().query('SELECT pg_advisory_unlock(43)');
      });

      it('survives the server ending a connection held by a session: its next statement fails, the process does not', async () => {
        const failure = client().session(async (session) => {
          const [row] = await session.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          await client().query('SELECT pg_terminate_backend($1)', [row!.pid]);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await session.query('SELECT 1');
        });
        await expect(failure).rejects.toBeInstanceOf(Error);
        expect(await client().query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      });
    }
  });
}

describeClient('PGlite', usePgliteClient(), { connections: 'one' });

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  describeClient('node-postgres', useRealClient(), { connections: 'many' });
});

describe('postgresClientFromConnectionString', () => {
  it('reports a server that is not there as DATABASE_UNAVAILABLE, with advice', async () => {
    const client = postgresClientFromConnectionString('postgres://nobody@127.0.0.1:1/nowhere');
    try {
      await expect(client.query('SELECT 1')).rejects.toMatchObject({
        code: 'DATABASE_UNAVAILABLE',
        message: expect.stringContaining('Check the host, port'),
      });
      await expect(client.transaction(async () => undefined)).rejects.toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    } finally {
      await client.close();
    }
  });
});
