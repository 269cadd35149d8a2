import type { PostgresClient } from '../client/postgres-client';
import { documentTerms, tsvectorText } from '../search/search-terms';
import { MEMORY_TABLES, SKILL_TABLES, type SearchedTables, WORKING_MEMORY_TABLES } from '../search/searched-tables';
import { forEachDocumentBatch } from './document-batches';
import type { PostgresMigration } from './postgres-migration';

const SEARCH_TABLES: readonly SearchedTables[] = [MEMORY_TABLES, SKILL_TABLES, WORKING_MEMORY_TABLES];

/**
 * BM25 terms with stems (SPEC M3): every document's `search_terms` and `term_count`, and each
 * scope's document frequencies and counts, derived again from the documents' text with the
 * analysis of this release (`indexTerms`: words and their stems), so that the PostgreSQL stores
 * score as the file store does. Documents are re-derived a batch at a time in key order.
 */
export const stemmedSearchTermsMigration: PostgresMigration = {
  version: 11,
  name: 'stemmed-search-terms',
  async up(tx) {
    for (const table of SEARCH_TABLES) await rederive(tx, table);
  },
};

async function rederive(tx: PostgresClient, table: SearchedTables): Promise<void> {
  await forEachDocumentBatch(tx, table, async (rows) => {
    const derived = rows.map((row) => documentTerms(table.text(row)));
    await tx.query(
      `UPDATE ${table.documents} d SET search_terms = u.terms::tsvector, term_count = u.length
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS u(scope, key, terms, length)
        WHERE d.scope = u.scope AND d.${table.key} = u.key`,
      [
        rows.map((row) => row.scope),
        rows.map((row) => row.key),
        derived.map((terms) => tsvectorText(terms.counts)),
        derived.map((terms) => terms.length),
      ],
    );
  });
  await tx.query(`DELETE FROM ${table.terms}`);
  await tx.query(
    `INSERT INTO ${table.terms} (scope, term, df)
     SELECT scope, lexeme, count(*) FROM ${table.documents}, unnest(tsvector_to_array(search_terms)) AS lexeme GROUP BY scope, lexeme`,
  );
  await tx.query(`DELETE FROM ${table.stats}`);
  await tx.query(
    `INSERT INTO ${table.stats} (scope, entries, total_length) SELECT scope, count(*), sum(term_count) FROM ${table.documents} GROUP BY scope`,
  );
}
