import { z } from 'zod';
import type { IEmbedder } from '../interfaces/embedder';
import { DEFAULT_MIN_SIMILARITY, DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS } from './hybrid-rank';

/**
 * The options of hybrid recall (SPEC M4) that every searched store takes, on files and on
 * PostgreSQL alike: the memory store, the skill store and working memory.
 */
export interface HybridRecallOptions {
  /**
   * An embedding model (`aiSdkEmbedder(model)`, `await loadWordVectorEmbedder()` of `reverie`):
   * turns on hybrid search, BM25 and cosine similarity averaged; vectors are computed in the
   * background. Default none: BM25.
   */
  embedder?: IEmbedder;
  /** Vector hits under this cosine similarity are ignored (default 0.5). */
  minSimilarity?: number;
  /** A search waits at most this long for the query's embedding, then ranks by BM25 alone (default 2000 ms). */
  queryEmbeddingTimeoutMs?: number;
}

/** The zod fields of `HybridRecallOptions`, for a store's options schema: a bad value is named by its field. */
export const hybridRecallOptionsShape = {
  embedder: z
    .custom<IEmbedder>(
      (value) => typeof (value as IEmbedder | null)?.embed === 'function' && typeof (value as IEmbedder).modelId === 'string',
      {
        message:
          'must be an IEmbedder: an object with a modelId string and an embed(texts) method (aiSdkEmbedder(model), loadWordVectorEmbedder() of reverie)',
      },
    )
    .optional(),
  minSimilarity: z.number().min(0).max(1).optional(),
  queryEmbeddingTimeoutMs: z.number().int().positive().optional(),
};

/** Hybrid recall as a store runs it: an embedder and every setting, defaults filled in. */
export type ResolvedHybridRecall = Required<HybridRecallOptions>;

/** `options` with their defaults (0.5, 2000 ms), or undefined without an embedder: the store ranks by BM25 alone. Pure. */
export function resolveHybridRecall(options: HybridRecallOptions): ResolvedHybridRecall | undefined {
  if (!options.embedder) return undefined;
  return {
    embedder: options.embedder,
    minSimilarity: options.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
    queryEmbeddingTimeoutMs: options.queryEmbeddingTimeoutMs ?? DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS,
  };
}
