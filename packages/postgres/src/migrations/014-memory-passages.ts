import type { PostgresMigration } from './postgres-migration';

/**
 * Passages (SPEC M3, B10): the BM25 terms of each passage a memory entry's lineage keeps (the whole
 * text of an entry merged into it, `MemoryLineage.passages`), a row per passage, so that recall
 * ranks an entry by the best of its text and its passages as `Bm25Index` does. Deleting the entry
 * deletes them. No entry written before holds passages, so there is nothing to derive.
 */
export const memoryPassagesMigration: PostgresMigration = {
  version: 14,
  name: 'memory-passages',
  async up(tx) {
    await tx.query(`
      CREATE TABLE reverie_memory_passages (
        scope text NOT NULL,
        id text NOT NULL,
        n integer NOT NULL,
        search_terms tsvector NOT NULL,
        term_count integer NOT NULL,
        PRIMARY KEY (scope, id, n),
        FOREIGN KEY (scope, id) REFERENCES reverie_memory (scope, id) ON DELETE CASCADE
      )`);
    await tx.query('CREATE INDEX reverie_memory_passages_search ON reverie_memory_passages USING gin (scope, search_terms)');
  },
};
