// Just over 400 lines: one store's vectors, coordinating the embedding queue, the vector log and
// matrix (vector-cache.ts, vector-log.ts) and the graph (ann-index.ts, vector-maintenance.ts) so that
// a search never sees a vector of the wrong text or model.
import { type IEmbedder, type ILogger, type VectorHit } from '@reverie/core';
import { MAX_EMBEDDING_INPUT_CHARS } from '@reverie/core/internal';
import { AnnIndex } from './ann-index';
import { ANN_SETTINGS, DEFAULT_EXACT_SEARCH_BELOW } from './ann-settings';
import { BestHits } from './best-hits';
import { contentHash } from './embedding-file';
import { type UsearchModule, usearchEntry } from './load-usearch';
import { VectorCache } from './vector-cache';
import { VectorMaintenance } from './vector-maintenance';
import type { StoredVector } from './stored-vector';

/** Documents checked per slice while the cache is read; the event loop runs between slices. */
const CACHE_SLICE = 1000;
/**
 * A filtered search asks the graph for at most this many candidates, and at most a quarter of
 * the vectors, before it compares every vector instead: scoring that many candidates costs about
 * a tenth of comparing 100,000 vectors, and as much as comparing four times as many.
 */
const MAX_GRAPH_CANDIDATES = 4096;

export interface EmbeddingIndexOptions {
  /** Where vectors are cached (see `VectorCache`). */
  dir: string;
  embedder: IEmbedder;
  logger: ILogger;
  /** Texts sent to the embedder per call (default 16). */
  batchSize?: number;
  /** Longer texts are cut to this many characters before embedding (default 30 000). */
  maxInputChars?: number;
  /**
   * The name of a document's vector file of the older layout, without `.bin` (default: its id),
   * read at open. A store whose ids may hold `/` or be long (skill names, working-memory keys)
   * gives a hash.
   */
  fileStemOf?: (id: string) => string;
  /** usearch, to search through an index (see `loadUsearch`); without it every vector is compared. */
  usearch?: UsearchModule;
  /** Below this many vectors every vector is compared, without an index (default `DEFAULT_EXACT_SEARCH_BELOW`). */
  exactSearchBelow?: number;
}

interface Wanted {
  text: string;
  hash: string;
}

function stored(hash: string, vector: Float32Array): StoredVector {
  return { hash, vector, norm: Math.sqrt(dot(vector, vector)) };
}

/**
 * Float32 copies of a batch's vectors. Vectors of one length share one buffer (each a view of its
 * part): one allocation per batch instead of one per vector, which at 1,536 dimensions cost more
 * than the copy itself (the collector tracks every buffer). A vector kept alive keeps its batch's
 * buffer alive, at most `batchSize` vectors.
 */
function copyVectors(vectors: ReadonlyArray<ArrayLike<number>>): Float32Array[] {
  const length = vectors[0]?.length ?? 0;
  if (vectors.some((vector) => vector.length !== length)) return vectors.map((vector) => new Float32Array(vector));
  const buffer = new ArrayBuffer(vectors.length * length * 4);
  return vectors.map((vector, i) => {
    const copy = new Float32Array(buffer, i * length * 4, length);
    copy.set(vector);
    return copy;
  });
}

/** Always given two Float32Arrays, so V8 compiles one fast loop for it; four sums at a time. */
function dot(a: Float32Array, b: Float32Array): number {
  const length = a.length;
  const whole = length - (length % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < whole; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (let i = whole; i < length; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + s2 + s3;
}

/**
 * Vectors for hybrid recall (SPEC M4), computed in the background and cached on disk.
 *
 * `want(id, text)` queues a document; a single worker embeds queued documents in batches, keeps
 * each vector with the model id and the hash of its text (so an unchanged document is never
 * embedded twice, and a changed text or model is re-embedded) and appends them to the cache's
 * log in batches (`VectorCache`): writing keeps up with the embedder. Nothing here blocks a save
 * or a search: search uses whichever vectors are ready.
 *
 * Search compares the query with every vector below `exactSearchBelow` vectors; above, it asks
 * an approximate-nearest-neighbour index (`AnnIndex`, usearch's HNSW graph) for candidates,
 * compares the query with each of them and with every vector the graph does not hold yet, and so
 * scores every hit exactly as a full comparison would. `VectorMaintenance` keeps the graph up to
 * date in the background.
 */
export class EmbeddingIndex {
  private readonly embedder: IEmbedder;
  private readonly logger: ILogger;
  private readonly batchSize: number;
  private readonly maxInputChars: number;
  private readonly fileStemOf: (id: string) => string;
  private readonly cache: VectorCache;
  private readonly vectors = new Map<string, StoredVector>();
  private readonly pending = new Map<string, Wanted>();
  /** Where the worker is in `pending` (see `takeBatch`). */
  private cursor: MapIterator<[string, Wanted]> | undefined;
  /** The text hash each live document should have a vector for. */
  private readonly wanted = new Map<string, string>();
  private worker: Promise<void> | undefined;
  private cacheLoaded: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private cacheState: 'unloaded' | 'loading' | 'loaded' = 'unloaded';
  /** Wishes made before the cache was read. */
  private readonly deferred = new Map<string, string>();
  /** True when the vectors differ from what `.matrix.bin` holds. */
  private matrixStale = false;
  /** True once the whole cache was read (a close before that must not write a partial matrix). */
  private cacheComplete = false;
  /** Per-entry files of the older layout present at open (removed once the matrix holds them). */
  private legacyFiles = new Set<string>();
  /** Appends to the log not yet on disk. */
  private readonly appends = new Set<Promise<void>>();
  private readonly maintenance: VectorMaintenance | undefined;

  constructor(options: EmbeddingIndexOptions) {
    this.embedder = options.embedder;
    this.logger = options.logger;
    this.batchSize = options.batchSize ?? 16;
    this.maxInputChars = options.maxInputChars ?? MAX_EMBEDDING_INPUT_CHARS;
    this.fileStemOf = options.fileStemOf ?? ((id) => id);
    this.cache = new VectorCache(options.dir, this.embedder.modelId, this.logger);
    const entry = options.usearch ? usearchEntry() : undefined;
    this.maintenance =
      options.usearch && entry
        ? new VectorMaintenance({
            makeIndex: (dimensions) => new AnnIndex(options.usearch!, entry, options.dir, this.embedder.modelId, dimensions, this.logger),
            vectors: this.vectors,
            minVectors: options.exactSearchBelow ?? DEFAULT_EXACT_SEARCH_BELOW,
            embedding: () => this.pending.size > 0 || this.worker !== undefined,
            logger: this.logger,
            signal: this.abort.signal,
          })
        : undefined;
  }

  get modelId(): string {
    return this.embedder.modelId;
  }

  /**
   * Queues `id` for embedding unless a vector for exactly this text and model exists. Before the
   * cache has been read, the wish is held back so a cached vector is found instead of recomputed.
   */
  want(id: string, text: string): void {
    if (this.cacheState !== 'loaded') {
      this.deferred.set(id, text);
      return;
    }
    this.enqueue(id, text);
  }

  private enqueue(id: string, text: string): void {
    const hash = contentHash(text);
    this.wanted.set(id, hash);
    if (this.vectors.get(id)?.hash === hash) return;
    this.pending.set(id, { text, hash });
    this.kick();
  }

  /** Forgets a document: its vector leaves the search at once (and the cache at the next compaction). */
  forget(id: string): Promise<void> {
    this.pending.delete(id);
    this.deferred.delete(id);
    this.wanted.delete(id);
    if (this.vectors.delete(id)) this.matrixStale = true;
    this.maintenance?.changed(id);
    if (!this.legacyFiles.delete(this.fileStemOf(id))) return Promise.resolve();
    return this.cache.removeFiles([this.fileStemOf(id)]);
  }

  /**
   * The `limit` vectors most similar to `query` (cosine) among the documents `accept` lets through,
   * most similar first. Each vector's length is kept beside it, so a comparison is one dot
   * product, and only the best `limit` are kept (`BestHits`); `accept` is asked only about a
   * document that would be kept. Vectors of another length than the query's (another model's)
   * and vectors of zeros are skipped.
   *
   * With an index, the candidates are the graph's nearest to the query (as many as its search
   * considers, at least `limit`) and every vector it does not hold; when the filter leaves fewer
   * than `limit` of the graph's candidates, it asks for as many as the share that passed says it
   * takes, up to `MAX_GRAPH_CANDIDATES` (and a quarter of the vectors); a filter narrower than
   * that compares every vector.
   */
  similar(queryVector: ArrayLike<number>, accept: (id: string) => boolean, limit: number, options: { exact?: boolean } = {}): VectorHit[] {
    const query = new Float32Array(queryVector);
    const queryNorm = Math.sqrt(dot(query, query));
    if (queryNorm === 0 || limit < 1) return [];
    const graph = options.exact ? undefined : this.maintenance?.searchable(query.length);
    if (!graph) return this.exact(query, queryNorm, accept, limit);
    // The graph's search considers `expansionSearch` candidates whatever it returns: taking them
    // all costs one dot product each, and the exact scores then pick the best.
    for (let asked = Math.max(limit, ANN_SETTINGS.expansionSearch); ; ) {
      const best = new BestHits(limit);
      const candidates = graph.search(query, asked);
      let accepted = 0;
      for (const id of candidates) if (this.offer(best, id, query, queryNorm, accept)) accepted += 1;
      for (const id of this.maintenance!.unindexed)
        if (!graph.holds(id, this.vectors.get(id)?.hash ?? '')) this.offer(best, id, query, queryNorm, accept);
      const hits = best.sorted();
      // Enough of the graph's candidates passed the filter, or the graph has no more to give.
      if (hits.length >= limit || candidates.length < asked) return hits;
      // Ask for as many as the share that passed says it takes (and half again), unless that is
      // more than the graph should be asked for: then the filter is narrow, and every vector is compared.
      const needed = accepted === 0 ? Number.POSITIVE_INFINITY : Math.ceil(((limit * candidates.length) / accepted) * 1.5);
      const most = Math.min(MAX_GRAPH_CANDIDATES, Math.floor(this.vectors.size / 4));
      if (needed > most || asked >= most) return this.exact(query, queryNorm, accept, limit);
      asked = Math.max(needed, asked * 2);
    }
  }

  /** Offers `id`'s vector to `best`; true when `accept` was asked and let it through. */
  private offer(best: BestHits, id: string, query: Float32Array, queryNorm: number, accept: (id: string) => boolean): boolean {
    const stored = this.vectors.get(id);
    if (!stored || stored.vector.length !== query.length || stored.norm === 0) return false;
    const similarity = dot(query, stored.vector) / (queryNorm * stored.norm);
    if (!best.wouldKeep(similarity) || !accept(id)) return false;
    best.offer(id, similarity);
    return true;
  }

  private exact(query: Float32Array, queryNorm: number, accept: (id: string) => boolean, limit: number): VectorHit[] {
    const best = new BestHits(limit);
    for (const [id, { vector, norm }] of this.vectors) {
      if (vector.length !== query.length || norm === 0) continue;
      const similarity = dot(query, vector) / (queryNorm * norm);
      if (best.wouldKeep(similarity) && accept(id)) best.offer(id, similarity);
    }
    return best.sorted();
  }

  /**
   * Reads the cached vectors of `documents` in the background, queueing the ones that are
   * missing or stale. Resolves when the cache has been read (search does not wait for it).
   */
  loadCache(documents: ReadonlyMap<string, string>): Promise<void> {
    this.cacheLoaded ??= this.readCache(documents);
    return this.cacheLoaded;
  }

  /** Resolves when nothing is queued or being embedded, and what was embedded is on disk. */
  async flush(): Promise<void> {
    await this.cacheLoaded;
    while (this.worker) await this.worker;
    await Promise.all(this.appends);
  }

  /** Resolves when the index holds every vector (for tests and the benchmarks): `flush`, then the index's work. */
  async settleIndex(): Promise<void> {
    await this.flush();
    await this.maintenance?.settled();
  }

  /**
   * Stops the worker (queued documents are picked up again on the next open) and the index's
   * background work, writes the index if it changed, and brings `.matrix.bin` up to date.
   */
  async close(): Promise<void> {
    this.abort.abort();
    this.pending.clear();
    await this.worker?.catch(() => undefined);
    await this.cacheLoaded?.catch(() => undefined);
    await Promise.all(this.appends);
    await this.maintenance?.close();
    if (this.matrixStale && this.cacheComplete && (await this.cache.compact(this.vectors))) {
      await this.cache.removeFiles(this.legacyFiles);
      this.legacyFiles.clear();
    }
  }

  get readyCount(): number {
    return this.vectors.size;
  }

  /** How the vectors are searched now, for the benchmarks: the graph's size, or 0 for an exact scan. */
  get indexedCount(): number {
    return this.maintenance?.indexedCount ?? 0;
  }

  private async readCache(documents: ReadonlyMap<string, string>): Promise<void> {
    this.cacheState = 'loading';
    try {
      const { vectors: cached, files } = await this.cache.read();
      const missing = new Map<string, string>();
      let checked = 0;
      let fromCache = 0;
      for (const [id, text] of documents) {
        if (this.abort.signal.aborted) return;
        if (++checked % CACHE_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        const hash = contentHash(text);
        const found = cached.get(id);
        if (found && found.hash === hash) {
          this.wanted.set(id, hash);
          this.vectors.set(id, stored(hash, found.vector));
          fromCache += 1;
          continue;
        }
        const stem = this.fileStemOf(id);
        const fromFile = files.has(stem) ? await this.cache.readFile(stem, hash) : undefined;
        if (fromFile) {
          this.wanted.set(id, hash);
          this.vectors.set(id, stored(hash, fromFile.vector));
          this.matrixStale = true;
          continue;
        }
        missing.set(id, text);
      }
      if (cached.size !== fromCache) this.matrixStale = true;
      this.cacheComplete = true;
      const kept = new Set([...documents.keys(), ...this.deferred.keys()].map(this.fileStemOf));
      const gone = [...files].filter((stem) => !kept.has(stem));
      await this.cache.removeFiles(gone);
      this.legacyFiles = new Set([...files].filter((stem) => kept.has(stem)));
      if (this.legacyFiles.size > 0) this.matrixStale = true;
      this.cacheState = 'loaded';
      for (const [id, text] of missing) if (!this.deferred.has(id)) this.enqueue(id, text);
      for (const [id, text] of this.deferred) this.enqueue(id, text);
      this.deferred.clear();
      this.maintenance?.kick();
    } finally {
      this.cacheState = 'loaded';
    }
  }

  private kick(): void {
    if (this.worker || this.abort.signal.aborted) return;
    this.worker = this.drain().finally(() => {
      this.worker = undefined;
      if (this.pending.size > 0 && !this.abort.signal.aborted) this.kick();
      else this.maintenance?.kick();
    });
  }

  /**
   * Takes up to `batchSize` queued documents, oldest first. The queue is walked with one iterator
   * kept between batches (a Map's iterator sees later additions and skips deletions): starting
   * from the front each time walked over the slots of every document taken before.
   */
  private takeBatch(): Array<[string, Wanted]> {
    const batch: Array<[string, Wanted]> = [];
    while (batch.length < this.batchSize && this.pending.size > 0) {
      this.cursor ??= this.pending.entries();
      const next = this.cursor.next();
      if (next.done) {
        // At the end; documents queued again since (deleted, then added) lie before the cursor.
        this.cursor = undefined;
        if (batch.length > 0) break;
        continue;
      }
      batch.push(next.value);
      this.pending.delete(next.value[0]);
    }
    return batch;
  }

  /**
   * Embeds what is queued, a batch at a time. A batch's vectors are searchable at once and are
   * appended to the log while the next batch is embedded (appends waiting behind one in flight
   * go to disk together), so writing never waits for the model nor the model for the disk.
   */
  private async drain(): Promise<void> {
    while (this.pending.size > 0 && !this.abort.signal.aborted) {
      const batch = this.takeBatch();
      let vectors: number[][];
      try {
        vectors = await this.embedder.embed(
          batch.map(([, wanted]) => wanted.text.slice(0, this.maxInputChars)),
          { signal: this.abort.signal },
        );
      } catch (error) {
        if (this.abort.signal.aborted) return;
        this.logger.warn(
          'Embedding failed: these entries have no vector, so recall ranks them by BM25 alone until the store is opened again. Check the embedding model (its API key, its server, the network); vectors are computed again at the next open.',
          { ids: batch.map(([id]) => id), error: String(error) },
        );
        continue;
      }
      const written: Array<{ id: string; hash: string; vector: Float32Array }> = [];
      const kept: number[] = [];
      for (let i = 0; i < batch.length; i++) {
        const [id, wanted] = batch[i]!;
        if (vectors[i] && !this.pending.has(id) && this.wanted.get(id) === wanted.hash) kept.push(i);
      }
      const copies = copyVectors(kept.map((i) => vectors[i]!));
      for (let k = 0; k < kept.length; k++) {
        const [id, wanted] = batch[kept[k]!]!;
        const numbers = copies[k]!;
        this.vectors.set(id, stored(wanted.hash, numbers));
        this.maintenance?.changed(id);
        written.push({ id, hash: wanted.hash, vector: numbers });
      }
      if (written.length === 0) continue;
      this.matrixStale = true;
      const append = this.cache
        .append(written)
        .catch((error: unknown) => {
          this.logger.warn('Could not write embeddings to the vector log; they are computed again at the next open.', {
            error: String(error),
          });
        })
        .finally(() => this.appends.delete(append));
      this.appends.add(append);
    }
  }
}
