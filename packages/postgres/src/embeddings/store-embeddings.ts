import { createHash } from 'node:crypto';
import {
  type Bm25Hit,
  cosineSimilarity,
  type HybridRecallOptions,
  hybridRank,
  type IEmbedder,
  type ILogger,
  type VectorHit,
} from '@reverie/core';
import { embedQueryWithin, MAX_EMBEDDING_INPUT_CHARS, resolveHybridRecall } from '@reverie/core/internal';
import type { PostgresClient } from '../client/postgres-client';
import { MIGRATION_LOCK_KEY } from '../migrations/migrate-postgres';
import type { SearchedTables } from '../search/searched-tables';
import type { DocumentFilter } from '../search/text-index';
import { SqlParams } from '../sql/sql-params';
import type { ResolvedStoreOptions } from '../stores/postgres-store-options';

/** Texts sent to the embedder per call. */
const BATCH_SIZE = 16;
/** pgvector's HNSW index takes vectors of at most this many dimensions; longer ones are scanned. */
const MAX_HNSW_DIMENSIONS = 2000;

interface VectorStorage {
  type: 'vector' | 'real[]';
  /** pgvector 0.8+: an HNSW scan can go on past candidates that the filters drop. */
  iterativeScan: boolean;
}

/** The hash of a document's text that a stored vector must match to be used. Pure. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

export interface StoreEmbeddingsOptions {
  client: PostgresClient;
  scope: string;
  tables: SearchedTables;
  embedder: IEmbedder;
  logger: ILogger;
  /** Vector hits under this cosine similarity are ignored. */
  minSimilarity: number;
  /** A search waits at most this long for its query's embedding, then ranks by BM25 alone. */
  queryEmbeddingTimeoutMs: number;
  /** What the documents are called in a warning ("memory entries", "skills"). */
  what: string;
  /** Only the documents (alias `d`) that pass this are embedded, e.g. working memory's unexpired ones; default all. */
  embeddable?: DocumentFilter;
}

/**
 * The hybrid recall of a store over `tables`, or undefined without an embedder (BM25 alone).
 * `options` were validated with `hybridRecallOptionsShape`.
 */
export function storeEmbeddingsOf(
  options: HybridRecallOptions,
  store: ResolvedStoreOptions,
  tables: SearchedTables,
  described: { what: string; embeddable?: DocumentFilter },
): StoreEmbeddings | undefined {
  const hybrid = resolveHybridRecall(options);
  return hybrid && new StoreEmbeddings({ ...hybrid, client: store.client, scope: store.scope, logger: store.logger, tables, ...described });
}

/**
 * Hybrid recall (SPEC M4) for one scope of a store family: vectors in its `embeddings` table,
 * computed in the background — a worker embeds the scope's documents that have no vector for
 * their current text (`text_hash`) and model, in batches, whoever wrote them, so a write never
 * waits for the model and a document written by another process is embedded too — and `rank`,
 * which merges a BM25 ranking with the most similar vectors through `hybridRank`. With pgvector
 * the column is `vector` with an HNSW index per dimension (created on first use); without it
 * `real[]`, compared in the process over the documents that pass the filters. A vector is used
 * only while its document's text still has the hash it was computed from; it goes with its
 * document (ON DELETE CASCADE).
 */
export class StoreEmbeddings {
  private readonly client: PostgresClient;
  private readonly scope: string;
  private readonly tables: SearchedTables;
  private readonly embedder: IEmbedder;
  private readonly logger: ILogger;
  private readonly minSimilarity: number;
  private readonly queryTimeoutMs: number;
  private readonly what: string;
  private readonly embeddable: DocumentFilter;
  private worker: Promise<void> | undefined;
  private again = false;
  private started = false;
  private storage: Promise<VectorStorage> | undefined;
  private readonly indexed = new Set<number>();
  private readonly abort = new AbortController();

  constructor(options: StoreEmbeddingsOptions) {
    ({
      client: this.client,
      scope: this.scope,
      tables: this.tables,
      embedder: this.embedder,
      logger: this.logger,
      minSimilarity: this.minSimilarity,
      what: this.what,
    } = options);
    this.queryTimeoutMs = options.queryEmbeddingTimeoutMs;
    this.embeddable = options.embeddable ?? (() => 'TRUE');
  }

  /** The first time it is called, starts the worker on what was written before (or by others). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.kick();
  }

  /** Starts (or re-runs) the background worker; it returns at once. */
  kick(): void {
    if (this.abort.signal.aborted) return;
    if (this.worker) {
      this.again = true;
      return;
    }
    this.worker = this.work().finally(() => {
      this.worker = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Waits until every embeddable document of the scope has its vector (or the worker gave up on an error). */
  async flush(): Promise<void> {
    this.kick();
    while (this.worker) await this.worker;
  }

  /** Stops the worker after its current batch. */
  async close(): Promise<void> {
    this.abort.abort();
    this.again = false;
    while (this.worker) await this.worker;
  }

  /**
   * The best `limit` documents (default `maxResults`) for `text` among those that pass `filter`
   * (alias `d`): the 4 × maxResults best of `keyword` (BM25, with the same filter) and the
   * 4 × maxResults most similar vectors, merged by `hybridRank`. Without a query vector (no
   * vectors yet, or the model failed or was too slow), `keyword`'s best `limit` as they are. The
   * candidates depend on `maxResults` only, as the file stores' `HybridSearch.rank`.
   */
  async rank(
    text: string,
    maxResults: number,
    keyword: (limit: number) => Promise<Bm25Hit[]>,
    filter: DocumentFilter,
    limit = maxResults,
  ): Promise<Bm25Hit[]> {
    const query = await this.queryVector(text);
    if (!query) return keyword(limit);
    const bm25 = await keyword(Math.max(maxResults * 4, limit));
    const vector = await this.similar(query, maxResults * 4, filter);
    return hybridRank(bm25, vector, { minSimilarity: this.minSimilarity, limit });
  }

  /** The query's vector, or undefined (and a warning) when the scope has no vectors yet or the model fails or is too slow. */
  private async queryVector(text: string): Promise<number[] | undefined> {
    if (!(await this.hasVectors())) return undefined;
    return embedQueryWithin(this.embedder, text, this.queryTimeoutMs, this.logger);
  }

  /** True when the scope has at least one vector from this model for its document's current text. */
  private async hasVectors(): Promise<boolean> {
    const { documents, embeddings, key } = this.tables;
    const rows = await this.client.query(
      `SELECT 1 FROM ${embeddings} e JOIN ${documents} d ON d.scope = e.scope AND d.${key} = e.${key} AND d.text_hash = e.text_hash
        WHERE e.scope = $1 AND e.model = $2 LIMIT 1`,
      [this.scope, this.embedder.modelId],
    );
    return rows.length > 0;
  }

  /** The `limit` documents most similar to `query` among those that pass `filter`, most similar first. */
  private async similar(query: readonly number[], limit: number, filter: DocumentFilter): Promise<VectorHit[]> {
    const { documents, embeddings, key } = this.tables;
    const params = new SqlParams();
    const conditions = `e.scope = ${params.add(this.scope)} AND e.model = ${params.add(this.embedder.modelId)} AND e.dims = ${params.add(query.length)} AND d.text_hash = e.text_hash`;
    const from = `${embeddings} e JOIN ${documents} d ON d.scope = e.scope AND d.${key} = e.${key}`;
    const filtered = filter(params);
    const storage = await this.vectorStorage();
    if (storage.type === 'vector') {
      const dims = query.length;
      const vector = params.add(`[${query.join(',')}]`);
      const sql = `SELECT e.${key} AS id, 1 - (e.embedding::vector(${dims}) <=> ${vector}::vector(${dims})) AS similarity
           FROM ${from} WHERE ${conditions} AND ${filtered}
          ORDER BY e.embedding::vector(${dims}) <=> ${vector}::vector(${dims}), e.${key} LIMIT ${params.add(limit)}`;
      // The HNSW index holds every scope: without an iterative scan (pgvector 0.8+) a scan that
      // finds its first candidates in other scopes would return fewer than `limit` of this one.
      const rows = storage.iterativeScan
        ? await this.client.transaction(async (tx) => {
            await tx.query("SELECT set_config('hnsw.iterative_scan', 'strict_order', true)");
            return tx.query<{ id: string; similarity: number | null }>(sql, params.values);
          })
        : await this.client.query<{ id: string; similarity: number | null }>(sql, params.values);
      return rows
        .filter((row) => row.similarity !== null && Number.isFinite(Number(row.similarity)))
        .map((row) => ({ id: row.id, similarity: Number(row.similarity) }));
    }
    const rows = await this.client.query<{ id: string; embedding: number[] }>(
      `SELECT e.${key} AS id, e.embedding FROM ${from} WHERE ${conditions} AND ${filtered}`,
      params.values,
    );
    return rows
      .map((row) => ({ id: row.id, similarity: cosineSimilarity(query, row.embedding) }))
      .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }

  /** How this database stores the family's vectors (decided when it was migrated) and which pgvector it has. */
  private vectorStorage(): Promise<VectorStorage> {
    this.storage ??= this.client
      .query<{ type: string; version: string | null }>(
        `SELECT format_type(atttypid, atttypmod) AS type, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version
           FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'embedding'`,
        [this.tables.embeddings],
      )
      .then(([row]) => {
        if (row?.type !== 'vector') return { type: 'real[]', iterativeScan: false };
        const [major = 0, minor = 0] = (row.version ?? '0').split('.').map(Number);
        return { type: 'vector', iterativeScan: major > 0 || minor >= 8 };
      });
    return this.storage;
  }

  private async work(): Promise<void> {
    const { documents, embeddings, key, columns } = this.tables;
    try {
      for (;;) {
        if (this.abort.signal.aborted) return;
        const params = new SqlParams();
        const scope = params.add(this.scope);
        const model = params.add(this.embedder.modelId);
        // A row without a hash was written by a release before hybrid recall: it waits for its next write.
        const batch = await this.client.query<Record<string, unknown> & { key: string; text_hash: string }>(
          `SELECT d.${key} AS key, ${columns}, d.text_hash
             FROM ${documents} d
             LEFT JOIN ${embeddings} e ON e.scope = d.scope AND e.${key} = d.${key} AND e.model = ${model} AND e.text_hash = d.text_hash
            WHERE d.scope = ${scope} AND d.text_hash IS NOT NULL AND e.${key} IS NULL AND ${this.embeddable(params)}
            ORDER BY d.${key} LIMIT ${BATCH_SIZE}`,
          params.values,
        );
        if (batch.length === 0) return;
        const vectors = await this.embedder.embed(
          batch.map((row) => this.tables.text(row).slice(0, MAX_EMBEDDING_INPUT_CHARS)),
          { signal: this.abort.signal },
        );
        if (vectors.length !== batch.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${batch.length} texts`);
        await this.store(batch.map((row, i) => ({ key: row.key, hash: row.text_hash, vector: vectors[i]! })));
      }
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.logger.warn(
        `Could not embed ${this.what}: search ranks them by BM25 alone until the next write retries. Check the embedding model (its API key, its server, the network).`,
        {
          scope: this.scope,
          error: String(error),
        },
      );
    }
  }

  /** Stores vectors for the documents whose text still has the hash they were computed from. */
  private async store(vectors: ReadonlyArray<{ key: string; hash: string; vector: readonly number[] }>): Promise<void> {
    const { documents, embeddings, key } = this.tables;
    const { type: storage } = await this.vectorStorage();
    for (const dims of new Set(vectors.map(({ vector }) => vector.length))) await this.ensureIndex(storage, dims);
    const values =
      storage === 'vector' ? vectors.map(({ vector }) => `[${vector.join(',')}]`) : vectors.map(({ vector }) => `{${vector.join(',')}}`);
    await this.client.query(
      `INSERT INTO ${embeddings} AS e (scope, ${key}, model, text_hash, dims, embedding)
       SELECT d.scope, d.${key}, $2, v.hash, v.dims, v.embedding::${storage === 'vector' ? 'vector' : 'real[]'}
         FROM unnest($3::text[], $4::text[], $5::int[], $6::text[]) AS v(key, hash, dims, embedding)
         JOIN ${documents} d ON d.scope = $1 AND d.${key} = v.key AND d.text_hash = v.hash
       ON CONFLICT (scope, ${key}) DO UPDATE SET model = excluded.model, text_hash = excluded.text_hash, dims = excluded.dims, embedding = excluded.embedding`,
      [
        this.scope,
        this.embedder.modelId,
        vectors.map((v) => v.key),
        vectors.map((v) => v.hash),
        vectors.map((v) => v.vector.length),
        values,
      ],
    );
  }

  /** With pgvector: the HNSW index for vectors of `dims` dimensions, made once (under the migration lock). */
  private async ensureIndex(storage: 'vector' | 'real[]', dims: number): Promise<void> {
    if (storage !== 'vector' || this.indexed.has(dims) || !Number.isInteger(dims) || dims < 1 || dims > MAX_HNSW_DIMENSIONS) return;
    const { embeddings } = this.tables;
    await this.client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      await tx.query(
        `CREATE INDEX IF NOT EXISTS ${embeddings}_hnsw_${dims} ON ${embeddings}
         USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims}`,
      );
    });
    this.indexed.add(dims);
  }
}
