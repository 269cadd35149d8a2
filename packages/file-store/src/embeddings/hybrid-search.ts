import { type Bm25Hit, type HybridRecallOptions, hybridRank, type IEmbedder, type ILogger } from '@reverie/core';
import { embedQueryWithin, resolveHybridRecall } from '@reverie/core/internal';
import { contentHash } from './embedding-file';
import { EmbeddingIndex } from './embedding-index';
import { loadUsearch, type UsearchModule } from './load-usearch';
import type { VectorSearchOptions } from './vector-search-options';

/**
 * The hybrid search of a store given `options` (validated by `validateStoreOptions`), its vectors
 * cached in `dir`; undefined without an embedder.
 */
export function hybridSearchOf(
  options: HybridRecallOptions & VectorSearchOptions,
  dir: string,
  logger: ILogger,
  fileStemOf?: (id: string) => string,
): HybridSearch | undefined {
  const hybrid = resolveHybridRecall(options);
  return (
    hybrid &&
    new HybridSearch({
      ...hybrid,
      dir,
      logger,
      ...(fileStemOf ? { fileStemOf } : {}),
      vectorSearch: options.vectorSearch ?? 'auto',
      ...(options.exactSearchBelow !== undefined ? { exactSearchBelow: options.exactSearchBelow } : {}),
    })
  );
}

export interface HybridSearchOptions {
  /** Where the vectors are cached (`<store folder>/.embeddings`). */
  dir: string;
  embedder: IEmbedder;
  logger: ILogger;
  /** Vector hits under this cosine similarity are dropped (SPEC M4). */
  minSimilarity: number;
  /** A search waits at most this long for its query's embedding, then ranks by BM25 alone. */
  queryEmbeddingTimeoutMs: number;
  /** The vector file's name of a document (see `EmbeddingIndex`); default: its id. */
  fileStemOf?: (id: string) => string;
  /** See `VectorSearchOptions` (default `'auto'`, 5,000). */
  vectorSearch?: 'auto' | 'exact';
  exactSearchBelow?: number;
}

/** A file name for any id (a skill name with `/`, a long working-memory key): a hash of it. Pure. */
export function hashedFileStem(id: string): string {
  return contentHash(id).slice(0, 32);
}

/**
 * Hybrid recall (SPEC M4) for a file store that has an embedder: the store tells it what each
 * document's text is (`want`, `forget`, and once, at its first read, `loadCache`), and a search
 * embeds the query (`queryVector`) and merges the BM25 side it is given with the vector side
 * (`rank`). The memory store, the skill store and working memory use it alike. Vectors are
 * computed in the background and cached (`EmbeddingIndex`); until they are, or when the query
 * cannot be embedded in time, a search ranks by BM25 alone.
 */
export class HybridSearch {
  private readonly vectors: EmbeddingIndex;
  private readonly embedder: IEmbedder;
  private readonly logger: ILogger;
  private readonly minSimilarity: number;
  private readonly queryEmbeddingTimeoutMs: number;
  private cacheRequested = false;

  constructor(options: HybridSearchOptions) {
    this.vectors = new EmbeddingIndex({
      dir: options.dir,
      embedder: options.embedder,
      logger: options.logger,
      ...(options.fileStemOf ? { fileStemOf: options.fileStemOf } : {}),
      ...(options.vectorSearch === 'exact' ? {} : optionalUsearch(options.logger)),
      ...(options.exactSearchBelow !== undefined ? { exactSearchBelow: options.exactSearchBelow } : {}),
    });
    this.embedder = options.embedder;
    this.logger = options.logger;
    this.minSimilarity = options.minSimilarity;
    this.queryEmbeddingTimeoutMs = options.queryEmbeddingTimeoutMs;
  }

  /** A document was written with this text: embed it (in the background) unless it already is. */
  want(id: string, text: string): void {
    this.vectors.want(id, text);
  }

  /** A document is gone: drop its vector and its cached file. */
  forget(id: string): void {
    this.vectors.forget(id).catch((error: unknown) => {
      this.logger.warn('Could not remove the cached vector of a removed document.', { id, error: String(error) });
    });
  }

  /** At the store's first read: reads the cached vectors of `documents` (ids and texts), once, in the background. */
  loadCache(documents: () => ReadonlyMap<string, string>): void {
    if (this.cacheRequested) return;
    this.cacheRequested = true;
    void this.vectors
      .loadCache(documents())
      .catch((error: unknown) => this.logger.warn('Could not read the embedding cache.', { error: String(error) }));
  }

  /** The query's vector, or undefined (no vectors yet, or the embedder failed or took too long: BM25 alone). */
  async queryVector(text: string): Promise<number[] | undefined> {
    if (this.vectors.readyCount === 0) return undefined;
    return embedQueryWithin(this.embedder, text, this.queryEmbeddingTimeoutMs, this.logger);
  }

  /**
   * The best `limit` ids (default `maxResults`) with their scores: with a query vector, the
   * 4 × `maxResults` best of `bm25` and the 4 × `maxResults` most similar vectors that `accept`
   * lets through, merged by `hybridRank`; without one, `bm25` alone. `bm25(limit)` is the store's
   * keyword search, with the same filter as `accept`. The candidates depend on `maxResults` only,
   * so a larger `limit` (the memory store weighs more hits than it returns) scores them alike.
   */
  rank(
    queryVector: readonly number[] | undefined,
    bm25: (limit: number) => Bm25Hit[],
    accept: (id: string) => boolean,
    maxResults: number,
    limit = maxResults,
  ): Bm25Hit[] {
    if (queryVector === undefined) return bm25(limit);
    const vector = this.vectors.similar(queryVector, accept, maxResults * 4);
    return hybridRank(bm25(Math.max(maxResults * 4, limit)), vector, { minSimilarity: this.minSimilarity, limit }).map(({ id, score }) => ({
      id,
      score,
    }));
  }

  /** Waits until every document wanted so far has its vector (for tests and tools). */
  flush(): Promise<void> {
    return this.vectors.flush();
  }

  /** Waits until the vector index holds every vector too (for tests and the benchmarks). */
  settleIndex(): Promise<void> {
    return this.vectors.settleIndex();
  }

  close(): Promise<void> {
    return this.vectors.close();
  }
}

/** `{ usearch }` when it loads, else nothing (and `loadUsearch` has said why, once). */
function optionalUsearch(logger: ILogger): { usearch?: UsearchModule } {
  const usearch = loadUsearch(logger);
  return usearch ? { usearch } : {};
}
