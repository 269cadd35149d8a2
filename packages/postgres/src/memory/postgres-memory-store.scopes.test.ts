import { ManualClock } from '@reverie/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { realServer, usePgliteClient, useRealClient } from '../../test/test-databases';
import { PostgresMemoryStore } from './postgres-memory-store';

/** Ids every scope uses, so the same id lives in several scopes at once. */
const SHARED_IDS = ['0000000000a1', '0000000000b2', '0000000000c3'];
const WORDS = ['garden', 'deploy', 'coffee', 'kubernetes', 'porto', 'tea'];
const CATEGORIES = ['general', 'work', 'work/deep', 'home'];

type Op =
  | { kind: 'save'; scope: number; id: number | undefined; words: string[]; category: string; tags: string[] }
  | { kind: 'delete'; scope: number; id: number }
  | { kind: 'check'; scope: number; word: string };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('save' as const),
    scope: fc.nat(2),
    id: fc.option(fc.nat(SHARED_IDS.length - 1), { nil: undefined }),
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
    category: fc.constantFrom(...CATEGORIES),
    tags: fc.subarray(['alpha', 'beta']),
  }),
  fc.record({ kind: fc.constant('delete' as const), scope: fc.nat(2), id: fc.nat(SHARED_IDS.length - 1) }),
  fc.record({ kind: fc.constant('check' as const), scope: fc.nat(2), word: fc.constantFrom(...WORDS) }),
);

interface ModelEntry {
  content: string;
  category: string;
}

/** Everything a scope's store answers comes from that scope's own writes (SPEC B8). */
async function checkScope(
  store: PostgresMemoryStore,
  model: Map<string, ModelEntry>,
  ever: Set<string>,
  start: string,
  word: string,
): Promise<void> {
  const owned = (id: string, content: string) => expect(model.get(id)?.content, `entry ${id} is not this scope's`).toBe(content);
  const listed = await store.list();
  expect(listed.map((entry) => entry.id).sort()).toEqual([...model.keys()].sort());
  listed.forEach((entry) => owned(entry.id, entry.content));
  for (const id of new Set([...SHARED_IDS, ...ever])) {
    const entry = await store.get(id);
    if (model.has(id)) owned(id, entry!.content);
    else expect(entry).toBeUndefined();
  }
  const counts = new Map<string, number>();
  for (const { category } of model.values()) counts.set(category, (counts.get(category) ?? 0) + 1);
  expect(await store.listCategories()).toEqual(
    [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([category, count]) => ({ category, count })),
  );
  const hits = await store.search({ text: word, maxResults: 50 });
  hits.forEach((hit) => owned(hit.entry.id, hit.entry.content));
  // Ranked among this scope's entries only: every hit holds the word, and every holder is a hit.
  expect(hits.map((hit) => hit.entry.id).sort()).toEqual(
    [...model]
      .filter(([, entry]) => entry.content.split(' ').includes(word))
      .map(([id]) => id)
      .sort(),
  );
  for (const hit of await store.search({ text: word, category: 'work', maxResults: 50 })) owned(hit.entry.id, hit.entry.content);
  expect((await store.search({ maxResults: 50 })).map((hit) => hit.entry.id).sort()).toEqual([...model.keys()].sort());
  const page = await store.changes({ since: start, limit: 10_000 });
  expect(page.reset).toBe(false);
  for (const change of page.changes) expect(ever.has(change.id), `change of ${change.id} is not this scope's`).toBe(true);
  const neighbours = await store.neighbours([...ever]);
  for (const [id, hits] of neighbours) {
    expect(model.has(id)).toBe(true);
    hits.forEach((hit) => owned(hit.entry.id, hit.entry.content));
  }
}

let run = 0;

function describeScopes(label: string, client: () => PostgresClient, numRuns: number) {
  describe(`scopes on ${label}`, () => {
    it('never lets a read, write, search, listing, change or neighbour cross scopes', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 24 }), async (ops) => {
          run += 1;
          const clock = new ManualClock('2026-03-01T12:00:00.000Z');
          const stores = [0, 1, 2].map(
            (i) => new PostgresMemoryStore({ client: client(), scope: `user:${process.pid}.${run}.${i}`, clock }),
          );
          const models = stores.map(() => new Map<string, ModelEntry>());
          const ever = stores.map(() => new Set<string>());
          const starts = await Promise.all(stores.map(async (store) => (await store.changes()).cursor));
          for (const op of ops) {
            clock.advance(1000);
            const store = stores[op.scope]!;
            if (op.kind === 'save') {
              const content = op.words.join(' ');
              const saved = await store.save({
                ...(op.id === undefined ? {} : { id: SHARED_IDS[op.id] }),
                content,
                category: op.category,
                tags: op.tags,
              });
              models[op.scope]!.set(saved.id, { content, category: op.category });
              ever[op.scope]!.add(saved.id);
            } else if (op.kind === 'delete') {
              const id = SHARED_IDS[op.id]!;
              expect(await store.delete(id)).toBe(models[op.scope]!.delete(id));
            } else {
              await checkScope(store, models[op.scope]!, ever[op.scope]!, starts[op.scope]!, op.word);
            }
          }
          for (const [i, store] of stores.entries()) await checkScope(store, models[i]!, ever[i]!, starts[i]!, WORDS[0]!);
        }),
        { numRuns },
      );
    });
  });
}

describeScopes('PGlite', usePgliteClient(), 30);

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  describeScopes('PostgreSQL', useRealClient(), 12);
});
