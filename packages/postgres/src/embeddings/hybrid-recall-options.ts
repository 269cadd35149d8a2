import { DEFAULT_MIN_SIMILARITY, DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS, type IEmbedder } from '@reverie/core';
import { z } from 'zod';
import type { SearchedTables } from '../search/searched-tables';
import type { DocumentFilter } from '../search/text-index';
import type { ResolvedStoreOptions } from '../stores/postgres-store-options';
import { StoreEmbeddings } from './store-embeddings';

/** The options of hybrid recall (SPEC M4) that the memory store, the skill store and working memory share. */
export interface HybridRecallOptions {
  /** Turns on hybrid search (SPEC M4): BM25 and cosine similarity, averaged; vectors are computed in the background. */
  embedder?: IEmbedder;
  /** Vector hits under this cosine similarity are ignored (default 0.5). */
  minSimilarity?: number;
  /** A search waits at most this long for the query's embedding, then ranks by BM25 alone (default 2000 ms). */
  queryEmbeddingTimeoutMs?: number;
}

/** The zod fields of `HybridRecallOptions`, for a store's options schema. */
export const hybridRecallOptionsShape = {
  embedder: z
    .custom<IEmbedder>(
      (value) => typeof (value as IEmbedder | null)?.embed === 'function' && typeof (value as IEmbedder).modelId === 'string',
      'must be an IEmbedder (a modelId and an embed function)',
    )
    .optional(),
  minSimilarity: z.number().min(0).max(1).optional(),
  queryEmbeddingTimeoutMs: z.number().int().positive().optional(),
};

/**
 * The store's hybrid recall over `tables`, or undefined without an embedder (BM25 alone).
 * `options` were validated with `hybridRecallOptionsShape`.
 */
export function storeEmbeddingsOf(
  options: HybridRecallOptions,
  store: ResolvedStoreOptions,
  tables: SearchedTables,
  described: { what: string; embeddable?: DocumentFilter },
): StoreEmbeddings | undefined {
  if (!options.embedder) return undefined;
  return new StoreEmbeddings({
    client: store.client,
    scope: store.scope,
    logger: store.logger,
    tables,
    embedder: options.embedder,
    minSimilarity: options.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
    queryEmbeddingTimeoutMs: options.queryEmbeddingTimeoutMs ?? DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS,
    ...described,
  });
}
