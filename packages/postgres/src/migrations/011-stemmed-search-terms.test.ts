import { Bm25Index, indexMemoryEntry, ManualClock, memoryDocumentText, skillDocumentText, workingMemoryDocumentText } from '@reverie/core';
import { indexTerms } from '@reverie/core/internal';
import { describe, expect, it } from 'vitest';
import type { PostgresClient } from '../client/postgres-client';
import { usePgliteClient } from '../../test/test-databases';
import { PostgresMemoryStore } from '../memory/postgres-memory-store';
import { tsvectorText } from '../search/search-terms';
import { PostgresSkillStore } from '../skills/postgres-skill-store';
import { PostgresWorkingMemory } from '../working-memory/postgres-working-memory';
import { migratePostgres } from './migrate-postgres';

/** Puts a family's search terms back as the release before stemming wrote them (words only, every word counted in the length). */
async function writeWordsOnly(
  client: PostgresClient,
  documents: string,
  key: string,
  terms: string,
  stats: string,
  textOf: (row: Record<string, unknown>) => string,
): Promise<void> {
  const rows = await client.query<Record<string, unknown>>(`SELECT * FROM ${documents}`);
  for (const row of rows) {
    const words = indexTerms(textOf(row), 'exact').terms;
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    await client.query(`UPDATE ${documents} SET search_terms = $1::tsvector, term_count = $2 WHERE scope = $3 AND ${key} = $4`, [
      tsvectorText(counts),
      words.length,
      row.scope,
      row[key],
    ]);
  }
  await client.query(`DELETE FROM ${terms}`);
  await client.query(
    `INSERT INTO ${terms} (scope, term, df) SELECT scope, lexeme, count(*) FROM ${documents}, unnest(tsvector_to_array(search_terms)) AS lexeme GROUP BY scope, lexeme`,
  );
  await client.query(`DELETE FROM ${stats}`);
  await client.query(
    `INSERT INTO ${stats} (scope, entries, total_length) SELECT scope, count(*), sum(term_count) FROM ${documents} GROUP BY scope`,
  );
}

describe('migration 11: stemmed search terms', () => {
  const client = usePgliteClient();
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');

  it('re-derives the terms of memories, skills and working memory written before it, so they score as the file store does', async () => {
    const memory = new PostgresMemoryStore({ client: client(), scope: 'before-stems', clock });
    const index = new Bm25Index();
    const contents = [
      'She researched battery chemistry',
      'The research group meets weekly',
      'Deployments are frozen on Fridays',
      'He deploys on Mondays',
      'Coffee with oat milk',
    ];
    for (const content of contents) {
      const entry = await memory.save({ content, category: 'notes/work' });
      indexMemoryEntry(index, entry);
    }
    const skills = new PostgresSkillStore({ client: client(), scope: 'before-stems', clock });
    await skills.save({ name: 'ops/deploying', summary: 'How deployments are run', content: 'Run the pipeline' });
    const working = new PostgresWorkingMemory({ client: client(), scope: 'before-stems', clock });
    await working.set('session/one/notes', 'the user researched flights');

    await writeWordsOnly(client(), 'reverie_memory', 'id', 'reverie_memory_terms', 'reverie_memory_stats', (row) =>
      memoryDocumentText({ content: row.content as string, tags: row.tags as string[], category: row.category as string }),
    );
    await writeWordsOnly(client(), 'reverie_skills', 'name', 'reverie_skill_terms', 'reverie_skill_stats', (row) =>
      skillDocumentText({ name: row.name as string, summary: row.summary as string, content: row.content as string }),
    );
    await writeWordsOnly(client(), 'reverie_working_memory', 'key', 'reverie_working_memory_terms', 'reverie_working_memory_stats', (row) =>
      workingMemoryDocumentText({ key: row.key as string, value: row.value as string, tags: row.tags as string[] }),
    );
    // A database from before stems upgrades through every migration after it (16 takes the category out of the lengths).
    await client().query('DELETE FROM reverie_schema_migrations WHERE version IN (11, 16)');
    // Before the migration, a stem finds nothing: the stored terms are words only.
    expect(await memory.search({ text: 'deploying', maxResults: 10 })).toEqual([]);

    expect((await migratePostgres(client())).applied).toEqual(['11-stemmed-search-terms', '16-memory-label-length']);
    for (const text of ['deploying', 'researching', 'research', 'coffee']) {
      const expected = index.search(text, { limit: 10 });
      const found = await memory.search({ text, maxResults: 10 });
      expect(found.map((hit) => hit.score)).toEqual(expected.map((hit) => expect.closeTo(hit.score, 9)));
      expect(new Set(found.map((hit) => hit.entry.id))).toEqual(new Set(expected.map((hit) => hit.id)));
    }
    expect((await skills.search({ text: 'deploys' })).map((hit) => hit.skill.name)).toEqual(['ops/deploying']);
    expect((await working.search({ text: 'researching' })).map((hit) => hit.entry.key)).toEqual(['session/one/notes']);
  });
});
