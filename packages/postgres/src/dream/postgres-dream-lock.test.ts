import { ManualClock, silentLogger } from '@reverie/core';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import { realServer, usePgliteClient, useRealClient, useRealDatabase } from '../../test/test-databases';
import { PostgresDreamStateStore } from './postgres-dream-state-store';

const clock = new ManualClock('2026-03-01T12:00:00.000Z');

describe('PostgresDreamStateStore lock on PGlite', () => {
  const client = usePgliteClient();

  it('shows the holder its row names: run, host, pid and since', async () => {
    const store = new PostgresDreamStateStore({ client: client(), scope: 'lock:holder', clock, pid: 1234, host: 'worker-7' });
    const handle = await store.lock.acquire('a00000000001');
    expect(await new PostgresDreamStateStore({ client: client(), scope: 'lock:holder', clock }).lock.state()).toEqual({
      status: 'held',
      stale: false,
      holder: { pid: 1234, host: 'worker-7', acquiredAt: '2026-03-01T12:00:00.000Z', runId: 'a00000000001', token: handle.holder.token },
    });
    await handle.release();
  });

  it('keeps scopes apart: one scope held leaves another free', async () => {
    const held = await new PostgresDreamStateStore({ client: client(), scope: 'lock:one', clock }).lock.acquire();
    const other = new PostgresDreamStateStore({ client: client(), scope: 'lock:two', clock });
    expect(await other.lock.state()).toEqual({ status: 'free' });
    const second = await other.lock.acquire();
    await Promise.all([held.release(), second.release()]);
  });

  it('refuses bad options', () => {
    expect(() => new PostgresDreamStateStore({ client: client(), scope: 'lock:bad', clock, pid: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new PostgresDreamStateStore({ client: client(), scope: 'lock:bad', clock, lockCheckMs: 5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('lockCheckMs') }),
    );
    expect(() => new PostgresDreamStateStore({ client: client(), scope: 'lock:bad', clock, host: '' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new PostgresDreamStateStore({ client: client(), scope: '', clock })).toThrow(expect.objectContaining({ code: 'INVALID_SCOPE' }));
  });
});

describe.skipIf(!realServer.url)('PostgresDreamStateStore lock on a real PostgreSQL server', () => {
  const database = useRealDatabase();
  const shared = useRealClient(database);

  it('is exclusive between two stores sharing one pool, each holding a connection of its own', async () => {
    const [a, b] = [new PostgresDreamStateStore({ client: shared(), scope: 'pool:one', clock }), new PostgresDreamStateStore({ client: shared(), scope: 'pool:one', clock })];
    const held = await a.lock.acquire('a00000000001');
    await expect(b.lock.acquire('b00000000001')).rejects.toMatchObject({ code: 'LOCK_HELD', message: expect.stringContaining('run a00000000001') });
    await held.release();
    await (await b.lock.acquire('b00000000001')).release();
  });

  it('no longer reports a holder whose session died, though its row is still there', async () => {
    const own: PostgresClient = postgresClientFromConnectionString(`${database()}?application_name=reverie_doomed_holder`);
    try {
      const logger = { ...silentLogger, error: vi.fn() };
      await new PostgresDreamStateStore({ client: own, scope: 'pool:dead', clock, logger, lockCheckMs: 50 }).lock.acquire('a00000000002');
      const observer = new PostgresDreamStateStore({ client: shared(), scope: 'pool:dead', clock });
      expect(await observer.lock.state()).toMatchObject({ status: 'held', holder: { runId: 'a00000000002' } });
      const admin = new pg.Client({ connectionString: database() });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'reverie_doomed_holder'");
      await admin.end();
      expect(await shared().query("SELECT count(*)::int AS rows FROM reverie_dream_lock_holders WHERE scope = 'pool:dead'")).toEqual([{ rows: 1 }]);
      await expect.poll(() => observer.lock.state()).toEqual({ status: 'free' });
      // The holder finds out at its next check, and says so.
      await expect.poll(() => logger.error.mock.calls.length).toBe(1);
      expect(logger.error.mock.calls[0]![0]).toContain('Lost the connection holding the dream lock');
    } finally {
      await own.close();
    }
  });
});
