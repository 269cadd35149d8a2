import { z } from 'zod';
import { DEFAULT_EXACT_SEARCH_BELOW } from './ann-settings';

/**
 * How a file store's hybrid search finds the vectors most similar to a query (SPEC M4, B12): the
 * options of `FileMemoryStore`, `FileSkillStore` and `FileWorkingMemory`, used with an
 * `embedder` only.
 */
export interface VectorSearchOptions {
  /**
   * `'auto'` (default): from `exactSearchBelow` vectors on, through an approximate-nearest-neighbour
   * index (usearch's HNSW graph, persisted beside the vectors; every hit scored exactly), when the
   * optional dependency usearch loads; `'exact'`: compare the query with every vector.
   */
  vectorSearch?: 'auto' | 'exact';
  /** Below this many vectors, compare the query with every vector, without an index (default 5,000). */
  exactSearchBelow?: number;
}

/** The zod fields of `VectorSearchOptions`, for a store's options schema: a bad value is named by its field. */
export const vectorSearchOptionsShape = {
  vectorSearch: z
    .enum(['auto', 'exact'], { message: "must be 'auto' (an index from exactSearchBelow vectors on) or 'exact' (compare every vector)" })
    .optional(),
  exactSearchBelow: z.number().int().min(0).optional(),
};

export { DEFAULT_EXACT_SEARCH_BELOW };
