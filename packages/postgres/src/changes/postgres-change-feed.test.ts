import { ManualClock } from '@reverie/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { postgresClientFromConnectionString } from '../client/node-postgres-client';
import { ensureMigrated } from '../migrations/migrate-postgres';
import { PostgresMemoryStore } from '../memory/postgres-memory-store';
import { realServer, usePgliteClient, useRealClient, useRealDatabase } from '../../test/test-databases';
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

const opArbitrary = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('save' as const), key: fc.nat(4) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.nat(4) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cursor' as const) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      keep: fc.array(fc.nat(20), { maxLength: 3 }),
      batch: fc.integer({ min: 1, max: 3 }),
    }),
    weight: 2,
  },
);

let run = 0;

function describeCompaction(label: string, client: () => PostgresClient, numRuns: number) {
  describe(`compacting the change feed on ${label}`, () => {
    it('never loses a change a kept cursor still needs, and answers every cursor it passed with a reset', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 30 }), async (ops) => {
          run += 1;
          const scope = `compaction:${process.pid}.${run}`;
          const store = new PostgresMemoryStore({ client: client(), scope, clock });
          const feed = new PostgresChangeFeed(scope, 'memory');
          const ids = [0, 1, 2, 3, 4].map((key) => `00000000000${key}`);
          const live = new Set<string>();
          /** Every change so far, in order; a cursor is the number of changes before it. */
          const history: Array<{ id: string; op: 'save' | 'delete' }> = [];
          const cursors: Array<{ cursor: string; at: number }> = [{ cursor: (await store.changes()).cursor, at: 0 }];
          /** The changes every compaction so far was allowed to remove. */
          let compactedThrough = 0;
          for (const op of ops) {
            if (op.kind === 'save') {
              await store.save({ id: ids[op.key]!, content: `note ${op.key} ${history.length}` });
              live.add(ids[op.key]!);
              history.push({ id: ids[op.key]!, op: 'save' });
            } else if (op.kind === 'delete') {
              if (await store.delete(ids[op.key]!)) history.push({ id: ids[op.key]!, op: 'delete' });
              live.delete(ids[op.key]!);
            } else if (op.kind === 'cursor') {
              cursors.push({ cursor: (await store.changes({ since: cursors.at(-1)!.cursor, limit: 10_000 })).cursor, at: history.length });
            } else {
              const keep = op.keep.filter((i) => i < cursors.length).map((i) => cursors[i]!);
              const removed = await feed.compact(
                client(),
                keep.map((kept) => kept.cursor),
                op.batch,
              );
              const oldest = keep.length === 0 ? 0 : Math.min(...keep.map((kept) => kept.at));
              expect(removed).toBe(Math.max(0, oldest - compactedThrough));
              compactedThrough = Math.max(compactedThrough, oldest);
            }
            for (const { cursor, at } of cursors) {
              const page = await store.changes({ since: cursor, limit: 10_000 });
              if (at < compactedThrough) {
                expect(page).toMatchObject({ changes: [], reset: true });
              } else {
                expect(page.reset).toBe(false);
                expect(page.changes.map(({ id, op }) => ({ id, op }))).toEqual(history.slice(at));
              }
            }
          }
          const [rows] = await client().query<{ count: number }>('SELECT count(*)::int AS count FROM reverie_changes WHERE scope = $1', [
            scope,
          ]);
          expect(rows!.count).toBe(history.length - compactedThrough);
          await store.close();
        }),
        { numRuns },
      );
    });
  });
}

describeCompaction('PGlite', usePgliteClient(), 25);

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  describeCompaction('PostgreSQL', useRealClient(), 10);
});
