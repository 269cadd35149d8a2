import { createHash } from 'node:crypto';
import { cosineSimilarity, type IEmbedder, type ILogger, memoryDocumentText, type VectorHit } from '@reverie/core';
import type { PostgresClient } from '../client/postgres-client';
import { MIGRATION_LOCK_KEY } from '../migrations/migrate-postgres';
import { SqlParams } from '../sql/sql-params';
import { type MemoryFilters, memoryFilterSql } from './memory-filter-sql';

/** Texts sent to the embedder per call. */
const BATCH_SIZE = 16;
/** Longer texts are cut to this many characters before embedding (as the file store does). */
const MAX_INPUT_CHARS = 30_000;
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

/**
 * Vectors for hybrid recall (SPEC M4) in `reverie_memory_embeddings`, computed in the
 * background: a worker embeds the scope's entries that have no vector for their current text
 * (`text_hash`) and model, in batches, whoever wrote them, so a save never waits for the model
 * and an entry written by another process is embedded too. With pgvector the column is
 * `vector` with an HNSW index per dimension (created on first use); without it `real[]`,
 * compared in the process over the entries that pass the filters.
 */
export class MemoryEmbeddings {
  private worker: Promise<void> | undefined;
  private again = false;
  private storage: Promise<VectorStorage> | undefined;
  private readonly indexed = new Set<number>();
  private readonly abort = new AbortController();

  constructor(
    private readonly client: PostgresClient,
    private readonly scope: string,
    private readonly embedder: IEmbedder,
    private readonly logger: ILogger,
  ) {}

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

  /** Waits until every entry of the scope has its vector (or the worker gave up on an error). */
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

  /** True when the scope has at least one vector from this model for its entry's current text. */
  async hasVectors(): Promise<boolean> {
    const rows = await this.client.query(
      `SELECT 1 FROM reverie_memory_embeddings e JOIN reverie_memory m ON m.scope = e.scope AND m.id = e.id AND m.text_hash = e.text_hash
        WHERE e.scope = $1 AND e.model = $2 LIMIT 1`,
      [this.scope, this.embedder.modelId],
    );
    return rows.length > 0;
  }

  /** Embeds a query (a failure is the caller's to handle). */
  async embedQuery(text: string, signal: AbortSignal): Promise<number[]> {
    const [vector] = await this.embedder.embed([text.slice(0, MAX_INPUT_CHARS)], { signal });
    if (!vector) throw new Error('the embedder returned no vector');
    return vector;
  }

  /** The `limit` entries most similar to `query` among those that pass the filters, most similar first. */
  async similar(query: readonly number[], limit: number, filters: MemoryFilters): Promise<VectorHit[]> {
    const params = new SqlParams();
    const conditions = `e.scope = ${params.add(this.scope)} AND e.model = ${params.add(this.embedder.modelId)} AND e.dims = ${params.add(query.length)} AND m.text_hash = e.text_hash`;
    const from = `reverie_memory_embeddings e JOIN reverie_memory m ON m.scope = e.scope AND m.id = e.id`;
    const filter = memoryFilterSql(params, filters);
    const storage = await this.vectorStorage();
    if (storage.type === 'vector') {
      const dims = query.length;
      const vector = params.add(`[${query.join(',')}]`);
      const sql = `SELECT e.id, 1 - (e.embedding::vector(${dims}) <=> ${vector}::vector(${dims})) AS similarity
           FROM ${from} WHERE ${conditions} AND ${filter}
          ORDER BY e.embedding::vector(${dims}) <=> ${vector}::vector(${dims}), e.id LIMIT ${params.add(limit)}`;
      // The HNSW index holds every scope: without an iterative scan (pgvector 0.8+) a scan that
      // finds its first candidates in other scopes would return fewer than `limit` of this one.
      const rows = storage.iterativeScan
        ? await this.client.transaction(async (tx) => {
            await tx.query("SELECT set_config('hnsw.iterative_scan', 'strict_order', true)");
            return tx.query<{ id: string; similarity: number | null }>(sql, params.values);
          })
        : await this.client.query<{ id: string; similarity: number | null }>(sql, params.values);
      return rows.filter((row) => row.similarity !== null && Number.isFinite(Number(row.similarity))).map((row) => ({ id: row.id, similarity: Number(row.similarity) }));
    }
    const rows = await this.client.query<{ id: string; embedding: number[] }>(`SELECT e.id, e.embedding FROM ${from} WHERE ${conditions} AND ${filter}`, params.values);
    return rows
      .map((row) => ({ id: row.id, similarity: cosineSimilarity(query, row.embedding) }))
      .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  }

  /** How this database stores vectors (decided when it was migrated) and which pgvector it has. */
  private vectorStorage(): Promise<VectorStorage> {
    this.storage ??= this.client
      .query<{ type: string; version: string | null }>(
        `SELECT format_type(atttypid, atttypmod) AS type, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS version
           FROM pg_attribute WHERE attrelid = 'reverie_memory_embeddings'::regclass AND attname = 'embedding'`,
      )
      .then(([row]) => {
        if (row?.type !== 'vector') return { type: 'real[]', iterativeScan: false };
        const [major = 0, minor = 0] = (row.version ?? '0').split('.').map(Number);
        return { type: 'vector', iterativeScan: major > 0 || minor >= 8 };
      });
    return this.storage;
  }

  private async work(): Promise<void> {
    try {
      for (;;) {
        if (this.abort.signal.aborted) return;
        const batch = await this.client.query<{ id: string; content: string; tags: string[]; category: string; text_hash: string }>(
          `SELECT m.id, m.content, m.tags, m.category, m.text_hash
             FROM reverie_memory m
             LEFT JOIN reverie_memory_embeddings e ON e.scope = m.scope AND e.id = m.id AND e.model = $2 AND e.text_hash = m.text_hash
            WHERE m.scope = $1 AND e.id IS NULL
            ORDER BY m.id LIMIT ${BATCH_SIZE}`,
          [this.scope, this.embedder.modelId],
        );
        if (batch.length === 0) return;
        const vectors = await this.embedder.embed(
          batch.map((row) => memoryDocumentText(row).slice(0, MAX_INPUT_CHARS)),
          { signal: this.abort.signal },
        );
        if (vectors.length !== batch.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${batch.length} texts`);
        await this.store(batch.map((row, i) => ({ id: row.id, hash: row.text_hash, vector: vectors[i]! })));
      }
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.logger.warn('Could not embed memory entries; recall ranks them by BM25 alone until the next write retries.', {
        scope: this.scope,
        error: String(error),
      });
    }
  }

  /** Stores vectors for the entries whose text still has the hash they were computed from. */
  private async store(vectors: ReadonlyArray<{ id: string; hash: string; vector: readonly number[] }>): Promise<void> {
    const { type: storage } = await this.vectorStorage();
    for (const dims of new Set(vectors.map(({ vector }) => vector.length))) await this.ensureIndex(storage, dims);
    const values = storage === 'vector' ? vectors.map(({ vector }) => `[${vector.join(',')}]`) : vectors.map(({ vector }) => `{${vector.join(',')}}`);
    await this.client.query(
      `INSERT INTO reverie_memory_embeddings AS e (scope, id, model, text_hash, dims, embedding)
       SELECT m.scope, m.id, $2, v.hash, v.dims, v.embedding::${storage === 'vector' ? 'vector' : 'real[]'}
         FROM unnest($3::text[], $4::text[], $5::int[], $6::text[]) AS v(id, hash, dims, embedding)
         JOIN reverie_memory m ON m.scope = $1 AND m.id = v.id AND m.text_hash = v.hash
       ON CONFLICT (scope, id) DO UPDATE SET model = excluded.model, text_hash = excluded.text_hash, dims = excluded.dims, embedding = excluded.embedding`,
      [this.scope, this.embedder.modelId, vectors.map((v) => v.id), vectors.map((v) => v.hash), vectors.map((v) => v.vector.length), values],
    );
  }

  /** With pgvector: the HNSW index for vectors of `dims` dimensions, made once (under the migration lock). */
  private async ensureIndex(storage: 'vector' | 'real[]', dims: number): Promise<void> {
    if (storage !== 'vector' || this.indexed.has(dims) || !Number.isInteger(dims) || dims < 1 || dims > MAX_HNSW_DIMENSIONS) return;
    await this.client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      await tx.query(
        `CREATE INDEX IF NOT EXISTS reverie_memory_embeddings_hnsw_${dims} ON reverie_memory_embeddings
         USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims}`,
      );
    });
    this.indexed.add(dims);
  }
}
