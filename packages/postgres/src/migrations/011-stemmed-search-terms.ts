import { memoryDocumentText, skillDocumentText, workingMemoryDocumentText } from '@reverie/core';
import type { PostgresClient } from '../client/postgres-client';
import { documentTerms, tsvectorText } from '../search/search-terms';
import type { PostgresMigration } from './postgres-migration';

/** Rows re-derived per statement. */
const BATCH = 1000;

interface SearchTable {
  documents: string;
  key: string;
  terms: string;
  stats: string;
  /** The columns `text` reads. */
  columns: string;
  text: (row: Record<string, unknown>) => string;
}

const SEARCH_TABLES: readonly SearchTable[] = [
  {
    documents: 'reverie_memory',
    key: 'id',
    terms: 'reverie_memory_terms',
    stats: 'reverie_memory_stats',
    columns: 'content, tags, category',
    text: (row) => memoryDocumentText({ content: row.content as string, tags: row.tags as string[], category: row.category as string }),
  },
  {
    documents: 'reverie_skills',
    key: 'name',
    terms: 'reverie_skill_terms',
    stats: 'reverie_skill_stats',
    columns: 'summary, content',
    text: (row) => skillDocumentText({ name: row.key as string, summary: row.summary as string, content: row.content as string }),
  },
  {
    documents: 'reverie_working_memory',
    key: 'key',
    terms: 'reverie_working_memory_terms',
    stats: 'reverie_working_memory_stats',
    columns: 'value, category, tags',
    text: (row) => workingMemoryDocumentText({ key: row.key as string, value: row.value as string, category: (row.category as string | null) ?? undefined, tags: row.tags as string[] }),
  },
];

/**
 * BM25 terms with stems (issue 20): every document's `search_terms` and `term_count`, and each
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

async function rederive(tx: PostgresClient, table: SearchTable): Promise<void> {
  let after: { scope: string; key: string } | undefined;
  for (;;) {
    const rows = await tx.query<Record<string, unknown> & { scope: string; key: string }>(
      `SELECT scope, ${table.key} AS key, ${table.columns} FROM ${table.documents}
        ${after ? `WHERE (scope, ${table.key}) > ($1, $2)` : ''}
        ORDER BY scope, ${table.key} LIMIT ${BATCH}`,
      after ? [after.scope, after.key] : [],
    );
    if (rows.length === 0) break;
    const derived = rows.map((row) => documentTerms(table.text(row)));
    await tx.query(
      `UPDATE ${table.documents} d SET search_terms = u.terms::tsvector, term_count = u.length
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS u(scope, key, terms, length)
        WHERE d.scope = u.scope AND d.${table.key} = u.key`,
      [rows.map((row) => row.scope), rows.map((row) => row.key), derived.map((terms) => tsvectorText(terms.counts)), derived.map((terms) => terms.length)],
    );
    after = rows.at(-1)!;
  }
  await tx.query(`DELETE FROM ${table.terms}`);
  await tx.query(
    `INSERT INTO ${table.terms} (scope, term, df)
     SELECT scope, lexeme, count(*) FROM ${table.documents}, unnest(tsvector_to_array(search_terms)) AS lexeme GROUP BY scope, lexeme`,
  );
  await tx.query(`DELETE FROM ${table.stats}`);
  await tx.query(`INSERT INTO ${table.stats} (scope, entries, total_length) SELECT scope, count(*), sum(term_count) FROM ${table.documents} GROUP BY scope`);
}
