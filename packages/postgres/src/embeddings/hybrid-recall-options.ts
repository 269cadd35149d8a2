import { DEFAULT_MIN_SIMILARITY, DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS, type HybridRecallOptions } from '@reverie/core';
import type { SearchedTables } from '../search/searched-tables';
import type { DocumentFilter } from '../search/text-index';
import type { ResolvedStoreOptions } from '../stores/postgres-store-options';
import { StoreEmbeddings } from './store-embeddings';

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
