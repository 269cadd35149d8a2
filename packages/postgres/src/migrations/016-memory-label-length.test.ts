import {
  Bm25Index,
  indexMemoryEntry,
  ManualClock,
  memoryDocumentText,
  type MemoryEntry,
  memoryLabelWords,
  memoryPassageTexts,
} from '@reverie/core';
import { describe, expect, it } from 'vitest';
import { usePgliteClient } from '../../test/test-databases';
import { PostgresMemoryStore } from '../memory/postgres-memory-store';
import { documentTerms } from '../search/search-terms';
import { migratePostgres } from './migrate-postgres';

const START = '2026-03-01T12:00:00.000Z';

describe('migration 16: a memory entry’s category is its label', () => {
  const client = usePgliteClient();
  const clock = new ManualClock(START);

  it('takes the category’s words out of the lengths written before it, so entries score as the file store’s index scores them', async () => {
    const scope = 'before-labels';
    const memory = new PostgresMemoryStore({ client: client(), scope, clock });
    const index = new Bm25Index();
    const drafts = [
      { content: 'Jon has a studio business that he showed off at a fair', category: 'people/jon/dance-studio', tags: ['jon'] },
      { content: 'Jon is reading a book for tips on his business', category: 'general', tags: ['jon'] },
      { content: 'Gina opened an online clothing store', category: 'people/gina/fashion-store-and-goals' },
      // Passages (SPEC M3) carry the category too, and lose its words with the entry.
      {
        content: 'Gina dances to relieve stress; contemporary is her favourite style',
        category: 'people/gina/dance',
        lineage: {
          origin: { kind: 'merge' as const, at: START },
          passages: ['Gina dances to relieve stress', 'Gina likes contemporary dance'],
        },
      },
      // All stop words: nothing of its own to count, so its length is 0, never below.
      { content: 'it is what it is', category: 'notes/the-end' },
    ];
    const saved: MemoryEntry[] = [];
    for (const draft of drafts) {
      const entry = await memory.save(draft);
      indexMemoryEntry(index, entry);
      saved.push(entry);
    }
    const rows = () =>
      client().query<{ id: string; term_count: number }>('SELECT id, term_count FROM reverie_memory WHERE scope = $1 ORDER BY id', [scope]);
    const written = await rows();
    // A save writes the length without the label.
    for (const entry of saved) {
      const row = written.find((candidate) => candidate.id === entry.id)!;
      expect(row.term_count).toBe(documentTerms(memoryDocumentText(entry), memoryLabelWords(entry)).length);
    }

    // As the release before wrote them: every word counted, the category's too.
    for (const entry of saved) {
      await client().query('UPDATE reverie_memory SET term_count = $1 WHERE scope = $2 AND id = $3', [
        documentTerms(memoryDocumentText(entry)).length,
        scope,
        entry.id,
      ]);
      for (const [n, passage] of memoryPassageTexts(entry).entries()) {
        await client().query('UPDATE reverie_memory_passages SET term_count = $1 WHERE scope = $2 AND id = $3 AND n = $4', [
          documentTerms(passage).length,
          scope,
          entry.id,
          n,
        ]);
      }
    }
    await client().query(
      'UPDATE reverie_memory_stats s SET total_length = (SELECT sum(term_count) FROM reverie_memory m WHERE m.scope = s.scope) WHERE scope = $1',
      [scope],
    );
    await client().query('DELETE FROM reverie_schema_migrations WHERE version = 16');
    const stale = await memory.search({ text: 'jon business', maxResults: 10 });
    const expected = index.search('jon business', { limit: 10 });
    expect(stale.map((hit) => hit.score)).not.toEqual(expected.map((hit) => expect.closeTo(hit.score, 9)));

    expect((await migratePostgres(client())).applied).toEqual(['16-memory-label-length']);
    expect(await rows()).toEqual(written);
    const passages = await client().query<{ term_count: number }>(
      'SELECT term_count FROM reverie_memory_passages WHERE scope = $1 ORDER BY n',
      [scope],
    );
    expect(passages.map((row) => row.term_count)).toEqual(
      memoryPassageTexts(saved[3]!).map((passage) => documentTerms(passage, memoryLabelWords(saved[3]!)).length),
    );
    const [stats] = await client().query<{ total_length: string }>('SELECT total_length FROM reverie_memory_stats WHERE scope = $1', [
      scope,
    ]);
    expect(Number(stats!.total_length)).toBe(written.reduce((sum, row) => sum + row.term_count, 0));
    for (const text of ['jon business', 'dance studio', 'gina stress', 'people', 'contemporary dance']) {
      const want = index.search(text, { limit: 10 });
      const found = await memory.search({ text, maxResults: 10 });
      expect(found.map((hit) => hit.score)).toEqual(want.map((hit) => expect.closeTo(hit.score, 9)));
      expect(found.map((hit) => hit.entry.id)).toEqual(want.map((hit) => hit.id));
    }
  });
});
