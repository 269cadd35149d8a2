import { ManualClock, RecordingLogger } from '@reverie/core';
import { createFakeEmbedder, type FakeEmbedder, MINUTE } from '@reverie/core/testing';
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../test/each-database';
import { PostgresWorkingMemory, type PostgresWorkingMemoryOptions } from './postgres-working-memory';

const synonyms = { automobile: 'car' };
let scopes = 0;
const newScope = () => `wm-hybrid:${process.pid}:${(scopes += 1)}`;
const keys = (hits: ReadonlyArray<{ entry: { key: string } }>) => hits.map((hit) => hit.entry.key);
/** The entry texts `embedder` was given (the queries left out). */
const embeddedEntries = (embedder: FakeEmbedder) => embedder.calls.flat().filter((text) => text !== 'automobile').length;

describeOnEachDatabase((database, client) => {
  const open = (options: Partial<PostgresWorkingMemoryOptions> = {}) =>
    new PostgresWorkingMemory({
      client: client(),
      scope: newScope(),
      clock: new ManualClock('2026-03-01T12:00:00.000Z'),
      sweepIntervalMs: 0,
      ...options,
    });
  const vectorsOf = async (scope: string) =>
    (await client().query<{ key: string }>('SELECT key FROM reverie_working_memory_embeddings WHERE scope = $1 ORDER BY key', [scope])).map(
      (row) => row.key,
    );

  it(`finds an entry by meaning once its vector is stored (on ${database}), where BM25 alone finds nothing`, async () => {
    const scope = newScope();
    const store = open({ scope, embedder: createFakeEmbedder({ synonyms }) });
    await store.set('session/s1/parking', 'car car, level 3');
    await store.set('session/s1/lunch', 'soup at noon');
    expect(await open({ scope }).search({ text: 'automobile' })).toEqual([]);
    await store.flushEmbeddings();
    const hits = await store.search({ text: 'automobile' });
    expect(keys(hits)).toEqual(['session/s1/parking']);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    await store.close();
  });

  it('applies the prefix, category and tag filters on the vector side too', async () => {
    const store = open({ embedder: createFakeEmbedder({ synonyms }) });
    await store.set('session/a/car', 'car car', { category: 'travel/road', tags: ['mine'] });
    await store.set('session/b/car', 'car car', { category: 'travel/road' });
    await store.set('patrol/p/car', 'car car', { category: 'errands', tags: ['mine'] });
    await store.flushEmbeddings();
    expect(keys(await store.search({ text: 'automobile' })).sort()).toEqual(['patrol/p/car', 'session/a/car', 'session/b/car']);
    expect(keys(await store.search({ text: 'automobile', prefix: 'session/a' }))).toEqual(['session/a/car']);
    expect(keys(await store.search({ text: 'automobile', category: 'travel' })).sort()).toEqual(['session/a/car', 'session/b/car']);
    expect(keys(await store.search({ text: 'automobile', tags: ['mine'] })).sort()).toEqual(['patrol/p/car', 'session/a/car']);
    await store.close();
  });

  it('never returns an expired entry, and embeds only the unexpired ones', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const embedder = createFakeEmbedder({ synonyms });
    const store = open({ clock, embedder });
    await store.set('session/s1/short', 'car car', { ttlMs: MINUTE });
    await store.set('session/s1/long', 'car car car', { ttlMs: 60 * MINUTE });
    await store.flushEmbeddings();
    expect(keys(await store.search({ text: 'automobile' })).sort()).toEqual(['session/s1/long', 'session/s1/short']);
    clock.advance(2 * MINUTE);
    expect(keys(await store.search({ text: 'automobile' }))).toEqual(['session/s1/long']);

    const scope = newScope();
    const late = open({ scope, clock, embedder });
    const writer = open({ scope, clock });
    await writer.set('session/s2/gone', 'car car', { ttlMs: MINUTE });
    clock.advance(2 * MINUTE);
    const before = embeddedEntries(embedder);
    await late.flushEmbeddings();
    expect(embeddedEntries(embedder)).toBe(before);
    expect(await vectorsOf(scope)).toEqual([]);
    await Promise.all([store.close(), writer.close(), late.close()]);
  });

  it('drops the vector of a deleted, evicted or swept entry', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const scope = newScope();
    const store = open({ scope, clock, maxEntriesPerNamespace: 2, embedder: createFakeEmbedder({ synonyms }) });
    await store.set('session/s1/a', 'car one');
    await store.set('session/s1/b', 'car two', { ttlMs: MINUTE });
    await store.set('session/s2/c', 'car three');
    await store.flushEmbeddings();
    expect(await vectorsOf(scope)).toEqual(['session/s1/a', 'session/s1/b', 'session/s2/c']);
    await store.delete('session/s2/c');
    await store.set('session/s1/d', 'bicycle');
    await store.flushEmbeddings();
    expect(await vectorsOf(scope)).toEqual(['session/s1/b', 'session/s1/d']);
    clock.advance(2 * MINUTE);
    await store.sweep();
    expect(await vectorsOf(scope)).toEqual(['session/s1/d']);
    await store.close();
  });

  it('never returns another scope’s entry, even one of the same key', async () => {
    const embedder = createFakeEmbedder({ synonyms });
    const mine = open({ embedder });
    const theirs = open({ embedder });
    await theirs.set('session/s1/vehicle', 'blue car car');
    await mine.set('session/s1/vehicle', 'a red bicycle');
    await Promise.all([mine.flushEmbeddings(), theirs.flushEmbeddings()]);
    expect(await mine.search({ text: 'automobile' })).toEqual([]);
    expect(keys(await theirs.search({ text: 'automobile' }))).toEqual(['session/s1/vehicle']);
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('embeds a changed value again', async () => {
    const embedder = createFakeEmbedder({ synonyms });
    const store = open({ embedder });
    await store.set('session/s1/ride', 'bicycle');
    await store.flushEmbeddings();
    expect(await store.search({ text: 'automobile' })).toEqual([]);
    await store.set('session/s1/ride', 'car');
    await store.flushEmbeddings();
    expect(embeddedEntries(embedder)).toBe(2);
    expect(keys(await store.search({ text: 'automobile' }))).toEqual(['session/s1/ride']);
    await store.close();
  });

  it('ranks by BM25 alone when the model fails, and says so', async () => {
    const logger = new RecordingLogger();
    const store = open({ embedder: createFakeEmbedder({ synonyms, fail: true }), logger });
    await store.set('session/s1/parking', 'car car, level 3');
    await store.flushEmbeddings();
    expect(keys(await store.search({ text: 'level' }))).toEqual(['session/s1/parking']);
    expect(logger.records.some((record) => record.level === 'warn' && /Could not embed working-memory entries/.test(record.message))).toBe(
      true,
    );
    await store.close();
  });

  it('refuses bad hybrid options with INVALID_OPTIONS naming the field', () => {
    expect(() => open({ minSimilarity: -0.1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('minSimilarity') }),
    );
    expect(() => open({ queryEmbeddingTimeoutMs: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('queryEmbeddingTimeoutMs') }),
    );
    expect(() => open({ embedder: { modelId: 'x' } as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('embedder') }),
    );
  });
});
