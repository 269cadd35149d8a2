import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type IEmbedder, ManualClock, RecordingLogger } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { FileMemoryStore } from '../memory/file-memory-store';
import { FileSkillStore } from '../skills/file-skill-store';
import { FileWorkingMemory } from '../working-memory/file-working-memory';
import { hashedFileStem } from './hybrid-search';
import { wordSumEmbedder } from './__fixtures__/word-sum-embedder';
import type { VectorSearchOptions } from './vector-search-options';

// SPEC M4: with an embedder, long-term memory, skills and working memory
// rank alike (BM25 and cosine, averaged), through one HybridSearch. Each store is driven through
// the same small adapter: documents named by the test, written, removed and searched.

interface Adapter {
  /** Writes a document; `group` is where a filter can find it (a skill prefix, a key prefix, a category). */
  put(name: string, text: string, group: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** The names found for `text`, best first, optionally only in `group`. */
  search(text: string, group?: string): Promise<string[]>;
  flush(): Promise<void>;
  close(): Promise<void>;
  /** The folder its vectors are cached in. */
  vectorDir: string;
}

interface StoreCase {
  store: string;
  open(
    dataPath: string,
    options: { embedder: IEmbedder; minSimilarity: number; logger?: RecordingLogger; clock: ManualClock } & VectorSearchOptions,
  ): Adapter;
}

const CASES: StoreCase[] = [
  {
    store: 'FileMemoryStore',
    open(dataPath, options) {
      const memory = new FileMemoryStore({ dataPath, ...options });
      // Memory ids are 12 hex characters: one per name the tests use.
      const idOf = (name: string) => hashedFileStem(name).slice(0, 12);
      return {
        async put(name, text, group) {
          await memory.save({ id: idOf(name), content: text, category: group, tags: [name] });
        },
        async remove(name) {
          await memory.delete(idOf(name));
        },
        async search(text, group) {
          const results = await memory.search({ text, ...(group ? { category: group } : {}) });
          return results.map((result) => result.entry.tags[0]!);
        },
        flush: () => memory.flushEmbeddings({ index: true }),
        close: () => memory.close(),
        vectorDir: join(dataPath, 'memory', '.embeddings'),
      };
    },
  },
  {
    store: 'FileSkillStore',
    open(dataPath, options) {
      const skills = new FileSkillStore({ dataPath, ...options });
      return {
        async put(name, text, group) {
          await skills.save({ name: `${group}/${name}`, summary: text, content: 'Steps.' });
        },
        async remove(name) {
          const [found] = await skills.list().then((all) => all.filter((skill) => skill.name.endsWith(`/${name}`)));
          await skills.delete(found!.name);
        },
        async search(text, group) {
          const results = await skills.search({ text, ...(group ? { prefix: group } : {}) });
          return results.map((result) => result.skill.name.split('/').pop()!);
        },
        flush: () => skills.flushEmbeddings({ index: true }),
        close: () => skills.close(),
        vectorDir: join(dataPath, 'skills', '.embeddings'),
      };
    },
  },
  {
    store: 'FileWorkingMemory',
    open(dataPath, options) {
      const working = new FileWorkingMemory({ dataPath, sweepIntervalMs: 0, ...options });
      const keys = new Map<string, string>();
      return {
        async put(name, text, group) {
          // One namespace (one group file) for every note: the entries load in one order at every
          // open, so two stores opened on the same files break BM25's ties alike.
          const key = `notes/all/${group}/${name}`;
          keys.set(name, key);
          await working.set(key, text, { ttlMs: 60_000 });
        },
        async remove(name) {
          await working.delete(keys.get(name)!);
        },
        async search(text, group) {
          const results = await working.search({ text, ...(group ? { prefix: `notes/all/${group}` } : {}) });
          return results.map((result) => result.entry.key.split('/').pop()!);
        },
        flush: () => working.flushEmbeddings({ index: true }),
        close: () => working.close(),
        vectorDir: join(dataPath, 'working-memory', '.embeddings'),
      };
    },
  },
];

const synonyms = { automobile: 'car', vehicle: 'car' };
let dataPath: string;
const opened: Adapter[] = [];
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-hybrid-'));
});
afterEach(async () => {
  for (const adapter of opened.splice(0)) await adapter.close();
  rmSync(dataPath, { recursive: true, force: true });
});

describe.each(CASES)('$store: hybrid recall with an embedder (SPEC M4)', ({ open }) => {
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const openStore = (embedder: IEmbedder, logger?: RecordingLogger) => {
    // The test embedder hashes words: a document's name and group are words too, so it is less
    // similar to a one-word query than a model would find it.
    const adapter = open(dataPath, { embedder, clock, minSimilarity: 0.2, ...(logger ? { logger } : {}) });
    opened.push(adapter);
    return adapter;
  };

  it('finds by meaning what shares no word with the query, and only under the filter', async () => {
    const store = openStore(createFakeEmbedder({ synonyms }));
    await store.put('parking', 'The car is parked in garage B', 'errands');
    await store.put('bike', 'The bicycle is in the shed', 'errands');
    await store.put('rental', 'Return the car to the rental desk', 'travel');
    // Whether the vectors are ready before the flush depends on when the background embedding ran
    // (a save that awaits more, as one with tiers does, gives it the time): only after it is it said.
    await store.flush();
    expect((await store.search('automobile')).sort()).toEqual(['parking', 'rental']);
    expect(await store.search('automobile', 'errands')).toEqual(['parking']);
  });

  it('caches each vector once, re-embeds a changed text only, and removes the vector with its document', async () => {
    const embedder = createFakeEmbedder({ synonyms });
    const store = openStore(embedder);
    await store.put('parking', 'The car is parked in garage B', 'errands');
    await store.flush();
    expect(statSync(join(store.vectorDir, '.vectors.log')).size).toBeGreaterThan(0);
    await store.close();

    const again = createFakeEmbedder({ synonyms });
    const reopened = openStore(again);
    await reopened.flush();
    expect(again.embeddedTexts).toBe(0);
    expect(await reopened.search('vehicle')).toEqual(['parking']);
    expect(again.embeddedTexts).toBe(1); // the query, not the document
    await reopened.put('parking', 'The car is parked in garage C', 'errands');
    await reopened.flush();
    expect(again.embeddedTexts).toBe(2);
    await reopened.remove('parking');
    await reopened.flush();
    expect(await reopened.search('vehicle')).toEqual([]);
    await reopened.close();
    // Nor after a reopen: the cache gives no vector to a document that is gone.
    const third = openStore(createFakeEmbedder({ synonyms }));
    await third.flush();
    expect(await third.search('vehicle')).toEqual([]);
  });

  it('finds through the vector index what comparing every vector finds (SPEC M4, B12)', async () => {
    const embedder = wordSumEmbedder(16);
    const writer = open(dataPath, { embedder, clock, minSimilarity: 0.2, vectorSearch: 'exact' });
    const words = ['harbour', 'lantern', 'orchard', 'violin', 'glacier', 'pepper', 'canyon', 'saddle', 'meadow', 'ember'];
    // Each note has a word of its own, so no two are equally similar to a query (ties have no set order).
    for (let i = 0; i < 60; i++)
      await writer.put(`n${i}`, `${words[i % 10]} ${words[(i * 3) % 10]} ${words[(i * 7 + 1) % 10]} token${i}x`, i % 2 ? 'even' : 'odd');
    await writer.flush();
    await writer.close();
    // Both opened from disk alike, so their BM25 sides number (and so order tied) documents alike.
    const exact = open(dataPath, { embedder, clock, minSimilarity: 0.2, vectorSearch: 'exact' });
    opened.push(exact);
    await exact.flush();
    const indexed = open(dataPath, { embedder, clock, minSimilarity: 0.2, exactSearchBelow: 0 });
    opened.push(indexed);
    await indexed.flush();
    for (const query of ['harbour lantern', 'violin glacier meadow', 'pepper', 'saddle ember canyon']) {
      expect(await indexed.search(query)).toEqual(await exact.search(query));
      expect(await indexed.search(query, 'even')).toEqual(await exact.search(query, 'even'));
    }
  });

  it('ranks by BM25 alone when the embedder fails, and says so', async () => {
    const logger = new RecordingLogger();
    const store = openStore(createFakeEmbedder({ fail: true }), logger);
    await store.put('parking', 'The car is parked in garage B', 'errands');
    await store.flush();
    expect(await store.search('garage')).toEqual(['parking']);
    expect(logger.records.some((record) => record.level === 'warn' && /Embedding failed/.test(record.message))).toBe(true);
  });
});

describe('hybrid recall options of the file stores', () => {
  it('refuses an embedder that is not one, with INVALID_OPTIONS naming it', () => {
    const notAnEmbedder = { embed: 'no' } as never;
    expect(() => new FileMemoryStore({ dataPath: '/tmp/x', embedder: notAnEmbedder })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/embedder: must be an IEmbedder/) }),
    );
    expect(() => new FileSkillStore({ dataPath: '/tmp/x', embedder: notAnEmbedder })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => new FileWorkingMemory({ dataPath: '/tmp/x', minSimilarity: 2 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('minSimilarity') }),
    );
  });

  it('never gives an expired working-memory entry from the vector side', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00Z');
    const working = new FileWorkingMemory({
      dataPath,
      clock,
      sweepIntervalMs: 0,
      embedder: createFakeEmbedder({ synonyms }),
      minSimilarity: 0.2,
    });
    await working.set('session/a/car', 'The car is parked in garage B', { ttlMs: 1000 });
    await working.set('session/a/rental', 'Return the car to the rental desk', { ttlMs: 60_000 });
    await working.flushEmbeddings();
    expect((await working.search({ text: 'automobile' })).map((result) => result.entry.key).sort()).toEqual([
      'session/a/car',
      'session/a/rental',
    ]);
    clock.advance(2000);
    expect((await working.search({ text: 'automobile' })).map((result) => result.entry.key)).toEqual(['session/a/rental']);
    await working.close();
  });
});
