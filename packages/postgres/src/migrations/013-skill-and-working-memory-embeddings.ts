import { createHash } from 'node:crypto';
import { forEachDocumentBatch } from './document-batches';
import { tryCreateExtension } from './extensions';
import type { PostgresMigration } from './postgres-migration';

/**
 * The text hash and the documents' text as this migration computed them when it was released: a
 * released migration carries its own frozen copy of what it computes, so that changing the live
 * code (`textHash` in embeddings/store-embeddings.ts, `SKILL_TABLES` and `WORKING_MEMORY_TABLES`,
 * core's document text) never changes it.
 */
function frozenTextHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The two families' tables, the columns their text is made of, and that text, as they were at release. */
const FROZEN_TABLES = [
  {
    documents: 'reverie_skills',
    key: 'name',
    embeddings: 'reverie_skill_embeddings',
    columns: 'summary, content',
    text: (row: Record<string, unknown>) =>
      [(row.key as string).replace(/[/-]/g, ' '), row.summary as string, row.content as string].join(' '),
  },
  {
    documents: 'reverie_working_memory',
    key: 'key',
    embeddings: 'reverie_working_memory_embeddings',
    columns: 'value, category, tags',
    text: (row: Record<string, unknown>) =>
      [
        (row.key as string).replace(/[/-]/g, ' '),
        row.value as string,
        (row.category as string | null)?.replace(/[/-]/g, ' ') ?? '',
        (row.tags as string[]).join(' '),
      ].join(' '),
  },
] as const;

/**
 * Hybrid recall for skills and working memory (SPEC M4), as the long-term memory has
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
    for (const tables of FROZEN_TABLES) {
      const { documents, key, embeddings, text } = tables;
      await tx.query(`ALTER TABLE ${documents} ADD COLUMN text_hash text`);
      await forEachDocumentBatch(tx, tables, async (rows) => {
        await tx.query(
          `UPDATE ${documents} d SET text_hash = u.hash FROM unnest($1::text[], $2::text[], $3::text[]) AS u(scope, key, hash)
            WHERE d.scope = u.scope AND d.${key} = u.key`,
          [rows.map((row) => row.scope), rows.map((row) => row.key), rows.map((row) => frozenTextHash(text(row)))],
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
