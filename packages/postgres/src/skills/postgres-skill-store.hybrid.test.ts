import { type IEmbedder, ManualClock, RecordingLogger } from '@reverie/core';
import { createFakeEmbedder, type FakeEmbedder } from '@reverie/core/testing';
import { expect, it } from 'vitest';
import { describeOnEachDatabase } from '../../test/each-database';
import { vectorStorageOn } from '../../test/test-databases';
import { PostgresSkillStore, type PostgresSkillStoreOptions } from './postgres-skill-store';

const synonyms = { automobile: 'car' };
let scopes = 0;
const newScope = () => `skills-hybrid:${process.pid}:${(scopes += 1)}`;
const names = (hits: ReadonlyArray<{ skill: { name: string } }>) => hits.map((hit) => hit.skill.name);
/** The skill texts `embedder` was given (the queries left out). */
const embeddedSkills = (embedder: FakeEmbedder) => embedder.calls.flat().filter((text) => text !== 'automobile').length;

describeOnEachDatabase((database, client) => {
  // The test PGlite loads pgvector; a real server stores vectors as pgvector's when it has it.
  const vectorStorage = database === 'PGlite' ? 'vector' : 'as the server allows';
  const open = (options: Partial<PostgresSkillStoreOptions> = {}) =>
    new PostgresSkillStore({ client: client(), scope: newScope(), clock: new ManualClock('2026-03-01T12:00:00.000Z'), ...options });

  it(`finds a skill by meaning once its vector is stored (as ${vectorStorage}), where BM25 alone finds nothing`, async () => {
    const scope = newScope();
    const store = open({ scope, embedder: createFakeEmbedder({ synonyms }) });
    await store.save({ name: 'errands/car-wash', summary: 'Wash the car', content: 'Take the car to the wash on Fridays' });
    await store.save({ name: 'errands/bicycle', summary: 'Oil the bicycle chain', content: 'Once a month' });
    expect(names(await open({ scope }).search({ text: 'automobile' }))).toEqual([]);
    await store.flushEmbeddings();
    const hits = await store.search({ text: 'automobile' });
    expect(names(hits)).toEqual(['errands/car-wash']);
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    const [column] = await client().query<{ type: string }>(
      "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'reverie_skill_embeddings'::regclass AND attname = 'embedding'",
    );
    const expected = vectorStorage === 'vector' ? 'vector' : await vectorStorageOn(client());
    expect(column!.type).toBe(expected);
    const indexes = await client().query("SELECT 1 FROM pg_indexes WHERE indexname = 'reverie_skill_embeddings_hnsw_64'");
    expect(indexes).toHaveLength(expected === 'vector' ? 1 : 0);
    await store.close();
  });

  it('keeps to the name prefix on the vector side too', async () => {
    const store = open({ embedder: createFakeEmbedder({ synonyms }) });
    await store.save({ name: 'home/car-keys', summary: 'Where the car keys are', content: 'In the bowl by the door' });
    await store.save({ name: 'work/car-park', summary: 'Where to leave the car', content: 'Level 3 of the car park' });
    await store.flushEmbeddings();
    expect(names(await store.search({ text: 'automobile' })).sort()).toEqual(['home/car-keys', 'work/car-park']);
    expect(names(await store.search({ text: 'automobile', prefix: 'home' }))).toEqual(['home/car-keys']);
    await store.close();
  });

  it('never returns another scope’s skill, even one of the same name', async () => {
    const embedder = createFakeEmbedder({ synonyms });
    const mine = open({ embedder });
    const theirs = open({ embedder });
    await theirs.save({ name: 'notes/vehicle', summary: 'The car', content: 'A blue car' });
    await mine.save({ name: 'notes/vehicle', summary: 'The bicycle', content: 'A red bicycle' });
    await Promise.all([mine.flushEmbeddings(), theirs.flushEmbeddings()]);
    expect(await mine.search({ text: 'automobile' })).toEqual([]);
    expect(names(await theirs.search({ text: 'automobile' }))).toEqual(['notes/vehicle']);
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('embeds a skill written without an embedder, again when its text or the model changes, not when only its use is recorded', async () => {
    const scope = newScope();
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const writer = open({ scope, clock });
    await writer.save({ name: 'travel/parking', summary: 'Park the bicycle', content: 'Rack by the station' });
    const embedder = createFakeEmbedder({ synonyms });
    const store = open({ scope, clock, embedder });
    await store.flushEmbeddings();
    expect(embeddedSkills(embedder)).toBe(1);
    expect(await store.search({ text: 'automobile' })).toEqual([]);

    clock.advance(1000);
    await store.save({ name: 'travel/parking', summary: 'The car', content: 'car park' });
    await store.flushEmbeddings();
    expect(embeddedSkills(embedder)).toBe(2);
    expect(names(await store.search({ text: 'automobile' }))).toEqual(['travel/parking']);

    const current = (await store.get('travel/parking'))!;
    await store.save({ ...current, lastUsedAt: '2026-03-02T12:00:00.000Z' });
    await store.flushEmbeddings();
    expect(embeddedSkills(embedder)).toBe(2);

    const other = createFakeEmbedder({ modelId: 'model-b', synonyms });
    const switched = open({ scope, clock, embedder: other });
    await switched.flushEmbeddings();
    expect(embeddedSkills(other)).toBe(1);
    await Promise.all([store.close(), switched.close()]);
  });

  it('saves without waiting for the model, and removes the vector with the skill', async () => {
    const scope = newScope();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const fake = createFakeEmbedder({ synonyms });
    const slow: IEmbedder = { modelId: fake.modelId, embed: async (texts) => released.then(() => fake.embed(texts)) };
    const store = open({ scope, embedder: slow });
    await store.save({ name: 'errands/car-wash', summary: 'Wash the car', content: 'Fridays' });
    expect(fake.embeddedTexts).toBe(0);
    release();
    await store.flushEmbeddings();
    expect(await client().query('SELECT name FROM reverie_skill_embeddings WHERE scope = $1', [scope])).toEqual([
      { name: 'errands/car-wash' },
    ]);
    await store.delete('errands/car-wash');
    expect(await client().query('SELECT 1 FROM reverie_skill_embeddings WHERE scope = $1', [scope])).toEqual([]);
    await store.close();
  });

  it('ranks by BM25 alone when the model fails, and says so', async () => {
    const logger = new RecordingLogger();
    const store = open({ embedder: createFakeEmbedder({ synonyms, fail: true }), logger });
    await store.save({ name: 'errands/car-wash', summary: 'Wash the car', content: 'Fridays' });
    await store.flushEmbeddings();
    expect(names(await store.search({ text: 'wash' }))).toEqual(['errands/car-wash']);
    expect(logger.records.some((record) => record.level === 'warn' && /Could not embed skills/.test(record.message))).toBe(true);
    await store.close();
  });

  it('refuses bad hybrid options with INVALID_OPTIONS naming the field', () => {
    expect(() => open({ minSimilarity: 2 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('minSimilarity') }),
    );
    expect(() => open({ queryEmbeddingTimeoutMs: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('queryEmbeddingTimeoutMs') }),
    );
    expect(() => open({ embedder: { embed: () => [] } as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('embedder') }),
    );
  });
});
