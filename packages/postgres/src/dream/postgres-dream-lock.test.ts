import { type ILongTermMemory, ManualClock, type MemoryEntry, silentLogger } from '@reverie/core';
import { DreamEngine, type DreamPass } from '@reverie/dream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import { realServer, usePgliteClient, useRealClient, useRealDatabase } from '../../test/test-databases';
import { PostgresMemoryStore } from '../memory/postgres-memory-store';
import { PostgresDreamStateStore } from './postgres-dream-state-store';

/** Ends every connection of `application_name` (as a DBA's pg_terminate_backend would). */
async function terminate(url: string, applicationName: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
  } finally {
    await admin.end();
  }
}

const entry = (id: string, content: string): MemoryEntry => ({
  id,
  content,
  category: 'general',
  tags: [],
  metadata: {},
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
  lastSeenAt: '2026-03-01T12:00:00.000Z',
  reinforcementCount: 1,
  importance: 0.5,
});

/** A pass that saves two new entries. */
const twoSaves: DreamPass = {
  name: 'memory-consolidation',
  phase: 'rem',
  requires: ['memory'],
  model: 'none',
  async plan() {
    return {
      operations: [
        { op: 'memory.save', entry: entry('0000000000c1', 'First note of the run'), expectUpdatedAt: null, reason: 'test' },
        { op: 'memory.save', entry: entry('0000000000c2', 'Second note of the run'), expectUpdatedAt: null, reason: 'test' },
      ],
      itemsProcessed: 2,
      notes: [],
      refusals: [],
    };
  },
};

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
    expect(() => new PostgresDreamStateStore({ client: client(), scope: 'lock:bad', clock, pid: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => new PostgresDreamStateStore({ client: client(), scope: 'lock:bad', clock, lockCheckMs: 5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('lockCheckMs') }),
    );
    expect(() => new PostgresDreamStateStore({ client: client(), scope: 'lock:bad', clock, host: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => new PostgresDreamStateStore({ client: client(), scope: '', clock })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCOPE' }),
    );
  });
});

describe.skipIf(!realServer.url)('PostgresDreamStateStore lock on a real PostgreSQL server', () => {
  const database = useRealDatabase();
  const shared = useRealClient(database);

  it('is exclusive between two stores sharing one pool, each holding a connection of its own', async () => {
    const [a, b] = [
      new PostgresDreamStateStore({ client: shared(), scope: 'pool:one', clock }),
      new PostgresDreamStateStore({ client: shared(), scope: 'pool:one', clock }),
    ];
    const held = await a.lock.acquire('a00000000001');
    await expect(b.lock.acquire('b00000000001')).rejects.toMatchObject({
      code: 'LOCK_HELD',
      message: expect.stringContaining('run a00000000001'),
    });
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
      expect(await shared().query("SELECT count(*)::int AS rows FROM reverie_dream_lock_holders WHERE scope = 'pool:dead'")).toEqual([
        { rows: 1 },
      ]);
      await expect.poll(() => observer.lock.state()).toEqual({ status: 'free' });
      // The holder finds out at its next check, and says so.
      await expect.poll(() => logger.error.mock.calls.length).toBe(1);
      expect(logger.error.mock.calls[0]![0]).toContain('Lost the connection holding the dream lock');
    } finally {
      await own.close();
    }
  });

  it("stops a cycle before its next write once the lock's backend is terminated, and leaves the run for another runner to recover", async () => {
    const scope = 'pool:lost';
    const own = postgresClientFromConnectionString(`${database()}?application_name=reverie_lost_lock`);
    const dataPath = mkdtempSync(join(tmpdir(), 'reverie-lost-lock-'));
    try {
      const logger = { ...silentLogger, error: vi.fn() };
      const memory = new PostgresMemoryStore({ client: shared(), scope, clock });
      // The first save of the run ends the lock's session, and returns once the holder noticed.
      let saves = 0;
      const gated = new Proxy(memory, {
        get(target, property) {
          if (property !== 'save') return Reflect.get(target, property, target);
          return async (...args: Parameters<ILongTermMemory['save']>) => {
            const saved = await target.save(...args);
            if ((saves += 1) === 1) {
              await terminate(database(), 'reverie_lost_lock');
              await expect.poll(() => logger.error.mock.calls.length).toBe(1);
            }
            return saved;
          };
        },
      });
      const state = new PostgresDreamStateStore({ client: own, scope, clock, logger, lockCheckMs: 20 });
      const engine = new DreamEngine({ dataPath, clock, logger: silentLogger, state, memory: gated }, [twoSaves]);
      await expect(engine.run({ trigger: 'test' })).rejects.toMatchObject({
        code: 'LOCK_LOST',
        message: expect.stringContaining('Lost the dream lock of scope "pool:lost"'),
      });
      expect((await memory.list()).map((saved) => saved.id)).toEqual(['0000000000c1']);
      const observer = new PostgresDreamStateStore({ client: shared(), scope, clock });
      const [run] = await observer.runs.list();
      expect(run?.manifest).toMatchObject({ status: 'running', applying: 'memory-consolidation' });
      expect(await (await observer.runs.open(run!.manifest.runId))!.readJournal()).toEqual([]);

      const recovering = new DreamEngine({ dataPath, clock, logger: silentLogger, state: observer, memory }, [twoSaves]);
      expect(await recovering.recover()).toEqual([run!.manifest.runId]);
      expect((await memory.list()).map((saved) => saved.id)).toEqual(['0000000000c1', '0000000000c2']);
      expect((await observer.runs.list())[0]?.manifest.status).toBe('interrupted');
    } finally {
      await own.close();
      rmSync(dataPath, { recursive: true, force: true });
    }
  });

  it("stops an undo before its next write once the lock's backend is terminated, and lets another runner finish the undo", async () => {
    const scope = 'pool:lost-undo';
    const own = postgresClientFromConnectionString(`${database()}?application_name=reverie_lost_undo_lock`);
    const dataPath = mkdtempSync(join(tmpdir(), 'reverie-lost-undo-'));
    try {
      const memory = new PostgresMemoryStore({ client: shared(), scope, clock });
      const observer = new PostgresDreamStateStore({ client: shared(), scope, clock });
      const report = await new DreamEngine({ dataPath, clock, logger: silentLogger, state: observer, memory }, [twoSaves]).run({
        trigger: 'test',
      });
      expect((await memory.list()).map((saved) => saved.id)).toEqual(['0000000000c1', '0000000000c2']);

      const logger = { ...silentLogger, error: vi.fn() };
      // The undo's first delete (of the newest entry) ends the lock's session, and returns once the holder noticed.
      let deletes = 0;
      const gated = new Proxy(memory, {
        get(target, property) {
          if (property !== 'delete') return Reflect.get(target, property, target);
          return async (...args: Parameters<ILongTermMemory['delete']>) => {
            const deleted = await target.delete(...args);
            if ((deletes += 1) === 1) {
              await terminate(database(), 'reverie_lost_undo_lock');
              await expect.poll(() => logger.error.mock.calls.length).toBe(1);
            }
            return deleted;
          };
        },
      });
      const state = new PostgresDreamStateStore({ client: own, scope, clock, logger, lockCheckMs: 20 });
      const undoing = new DreamEngine({ dataPath, clock, logger: silentLogger, state, memory: gated }, [twoSaves]);
      await expect(undoing.undo(report.runId)).rejects.toMatchObject({
        code: 'LOCK_LOST',
        message: expect.stringContaining('Lost the dream lock of scope "pool:lost-undo"'),
      });
      expect((await memory.list()).map((saved) => saved.id)).toEqual(['0000000000c1']);
      const [run] = await observer.runs.list();
      expect(run?.manifest.status).toBe('complete');

      const finishing = new DreamEngine({ dataPath, clock, logger: silentLogger, state: observer, memory }, [twoSaves]);
      expect(await finishing.undo(report.runId)).toMatchObject({ removed: ['memory 0000000000c1'], kept: [] });
      expect(await memory.list()).toEqual([]);
      expect((await observer.runs.list())[0]?.manifest.status).toBe('undone');
    } finally {
      await own.close();
      rmSync(dataPath, { recursive: true, force: true });
    }
  });
});
