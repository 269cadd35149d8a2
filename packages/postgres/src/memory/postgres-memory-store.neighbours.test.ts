import { InMemoryLongTermMemory, ManualClock, type MemoryDraft, type MemorySearchResult } from '@reverie/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { CountingClient } from '../../test/counting-client';
import { realServer, usePgliteClient, useRealClient } from '../../test/test-databases';
import { PostgresMemoryStore } from './postgres-memory-store';

// Words that share prefixes (prefix expansion), repeat (term frequency) and vary in rarity.
const WORDS = [
  'deploy',
  'deployment',
  'deploys',
  'kubernetes',
  'kube',
  'cluster',
  'clusters',
  'coffee',
  'tea',
  'garden',
  'release',
  'staging',
  'nginx',
  'postgres',
  'postgresql',
];
const CATEGORIES = ['general', 'project-context/infra', 'user-preferences/drinks'];
const idOf = (n: number) => n.toString(16).padStart(12, '0');
const UNKNOWN = 'ffffffffffff';

const entryArbitrary = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }),
  category: fc.constantFrom(...CATEGORIES),
  tagged: fc.boolean(),
  superseded: fc.boolean(),
});
const caseArbitrary = fc.record({
  entries: fc.array(entryArbitrary, { minLength: 1, maxLength: 30 }),
  asked: fc.array(fc.nat(40), { minLength: 1, maxLength: 20 }),
  limit: fc.integer({ min: 1, max: 10 }),
});

let run = 0;

/** A neighbour list as ids and scores. */
const plain = (hits: readonly MemorySearchResult[]) => hits.map((hit) => ({ id: hit.entry.id, score: hit.score }));

// Ties may come in another order (the reference breaks them by insertion, PostgreSQL by id):
// compare the scores in rank order, and the ids of the scores that are not tied.
const untied = (hits: ReadonlyArray<{ id: string; score: number }>, all: ReadonlyArray<{ score: number }>) =>
  hits
    .filter((hit) => all.filter((other) => Math.abs(other.score - hit.score) < 1e-9).length === 1)
    .map((hit) => `${hit.score.toFixed(9)} ${hit.id}`)
    .sort();

function describeNeighbours(label: string, client: () => PostgresClient, numRuns: number) {
  describe(`PostgresMemoryStore.neighbours on ${label}`, () => {
    it('answers many ids at once exactly as one id at a time, and as the in-memory reference does', async () => {
      await fc.assert(
        fc.asyncProperty(caseArbitrary, async ({ entries, asked, limit }) => {
          run += 1;
          const clock = new ManualClock('2026-03-01T12:00:00.000Z');
          const store = new PostgresMemoryStore({ client: client(), scope: `neighbours:${process.pid}.${run}`, clock });
          const reference = new InMemoryLongTermMemory({ clock });
          const drafts: MemoryDraft[] = entries.map((entry, i) => ({
            id: idOf(i + 1),
            content: entry.words.join(' '),
            category: entry.category,
            tags: entry.tagged ? ['ops'] : [],
            // Superseded facts are nobody's neighbour (SPEC B9), but still have neighbours of their own.
            ...(entry.superseded ? { validTo: '2026-02-01T00:00:00.000Z' } : {}),
          }));
          await store.saveMany(drafts);
          for (const draft of drafts) await reference.save(draft);
          // Duplicates and an unknown id among the ids asked about.
          const ids = [
            ...asked.map((n) => (n < entries.length ? idOf(n + 1) : UNKNOWN)),
            asked[0]! < entries.length ? idOf(asked[0]! + 1) : UNKNOWN,
          ];

          const batch = await store.neighbours(ids, { limit });
          const oneByOne = new Map<string, MemorySearchResult[]>();
          for (const id of new Set(ids)) for (const [key, hits] of await store.neighbours([id], { limit })) oneByOne.set(key, hits);
          expect(batch).toEqual(oneByOne);

          const expected = await reference.neighbours(ids, { limit });
          const everyNeighbour = await reference.neighbours(ids, { limit: 100 });
          expect([...batch.keys()]).toEqual([...expected.keys()]);
          for (const [id, hits] of batch) {
            const mine = plain(hits);
            const theirs = plain(expected.get(id)!);
            expect(mine.map((hit) => hit.score)).toEqual(theirs.map((hit) => expect.closeTo(hit.score, 9)));
            const all = plain(everyNeighbour.get(id)!);
            expect(untied(mine, all)).toEqual(untied(theirs, all));
          }
          await store.close();
        }),
        { numRuns },
      );
    });

    it('asks PostgreSQL the same six statements for one id as for sixty', async () => {
      const counting = new CountingClient(client());
      const store = new PostgresMemoryStore({
        client: counting,
        scope: `neighbours:${process.pid}.count`,
        clock: new ManualClock('2026-03-01T12:00:00.000Z'),
      });
      const saved = await store.saveMany(
        Array.from({ length: 60 }, (_, i) => ({ content: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} note ${i}` })),
      );
      const statementsFor = async (ids: string[]) => {
        const before = counting.statements;
        const found = await store.neighbours(ids, { limit: 5 });
        expect(found.size).toBe(ids.length);
        return counting.statements - before;
      };
      expect(await statementsFor([saved[0]!.id])).toBe(6);
      expect(await statementsFor(saved.map((entry) => entry.id))).toBe(6);
      await store.close();
    });
  });
}

describeNeighbours('PGlite', usePgliteClient(), 25);

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  describeNeighbours('PostgreSQL', useRealClient(), 15);
});
