import { ManualClock } from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import { ensureMigrated } from '../migrations/migrate-postgres';
import { PostgresMemoryStore } from '../memory/postgres-memory-store';
import { realServer, useRealDatabase } from '../../test/test-databases';
import { PostgresChangeFeed } from './postgres-change-feed';

const clock = new ManualClock('2026-03-01T12:00:00.000Z');

describe.skipIf(!realServer.url)('the change feed on a real PostgreSQL server', () => {
  const database = useRealDatabase();

  it('hands out positions in commit order: a writer waits for the one before it to commit', async () => {
    const first = postgresClientFromConnectionString(database());
    const second = postgresClientFromConnectionString(database());
    try {
      await ensureMigrated(first);
      const scope = 'user:commit-order';
      const reader = new PostgresMemoryStore({ client: first, scope, clock });
      const { cursor: start } = await reader.changes();
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => (commit = resolve));
      const feed = new PostgresChangeFeed(scope, 'memory');
      // An open transaction that took its position and has not committed yet.
      const slow = first.transaction(async (tx) => {
        await feed.lock(tx);
        await feed.append(tx, ['aaaaaaaaaaaa'], 'save');
        locked();
        await committed;
      });
      await lockTaken;
      let fastDone = false;
      const fast = new PostgresMemoryStore({ client: second, scope, clock })
        .save({ content: 'Written while another write of the scope is open' })
        .then((entry) => {
          fastDone = true;
          return entry;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fastDone).toBe(false);
      expect(await reader.changes({ since: start })).toMatchObject({ changes: [], reset: false });
      // Another scope does not wait: its writes lock another row.
      const other = new PostgresMemoryStore({ client: second, scope: 'user:elsewhere', clock });
      await other.save({ content: 'Another scope' });
      expect(fastDone).toBe(false);
      commit();
      await slow;
      const entry = await fast;
      const page = await reader.changes({ since: start });
      expect(page.changes.map(({ id, op }) => ({ id, op }))).toEqual([
        { id: 'aaaaaaaaaaaa', op: 'save' },
        { id: entry.id, op: 'save' },
      ]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('loses no change to a reader polling while several clients write', async () => {
    const writers = Array.from({ length: 4 }, () => postgresClientFromConnectionString(database()));
    try {
      await ensureMigrated(writers[0]!);
      const scope = 'user:polling';
      const reader = new PostgresMemoryStore({ client: writers[0]!, scope, clock });
      let { cursor } = await reader.changes();
      const seen: string[] = [];
      let writing = true;
      const polling = (async () => {
        for (;;) {
          const done = !writing;
          const page = await reader.changes({ since: cursor, limit: 7 });
          expect(page.reset).toBe(false);
          seen.push(...page.changes.map((change) => change.id));
          cursor = page.cursor;
          if (done && !page.more) return;
        }
      })();
      const saved = await Promise.all(
        writers.map(async (client, w) => {
          const store = new PostgresMemoryStore({ client, scope, clock });
          const ids: string[] = [];
          for (let i = 0; i < 30; i++) ids.push((await store.save({ content: `Writer ${w} fact ${i}` })).id);
          return ids;
        }),
      );
      writing = false;
      await polling;
      expect(seen.sort()).toEqual(saved.flat().sort());
    } finally {
      await Promise.all(writers.map((client) => client.close()));
    }
  });
});
