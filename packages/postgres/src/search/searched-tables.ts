import { memoryDocumentText, skillDocumentText, workingMemoryDocumentText } from '@reverie/core';
import type { TextIndexTables } from './text-index';

/**
 * Where a searchable store family keeps its documents, their BM25 counts (`TextIndexTables`) and
 * their vectors for hybrid recall, and how a document's text (what BM25 indexes and the embedder
 * reads) is made from its row.
 */
export interface SearchedTables extends TextIndexTables {
  /** `(scope, <key>, model, text_hash, dims, embedding)`, a row per document with a vector. */
  embeddings: string;
  /** The columns besides the key that `text` reads. */
  columns: string;
  /** The document's text from a row with `key` (the key column) and `columns`. */
  text: (row: Record<string, unknown>) => string;
}

export const MEMORY_TABLES: SearchedTables = {
  documents: 'reverie_memory',
  key: 'id',
  passages: 'reverie_memory_passages',
  terms: 'reverie_memory_terms',
  stats: 'reverie_memory_stats',
  embeddings: 'reverie_memory_embeddings',
  columns: 'content, tags, category',
  text: (row) => memoryDocumentText({ content: row.content as string, tags: row.tags as string[], category: row.category as string }),
};

export const SKILL_TABLES: SearchedTables = {
  documents: 'reverie_skills',
  key: 'name',
  terms: 'reverie_skill_terms',
  stats: 'reverie_skill_stats',
  embeddings: 'reverie_skill_embeddings',
  columns: 'summary, content',
  text: (row) => skillDocumentText({ name: row.key as string, summary: row.summary as string, content: row.content as string }),
};

export const WORKING_MEMORY_TABLES: SearchedTables = {
  documents: 'reverie_working_memory',
  key: 'key',
  terms: 'reverie_working_memory_terms',
  stats: 'reverie_working_memory_stats',
  embeddings: 'reverie_working_memory_embeddings',
  columns: 'value, category, tags',
  text: (row) =>
    workingMemoryDocumentText({
      key: row.key as string,
      value: row.value as string,
      category: (row.category as string | null) ?? undefined,
      tags: row.tags as string[],
    }),
};
