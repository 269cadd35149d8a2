import { textHash } from '../embeddings/store-embeddings';
import { SKILL_TABLES, type SearchedTables, WORKING_MEMORY_TABLES } from '../search/searched-tables';
import { forEachDocumentBatch } from './document-batches';
import { tryCreateExtension } from './extensions';
import type { PostgresMigration } from './postgres-migration';

/**
 * Hybrid recall for skills and working memory (SPEC M4, issue 20), as the long-term memory has
 * it since migration 2: each document gets the hash of its text (`text_hash`, filled here for the
 * rows already there; a row a release before this one writes has none and is not embedded until
 * it is written again), and each family a table of vectors — pgvector's `vector` when the
 * extension can be created, else `real[]` — keyed as its documents and deleted with them.
 */
export const skillAndWorkingMemoryEmbeddingsMigration: PostgresMigration = {
  version: 13,
  name: 'skill-and-working-memory-embeddings',
  async up(tx) {
    const vectorType = (await tryCreateExtension(tx, 'vector')) ? 'vector' : 'real[]';
    for (const tables of [SKILL_TABLES, WORKING_MEMORY_TABLES] satisfies SearchedTables[]) {
      const { documents, key, embeddings } = tables;
      await tx.query(`ALTER TABLE ${documents} ADD COLUMN text_hash text`);
      await forEachDocumentBatch(tx, tables, async (rows) => {
        await tx.query(
          `UPDATE ${documents} d SET text_hash = u.hash FROM unnest($1::text[], $2::text[], $3::text[]) AS u(scope, key, hash)
            WHERE d.scope = u.scope AND d.${key} = u.key`,
          [rows.map((row) => row.scope), rows.map((row) => row.key), rows.map((row) => textHash(tables.text(row)))],
        );
      });
      await tx.query(`
        CREATE TABLE ${embeddings} (
          scope text NOT NULL,
          ${key} text COLLATE "C" NOT NULL,
          model text NOT NULL,
          text_hash text NOT NULL,
          dims integer NOT NULL,
          embedding ${vectorType} NOT NULL,
          PRIMARY KEY (scope, ${key}),
          FOREIGN KEY (scope, ${key}) REFERENCES ${documents} (scope, ${key}) ON DELETE CASCADE
        )`);
    }
  },
};
