import {
  Bm25Index,
  indexNeighbours,
  InMemoryLongTermMemory,
  ManualClock,
  indexMemoryEntry,
  type MemoryEntry,
  RecordingLogger,
} from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { describe, expect, it } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { failingOn } from '../../test/failing-client';
import { realServer, usePgliteClient, useRealClient, vectorStorageOn } from '../../test/test-databases';
import { PostgresMemoryStore, type PostgresMemoryStoreOptions } from './postgres-memory-store';

let scopeCounter = 0;
const newScope = () => `test:${process.pid}:${(scopeCounter += 1)}`;

/** `vectorStorage`: how the vectors must be stored, or `'as the server allows'` (see `vectorStorageOn`). */
function describeMemoryStore(label: string, client: () => PostgresClient, vectorStorage: 'vector' | 'as the server allows') {
  const open = (options: Partial<PostgresMemoryStoreOptions> = {}) =>
    new PostgresMemoryStore({ client: client(), scope: newScope(), clock: new ManualClock('2026-03-01T12:00:00.000Z'), ...options });

  describe(`PostgresMemoryStore on ${label}`, () => {
    describe('options', () => {
      it('refuses a bad scope, a missing client and bad recall options', () => {
        expect(() => open({ scope: 'user 42' })).toThrow(expect.objectContaining({ code: 'INVALID_SCOPE' }));
        expect(() => open({ scope: '' })).toThrow(expect.objectContaining({ code: 'INVALID_SCOPE' }));
        expect(() => new PostgresMemoryStore({ scope: 'user:1' } as unknown as PostgresMemoryStoreOptions)).toThrow(
          expect.objectContaining({ code: 'INVALID_OPTIONS' }),
        );
        expect(() => open({ minSimilarity: 2 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
        expect(() => open({ queryEmbeddingTimeoutMs: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
        expect(() => open({ decay: { floor: 3 } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
      });
    });

    describe('writes', () => {
      it('returns timestamps as the database keeps them: UTC, to the millisecond', async () => {
        const store = open();
        const saved = await store.save({ content: 'Met Ana in Porto', createdAt: '2026-03-01T12:00:00.123456+02:00' });
        expect(saved.createdAt).toBe('2026-03-01T10:00:00.123Z');
        expect(await store.get(saved.id)).toEqual(saved);
      });

      for (const [step, matches] of [
        ['the row', (sql: string) => sql.includes('INSERT INTO reverie_memory (')],
        ['the term frequencies', (sql: string) => sql.includes('reverie_memory_terms')],
        ['the change feed', (sql: string) => sql.includes('INSERT INTO reverie_changes')],
      ] as const) {
        it(`leaves nothing half-written when writing ${step} fails`, async () => {
          const scope = newScope();
          const store = open({ scope });
          const kept = await store.save({ content: 'Prefers window seats on trains' });
          const { cursor } = await store.changes();
          const faulty = open({ scope, client: failingOn(client(), matches) });
          await expect(faulty.save({ id: kept.id, content: 'Prefers aisle seats on planes' })).rejects.toThrow('injected failure');
          expect(await store.get(kept.id)).toEqual(kept);
          expect((await store.search({ text: 'aisle planes' })).map((hit) => hit.entry.id)).toEqual([]);
          expect((await store.search({ text: 'window trains' })).map((hit) => hit.entry.id)).toEqual([kept.id]);
          expect((await store.changes({ since: cursor })).changes).toEqual([]);
          // A delete that fails halfway leaves the entry where it was.
          const failingDelete = open({ scope, client: failingOn(client(), (sql) => sql.includes('INSERT INTO reverie_changes')) });
          await expect(failingDelete.delete(kept.id)).rejects.toThrow('injected failure');
          expect(await store.get(kept.id)).toEqual(kept);
        });
      }
    });

    describe('BM25 ranking', () => {
      /** The same 60 entries in a store and in the file store's index. */
      async function corpus(options: Partial<PostgresMemoryStoreOptions> = {}) {
        const store = open(options);
        const index = new Bm25Index();
        const entries = new Map<string, MemoryEntry>();
        const topics = [
          'deploy',
          'deployment',
          'deploys',
          'kubernetes',
          'cluster',
          'coffee',
          'tea',
          'garden',
          'release',
          'staging',
          'nginx',
          'postgres',
        ];
        for (let i = 0; i < 60; i++) {
          const words = Array.from({ length: 3 + (i % 7) }, (_, j) => topics[(i * 7 + j * 3) % topics.length]!);
          const entry = await store.save({
            content: `Note ${i}: ${words.join(' ')} ${i % 3 === 0 ? words[0] : ''}`,
            tags: i % 4 === 0 ? ['ops'] : [],
            category: i % 5 === 0 ? 'project-context/infra' : 'general',
          });
          indexMemoryEntry(index, entry);
          entries.set(entry.id, entry);
        }
        return { store, index, entries };
      }
      // Ties may come in another order (the file store breaks them by insertion, this store by
      // id): compare the scores in rank order, and the ids of the scores that are not tied.
      const untied = (hits: ReadonlyArray<{ id: string; score: number }>, all: ReadonlyArray<{ score: number }>) =>
        hits
          .filter((hit) => all.filter((other) => Math.abs(other.score - hit.score) < 1e-9).length === 1)
          .map((hit) => `${hit.score.toFixed(9)} ${hit.id}`)
          .sort();

      it('scores as the file store’s index does: same hits, same order, same scores', async () => {
        const { store, index } = await corpus();
        for (const text of [
          'deploy',
          'deploying',
          'kubernetes cluster',
          'coffee tea garden',
          'ops',
          'infra nginx',
          'releases staging deploy',
          'post',
          'clusters',
        ]) {
          const expected = index.search(text, { limit: 10 });
          const found = (await store.search({ text, maxResults: 10 })).map((hit) => ({ id: hit.entry.id, score: hit.score }));
          expect(found.map((hit) => hit.score)).toEqual(expected.map((hit) => expect.closeTo(hit.score, 9)));
          expect(untied(found, index.search(text))).toEqual(untied(expected, index.search(text)));
        }
      });

      it('matches synonyms as the file store’s index does with the same thesaurus: same hits, same scores', async () => {
        const table: Record<string, string[]> = {
          kubernetes: ['cluster'],
          coffee: ['tea', 'espresso'],
          release: ['deployment', 'staging'],
        };
        // Each query also finds entries that hold none of its words, only their synonyms.
        const synonyms = (word: string) => table[word] ?? [];
        const { store, index } = await corpus({ synonyms });
        for (const text of ['kubernetes', 'coffee', 'release']) {
          const expected = index.search(text, { limit: 10, synonyms });
          expect(index.search(text, { synonyms }).length, `${text}: the thesaurus finds more`).toBeGreaterThan(index.search(text).length);
          const found = (await store.search({ text, maxResults: 10 })).map((hit) => ({ id: hit.entry.id, score: hit.score }));
          expect(found.map((hit) => hit.score)).toEqual(expected.map((hit) => expect.closeTo(hit.score, 9)));
          expect(untied(found, index.search(text, { synonyms }))).toEqual(untied(expected, index.search(text, { synonyms })));
        }
        expect(() => open({ synonyms: table as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
      });

      it('weighs the names and the periods a query points to as the in-memory reference does (SPEC M3)', async () => {
        const store = open();
        const reference = new InMemoryLongTermMemory({ clock: new ManualClock('2026-03-01T12:00:00.000Z') });
        const people = ['tim', 'john'];
        const days = ['2023-05-21', '2023-06-15', '2023-07-16', '2023-12-01', '2024-01-02'];
        const topics = ['basketball', 'books', 'travel', 'yoga', 'fantasy', 'season', 'team', 'writing'];
        for (let i = 0; i < 40; i++) {
          const person = people[i % 2]!;
          const day = days[(i * 3) % days.length]!;
          const words = Array.from({ length: 2 + (i % 5) }, (_, j) => topics[(i * 5 + j * 3) % topics.length]!);
          const draft = {
            content: `${person === 'tim' ? 'Tim' : 'John'} note ${i}: ${words.join(' ')}${i % 7 === 0 ? ', as of 3 December 2023' : ''}`,
            tags: [person],
            createdAt: `${day}T10:00:00.000Z`,
            lastSeenAt: `${i % 6 === 0 ? days[4] : day}T10:00:00.000Z`,
          };
          const saved = await store.save(draft);
          await reference.save({ ...draft, id: saved.id });
        }
        for (const text of [
          'What does John think of basketball?',
          'Tim books travel',
          'What did Tim write in December 2023?',
          'yoga in 2024',
          'team season on 15 June, 2023',
        ]) {
          const expected = (await reference.search({ text, maxResults: 8 })).map((hit) => ({ id: hit.entry.id, score: hit.score }));
          const found = (await store.search({ text, maxResults: 8 })).map((hit) => ({ id: hit.entry.id, score: hit.score }));
          expect(
            found.map((hit) => hit.score),
            text,
          ).toEqual(expected.map((hit) => expect.closeTo(hit.score, 9)));
          // Ties may come in another order; the last score of the list may have tied hits past its end.
          const above = (hits: ReadonlyArray<{ id: string; score: number }>) =>
            hits
              .filter((hit) => Math.abs(hit.score - hits.at(-1)!.score) > 1e-9)
              .map((hit) => `${hit.score.toFixed(9)} ${hit.id}`)
              .sort();
          expect(above(found), text).toEqual(above(expected));
        }
        // The weighing is at work here: John's entries first, then those of December 2023.
        expect((await store.search({ text: 'What does John think of basketball?', maxResults: 5 })).map((hit) => hit.entry.tags)).toEqual(
          Array(5).fill(['john']),
        );
        const december = (await store.search({ text: 'What did Tim write in December 2023?', maxResults: 3 })).map((hit) => hit.entry);
        for (const entry of december)
          expect(
            (entry.createdAt < '2024' && entry.lastSeenAt >= '2023-12') || entry.content.includes('December 2023'),
            entry.content,
          ).toBe(true);
      });

      it('finds the neighbours the file store finds, with the same scores', async () => {
        const { store, index, entries } = await corpus();
        const ids = [...entries.keys()].filter((_, i) => i % 9 === 0);
        const expected = indexNeighbours(index, (id) => entries.get(id), ids, { limit: 5 });
        const everyNeighbour = indexNeighbours(index, (id) => entries.get(id), ids, { limit: 100 });
        const found = await store.neighbours(ids, { limit: 5 });
        expect([...found.keys()]).toEqual([...expected.keys()]);
        for (const id of ids) {
          const mine = found.get(id)!.map((hit) => ({ id: hit.entry.id, score: hit.score }));
          const theirs = expected.get(id)!.map((hit) => ({ id: hit.entry.id, score: hit.score }));
          expect(mine.map((hit) => hit.score)).toEqual(theirs.map((hit) => expect.closeTo(hit.score, 9)));
          const all = everyNeighbour.get(id)!;
          expect(untied(mine, all)).toEqual(untied(theirs, all));
        }
      });
    });

    describe('hybrid recall', () => {
      const synonyms = { automobile: 'car', vehicle: 'car' };

      it(`finds by meaning once the vectors are stored (as ${vectorStorage})`, async () => {
        const store = open({ embedder: createFakeEmbedder({ synonyms }) });
        const car = await store.save({ content: 'The car is parked in garage B' });
        await store.save({ content: 'The bicycle is in the shed' });
        await store.flushEmbeddings();
        expect((await store.search({ text: 'automobile' })).map((hit) => hit.entry.id)).toEqual([car.id]);
        const results = await store.search({ text: 'garage' });
        expect(results[0]?.entry.id).toBe(car.id);
        expect(results[0]!.score).toBeLessThanOrEqual(1);
        const [column] = await client().query<{ type: string }>(
          "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'reverie_memory_embeddings'::regclass AND attname = 'embedding'",
        );
        const expected = vectorStorage === 'vector' ? 'vector' : await vectorStorageOn(client());
        expect(column!.type).toBe(expected);
        const indexes = await client().query("SELECT 1 FROM pg_indexes WHERE indexname = 'reverie_memory_embeddings_hnsw_64'");
        expect(indexes).toHaveLength(expected === 'vector' ? 1 : 0);
      });

      if (vectorStorage === 'vector') {
        it('finds a scope’s vectors through the HNSW index even when other scopes fill its first candidates', async () => {
          const embedder = createFakeEmbedder({ synonyms });
          const crowd = open({ embedder });
          // Nearer to the query than the scope's own entries: they fill the index's first candidates.
          for (let i = 0; i < 120; i++) await crowd.save({ content: `car ${i + 10}` });
          await crowd.flushEmbeddings();
          const few = open({ embedder });
          const mine = [await few.save({ content: 'car street corner' }), await few.save({ content: 'car lane corner' })];
          await few.flushEmbeddings();
          // PGlite has one connection: make its planner take the HNSW index, as a large table would,
          // with fewer first candidates (ef_search) than the other scope has nearer entries.
          await client().query('SET enable_seqscan = off');
          await client().query('SET enable_sort = off');
          await client().query('SET hnsw.ef_search = 10');
          try {
            const hits = await few.search({ text: 'automobile', maxResults: 8 });
            expect(hits.map((hit) => hit.entry.id).sort()).toEqual(mine.map((entry) => entry.id).sort());
          } finally {
            await client().query('RESET enable_seqscan');
            await client().query('RESET enable_sort');
            await client().query('RESET hnsw.ef_search');
          }
        });
      }

      it('embeds each text once, whichever process wrote it, and again when it or the model changes', async () => {
        const scope = newScope();
        const writer = open({ scope });
        const entry = await writer.save({ content: 'Keys are under the doormat' });
        const embedder = createFakeEmbedder({ synonyms });
        const store = open({ scope, embedder });
        await store.flushEmbeddings();
        expect(embedder.embeddedTexts).toBe(1);
        await store.close();

        const again = createFakeEmbedder({ synonyms });
        const reopened = open({ scope, embedder: again });
        await reopened.flushEmbeddings();
        expect(again.embeddedTexts).toBe(0);
        await reopened.save({ id: entry.id, content: 'Keys are in the drawer now' });
        await reopened.flushEmbeddings();
        expect(again.embeddedTexts).toBe(1);

        const other = createFakeEmbedder({ modelId: 'model-b' });
        const switched = open({ scope, embedder: other });
        await switched.flushEmbeddings();
        expect(other.embeddedTexts).toBe(1);
      });

      it('removes the vector with the entry', async () => {
        const scope = newScope();
        const store = open({ scope, embedder: createFakeEmbedder() });
        const entry = await store.save({ content: 'short lived' });
        await store.flushEmbeddings();
        await store.delete(entry.id);
        expect(await client().query('SELECT 1 FROM reverie_memory_embeddings WHERE scope = $1', [scope])).toEqual([]);
      });

      it('ranks by BM25 alone when the embedder fails, and says so', async () => {
        const logger = new RecordingLogger();
        const store = open({ embedder: createFakeEmbedder({ fail: true }), logger });
        const entry = await store.save({ content: 'The car is parked in garage B' });
        await store.flushEmbeddings();
        expect((await store.search({ text: 'garage' })).map((hit) => hit.entry.id)).toEqual([entry.id]);
        expect(logger.records.some((record) => record.level === 'warn' && /Could not embed/.test(record.message))).toBe(true);
      });
    });
  });
}

describeMemoryStore('PGlite with pgvector', usePgliteClient(), 'vector');

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  describeMemoryStore('PostgreSQL', useRealClient(), 'as the server allows');
});
