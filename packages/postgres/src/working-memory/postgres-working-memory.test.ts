import { ManualClock } from '@reverie/core';
import { describeWorkingMemoryConformance, MINUTE } from '@reverie/core/testing';
import { describe, expect, it } from 'vitest';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import { describeOnEachDatabase } from '../../test/each-database';
import { realServer, usePgliteClient, useRealDatabase } from '../../test/test-databases';
import { PostgresWorkingMemory } from './postgres-working-memory';

describeOnEachDatabase((database, client) => {
  describeWorkingMemoryConformance(
    `PostgresWorkingMemory on ${database}`,
    ({ clock, scope }) => new PostgresWorkingMemory({ client: client(), scope, clock }),
    {
      persistent: true,
    },
  );
});

describe('PostgresWorkingMemory', () => {
  const client = usePgliteClient();
  let run = 0;
  const scope = () => `wm-test-${(run += 1)}`;
  const rows = async (of: string) =>
    (await client().query<{ key: string }>('SELECT key FROM reverie_working_memory WHERE scope = $1 ORDER BY key', [of])).map(
      (row) => row.key,
    );

  it('refuses bad options with INVALID_OPTIONS and a bad scope with INVALID_SCOPE', () => {
    for (const bad of [{ defaultTtlMs: 0 }, { maxEntriesPerNamespace: 1.5 }, { maxCharsPerNamespace: 10 }, { sweepIntervalMs: -1 }]) {
      expect(() => new PostgresWorkingMemory({ client: client(), scope: 'user:1', ...bad })).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTIONS' }),
      );
    }
    expect(() => new PostgresWorkingMemory({ client: client(), scope: 'user/1' })).toThrow(
      expect.objectContaining({ code: 'INVALID_SCOPE' }),
    );
    expect(() => new PostgresWorkingMemory({ client: {} as never, scope: 'user:1' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });

  it('applies its own TTL and cap', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const store = new PostgresWorkingMemory({
      client: client(),
      scope: scope(),
      clock,
      defaultTtlMs: MINUTE,
      maxEntriesPerNamespace: 2,
      sweepIntervalMs: 0,
    });
    for (const name of ['a', 'b', 'c']) await store.set(`session/s1/${name}`, name);
    expect((await store.list()).map((entry) => entry.key)).toEqual(['session/s1/b', 'session/s1/c']);
    clock.advance(MINUTE);
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it('deletes expired rows on every write, and on sweep', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const mine = scope();
    const store = new PostgresWorkingMemory({ client: client(), scope: mine, clock, sweepIntervalMs: 0 });
    await store.set('session/s1/short', 'x', { ttlMs: MINUTE });
    await store.set('session/s1/long', 'y', { ttlMs: 60 * MINUTE });
    clock.advance(2 * MINUTE);
    expect(await rows(mine)).toEqual(['session/s1/long', 'session/s1/short']);
    await store.set('patrol/p/other', 'z');
    expect(await rows(mine)).toEqual(['patrol/p/other', 'session/s1/long']);
    clock.advance(60 * MINUTE);
    expect(await store.sweep()).toBe(2);
    expect(await rows(mine)).toEqual([]);
    await store.close();
  });

  it('sweeps on its timer, for a scope nobody writes to', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const mine = scope();
    const writer = new PostgresWorkingMemory({ client: client(), scope: mine, clock, sweepIntervalMs: 0 });
    await writer.set('session/s1/short', 'x', { ttlMs: MINUTE });
    clock.advance(2 * MINUTE);
    const sweeper = new PostgresWorkingMemory({ client: client(), scope: mine, clock, sweepIntervalMs: 20 });
    await expect.poll(() => rows(mine), { timeout: 5000 }).toEqual([]);
    await sweeper.close();
    await writer.close();
  });

  it('refuses a save past maxCharsPerNamespace and leaves the namespace as it was', async () => {
    const mine = scope();
    const store = new PostgresWorkingMemory({ client: client(), scope: mine, maxCharsPerNamespace: 1_000_000, sweepIntervalMs: 0 });
    await store.set('session/s1/big', 'x'.repeat(600_000));
    await expect(store.set('session/s1/bigger', 'y'.repeat(600_000))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('maxCharsPerNamespace'),
    });
    expect(await rows(mine)).toEqual(['session/s1/big']);
    await store.set('session/s2/other', 'y'.repeat(600_000));
    await store.close();
  });
});

describe.skipIf(!realServer.url)('PostgresWorkingMemory on a real PostgreSQL server', () => {
  const database = useRealDatabase();

  it('keeps the cap when four processes fill one namespace at once', async () => {
    const clients = Array.from({ length: 4 }, () => postgresClientFromConnectionString(database()));
    try {
      const stores = clients.map(
        (client) => new PostgresWorkingMemory({ client, scope: 'user:cap', maxEntriesPerNamespace: 10, sweepIntervalMs: 0 }),
      );
      await Promise.all(
        stores.map((store, i) =>
          Promise.all(Array.from({ length: 15 }, (_, j) => store.set(`session/shared/p${i}-${j}`, `value ${i} ${j}`))),
        ),
      );
      expect(await stores[0]!.list('session/shared')).toHaveLength(10);
      const [stats] = await clients[0]!.query<{ entries: string }>(
        "SELECT entries FROM reverie_working_memory_stats WHERE scope = 'user:cap'",
      );
      expect(Number(stats!.entries)).toBe(10);
      await Promise.all(stores.map((store) => store.close()));
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
