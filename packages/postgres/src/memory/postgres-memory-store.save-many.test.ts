import { ManualClock, type MemoryDraft } from '@reverie/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { describeOnEachDatabase } from '../../test/each-database';
import { failingOn } from '../../test/failing-client';
import { PostgresMemoryStore } from './postgres-memory-store';

const IDS = ['0000000000a1', '0000000000b2', '0000000000c3', '0000000000d4'];
const WORDS = ['garden', 'deploy', 'coffee', 'kubernetes', 'porto', 'tea', 'gardening'];
const START = '2026-03-01T12:00:00.000Z';

let scopeCounter = 0;
const newScope = () => `save-many:${process.pid}:${(scopeCounter += 1)}`;

const draftArbitrary: fc.Arbitrary<MemoryDraft & { id: string }> = fc.record(
  {
    id: fc.constantFrom(...IDS),
    content: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }).map((words) => words.join(' ')),
    category: fc.constantFrom('general', 'work', 'work/deep'),
    tags: fc.subarray(['alpha', 'beta']),
    importance: fc.constantFrom(0.2, 0.5, 0.9),
    reinforcementCount: fc.integer({ min: 1, max: 3 }),
    metadata: fc.constantFrom<Record<string, string>>({}, { source: 'import' }),
    // SPEC B10: kept, replaced or removed as one by one.
    lineage: fc.constantFrom<MemoryDraft['lineage']>(
      null,
      { origin: { kind: 'import', source: 'notes.json' } },
      { origin: { kind: 'tool', tool: 'save_memory', at: START, sessionId: 'chat-1' } },
      // SPEC M3: passages, ranked with the entry and counted once per entry in the frequencies.
      { origin: { kind: 'merge', at: START }, passages: ['deploy kubernetes garden', 'coffee tea tea'] },
      { origin: { kind: 'merge', at: START }, passages: ['porto gardening'] },
    ),
  },
  { requiredKeys: ['id', 'content'] },
);

/** What a scope holds, as a reader of the store sees it, and its BM25 counts as stored. */
async function contents(store: PostgresMemoryStore, client: PostgresClient, scope: string, since: string) {
  const terms = await client.query('SELECT term, df FROM reverie_memory_terms WHERE scope = $1 ORDER BY term', [scope]);
  // The frequencies kept up write by write are those of the rows as they stand: each entry once per term, in its text or a passage.
  const counted = await client.query(
    `SELECT term, count(DISTINCT id)::int AS df FROM (
       SELECT id, unnest(tsvector_to_array(search_terms)) AS term FROM reverie_memory WHERE scope = $1
       UNION ALL SELECT id, unnest(tsvector_to_array(search_terms)) FROM reverie_memory_passages WHERE scope = $1
     ) t GROUP BY term ORDER BY term`,
    [scope],
  );
  expect(terms.map((row) => ({ ...row, df: Number((row as { df: unknown }).df) }))).toEqual(counted);
  const stats = await client.query('SELECT entries::int, total_length::int FROM reverie_memory_stats WHERE scope = $1', [scope]);
  const searches = [];
  for (const word of WORDS) searches.push((await store.search({ text: word, maxResults: 10 })).map((hit) => [hit.entry, hit.score]));
  const changes = (await store.changes({ since, limit: 1000 })).changes.map(({ id, op }) => ({ id, op }));
  return { list: await store.list(), categories: await store.listCategories(), terms, stats, searches, changes };
}

describeOnEachDatabase((database, client) => {
  describe(`PostgresMemoryStore.saveMany on ${database}`, () => {
    it('leaves the scope exactly as saving the drafts one by one does: entries, term counts, search scores and change feed', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(draftArbitrary, { maxLength: 3 }),
          fc.array(draftArbitrary, { minLength: 1, maxLength: 8 }),
          async (before, drafts) => {
            const stores = [newScope(), newScope()].map((scope) => ({
              scope,
              store: new PostgresMemoryStore({ client: client(), scope, clock: new ManualClock(START) }),
            }));
            const [one, many] = stores as [(typeof stores)[0], (typeof stores)[0]];
            const starts: string[] = [];
            for (const { store } of stores) {
              for (const draft of before) await store.save(draft);
              starts.push((await store.changes()).cursor);
            }
            const saved: unknown[] = [];
            for (const draft of drafts) saved.push(await one.store.save(draft));
            expect(await many.store.saveMany(drafts)).toEqual(saved);
            expect(await contents(many.store, client(), many.scope, starts[1]!)).toEqual(
              await contents(one.store, client(), one.scope, starts[0]!),
            );
          },
        ),
        { numRuns: 25 },
      );
    });

    it('gives drafts without an id new ids, and returns [] for no drafts without touching the database', async () => {
      const store = new PostgresMemoryStore({ client: client(), scope: newScope() });
      const saved = await store.saveMany([{ content: 'Prefers tea' }, { content: 'Prefers tea' }]);
      expect(new Set(saved.map((entry) => entry.id)).size).toBe(2);
      expect((await store.list()).map((entry) => entry.id).sort()).toEqual(saved.map((entry) => entry.id).sort());
      const untouched = new PostgresMemoryStore({ client: failingOn(client(), () => true), scope: newScope() });
      expect(await untouched.saveMany([])).toEqual([]);
    });

    it('refuses a bad draft by its index, and anything but an array, writing nothing', async () => {
      const scope = newScope();
      const store = new PostgresMemoryStore({ client: client(), scope });
      await expect(store.saveMany([{ content: 'fine' }, { content: 'fine too' }, { content: 'bad', category: '../up' }])).rejects.toThrow(
        expect.objectContaining({
          code: 'INVALID_CATEGORY',
          message: expect.stringContaining('saveMany: draft 2:'),
          details: expect.objectContaining({ index: 2 }),
        }),
      );
      await expect(store.saveMany({ content: 'one' } as unknown as MemoryDraft[])).rejects.toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
      expect(await store.list()).toEqual([]);
      await store.close();
      await expect(store.saveMany([{ content: 'late' }])).rejects.toThrow(expect.objectContaining({ code: 'STORE_CLOSED' }));
    });

    for (const [step, matches] of [
      ['the rows', (sql: string) => sql.includes('INSERT INTO reverie_memory (')],
      ['the term frequencies', (sql: string) => sql.includes('reverie_memory_terms')],
      ['the change feed', (sql: string) => sql.includes('INSERT INTO reverie_changes')],
    ] as const) {
      it(`leaves nothing half-written when writing ${step} fails`, async () => {
        const scope = newScope();
        const store = new PostgresMemoryStore({ client: client(), scope });
        const kept = await store.save({ id: IDS[0]!, content: 'Prefers window seats on trains' });
        const { cursor } = await store.changes();
        const faulty = new PostgresMemoryStore({ client: failingOn(client(), matches), scope });
        await expect(
          faulty.saveMany([
            { id: IDS[0]!, content: 'Prefers aisle seats' },
            { id: IDS[1]!, content: 'Drinks coffee' },
          ]),
        ).rejects.toThrow('injected failure');
        expect(await store.list()).toEqual([kept]);
        expect(await store.search({ text: 'coffee aisle' })).toEqual([]);
        expect((await store.changes({ since: cursor })).changes).toEqual([]);
      });
    }
  });
});
