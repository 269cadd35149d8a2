import { memoryLabelWords } from '@reverie/core';
import type { PostgresMigration } from './postgres-migration';

/**
 * A memory entry's category is its label (SPEC M3, `memoryLabelWords`): its words stay among the
 * entry's BM25 terms, but no longer count in its length, as `Bm25Index` counts them. Every
 * memory row's `term_count` and each of its passages' lose the words of the row's category (the
 * terms do not change), and each scope's total length is summed again from the rows, so that
 * an entry written before scores as one written after. The label's words are counted once per
 * distinct category, in the host.
 */
export const memoryLabelLengthMigration: PostgresMigration = {
  version: 16,
  name: 'memory-label-length',
  async up(tx) {
    const rows = await tx.query<{ category: string }>('SELECT DISTINCT category FROM reverie_memory');
    const labelled = rows.map((row) => ({ category: row.category, words: memoryLabelWords(row) })).filter((row) => row.words > 0);
    if (labelled.length === 0) return;
    const params = [labelled.map((row) => row.category), labelled.map((row) => row.words)];
    await tx.query(
      `UPDATE reverie_memory m SET term_count = GREATEST(m.term_count - u.words, 0)
         FROM unnest($1::text[], $2::int[]) AS u(category, words)
        WHERE m.category = u.category`,
      params,
    );
    await tx.query(
      `UPDATE reverie_memory_passages p SET term_count = GREATEST(p.term_count - u.words, 0)
         FROM reverie_memory m, unnest($1::text[], $2::int[]) AS u(category, words)
        WHERE p.scope = m.scope AND p.id = m.id AND m.category = u.category`,
      params,
    );
    await tx.query(
      `UPDATE reverie_memory_stats s SET total_length = coalesce((SELECT sum(m.term_count) FROM reverie_memory m WHERE m.scope = s.scope), 0)`,
    );
  },
};
