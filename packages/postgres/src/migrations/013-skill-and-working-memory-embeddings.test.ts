import { ManualClock } from '@reverie/core';
import { createFakeEmbedder } from '@reverie/core/testing';
import { describe, expect, it } from 'vitest';
import { usePgliteClient } from '../../test/test-databases';
import { PostgresSkillStore } from '../skills/postgres-skill-store';
import { PostgresWorkingMemory } from '../working-memory/postgres-working-memory';
import { migratePostgres } from './migrate-postgres';

describe('migration 13: skill and working-memory embeddings', () => {
  const client = usePgliteClient();
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const synonyms = { automobile: 'car' };

  it('gives the skills and entries written before it their text hash, so they are embedded; a row without one waits for its next write', async () => {
    const skills = new PostgresSkillStore({ client: client(), scope: 'before-13', clock });
    await skills.save({ name: 'errands/car-wash', summary: 'The car', content: 'car wash' });
    await skills.save({ name: 'errands/old-release', summary: 'The car', content: 'car park' });
    const working = new PostgresWorkingMemory({ client: client(), scope: 'before-13', clock, sweepIntervalMs: 0 });
    await working.set('session/s1/parking', 'car car, level 3');
    // The schema as migration 12 left it.
    for (const table of ['reverie_skill_embeddings', 'reverie_working_memory_embeddings']) await client().query(`DROP TABLE ${table}`);
    for (const table of ['reverie_skills', 'reverie_working_memory']) await client().query(`ALTER TABLE ${table} DROP COLUMN text_hash`);
    await client().query('DELETE FROM reverie_schema_migrations WHERE version = 13');

    expect((await migratePostgres(client())).applied).toEqual(['13-skill-and-working-memory-embeddings']);
    // As a process of the release before would write it: without a hash.
    await client().query("UPDATE reverie_skills SET text_hash = NULL WHERE scope = 'before-13' AND name = 'errands/old-release'");

    const embedder = createFakeEmbedder({ synonyms });
    const hybridSkills = new PostgresSkillStore({ client: client(), scope: 'before-13', clock, embedder });
    await hybridSkills.flushEmbeddings();
    expect(embedder.embeddedTexts).toBe(1);
    expect((await hybridSkills.search({ text: 'automobile' })).map((hit) => hit.skill.name)).toEqual(['errands/car-wash']);
    await hybridSkills.save({ name: 'errands/old-release', summary: 'The car', content: 'car park' });
    await hybridSkills.flushEmbeddings();
    expect((await hybridSkills.search({ text: 'automobile' })).map((hit) => hit.skill.name).sort()).toEqual([
      'errands/car-wash',
      'errands/old-release',
    ]);

    const hybridWorking = new PostgresWorkingMemory({ client: client(), scope: 'before-13', clock, sweepIntervalMs: 0, embedder });
    await hybridWorking.flushEmbeddings();
    expect((await hybridWorking.search({ text: 'automobile' })).map((hit) => hit.entry.key)).toEqual(['session/s1/parking']);
    await Promise.all([skills.close(), working.close(), hybridSkills.close(), hybridWorking.close()]);
  });
});
