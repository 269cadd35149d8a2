import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cosineSimilarity, type IEmbedder, type ILogger, type VectorHit } from '@reverie/core';
import { writeFileAtomic } from '../fs/atomic-write';
import { contentHash, decodeEmbedding, encodeEmbedding } from './embedding-file';

export interface EmbeddingIndexOptions {
  /** Where vectors are cached: one `<id>.bin` per document. */
  dir: string;
  embedder: IEmbedder;
  logger: ILogger;
  /** Texts sent to the embedder per call (default 16). */
  batchSize?: number;
  /** Longer texts are cut to this many characters before embedding (default 30 000). */
  maxInputChars?: number;
}

interface Wanted {
  text: string;
  hash: string;
}

/**
 * Vectors for hybrid recall (SPEC M4), computed in the background and cached on disk.
 *
 * `want(id, text)` queues a document; a single worker embeds queued documents in batches and
 * writes each vector atomically with the model id and the hash of its text, so an unchanged
 * document is never embedded twice and a changed text or model is re-embedded. Nothing here
 * blocks a save or a search: search uses whichever vectors are ready.
 */
export class EmbeddingIndex {
  private readonly dir: string;
  private readonly embedder: IEmbedder;
  private readonly logger: ILogger;
  private readonly batchSize: number;
  private readonly maxInputChars: number;
  private readonly vectors = new Map<string, { hash: string; vector: Float32Array }>();
  private readonly pending = new Map<string, Wanted>();
  /** The text hash each live document should have a vector for. */
  private readonly wanted = new Map<string, string>();
  private worker: Promise<void> | undefined;
  private cacheLoaded: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private readonly removals = new Set<Promise<void>>();
  private cacheState: 'unloaded' | 'loading' | 'loaded' = 'unloaded';
  /** Wishes made before the cache was read. */
  private readonly deferred = new Map<string, string>();

  constructor(options: EmbeddingIndexOptions) {
    this.dir = options.dir;
    this.embedder = options.embedder;
    this.logger = options.logger;
    this.batchSize = options.batchSize ?? 16;
    this.maxInputChars = options.maxInputChars ?? 30_000;
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

  /** Forgets a document and removes its cached vector (`flush()` waits for the removal). */
  forget(id: string): Promise<void> {
    this.pending.delete(id);
    this.deferred.delete(id);
    this.wanted.delete(id);
    this.vectors.delete(id);
    const removal = rm(this.fileOf(id), { force: true }).finally(() => this.removals.delete(removal));
    this.removals.add(removal);
    return removal;
  }

  /** Vector hits for a query vector among `candidates` (all ready vectors when omitted). */
  similar(query: ArrayLike<number>, accept: (id: string) => boolean): VectorHit[] {
    const hits: VectorHit[] = [];
    for (const [id, { vector }] of this.vectors) {
      if (vector.length !== query.length || !accept(id)) continue;
      hits.push({ id, similarity: cosineSimilarity(query, vector) });
    }
    return hits.sort((a, b) => b.similarity - a.similarity);
  }

  /** Embeds a query now (searches call this; a failure is the caller's to handle). */
  async embedQuery(text: string, signal?: AbortSignal): Promise<number[]> {
    const [vector] = await this.embedder.embed([text.slice(0, this.maxInputChars)], signal ? { signal } : {});
    if (!vector) throw new Error('the embedder returned no vector');
    return vector;
  }

  /**
   * Reads the cached vectors of `documents` in the background, queueing the ones that are
   * missing or stale. Resolves when the cache has been read (search does not wait for it).
   */
  loadCache(documents: ReadonlyMap<string, string>): Promise<void> {
    this.cacheLoaded ??= this.readCache(documents);
    return this.cacheLoaded;
  }

  /** Resolves when nothing is queued or being embedded. */
  async flush(): Promise<void> {
    await this.cacheLoaded;
    while (this.worker) await this.worker;
    await Promise.all(this.removals);
  }

  /** Stops the worker; queued documents are picked up again on the next open. */
  async close(): Promise<void> {
    this.abort.abort();
    this.pending.clear();
    await this.worker?.catch(() => undefined);
  }

  get readyCount(): number {
    return this.vectors.size;
  }

  private fileOf(id: string): string {
    return join(this.dir, `${id}.bin`);
  }

  private async readCache(documents: ReadonlyMap<string, string>): Promise<void> {
    this.cacheState = 'loading';
    try {
      const present = new Set(
        (await readdir(this.dir).catch(() => [] as string[])).filter((name) => name.endsWith('.bin')).map((name) => name.slice(0, -4)),
      );
      const missing = new Map<string, string>();
      for (const [id, text] of documents) {
        if (this.abort.signal.aborted) return;
        if (present.has(id) && (await this.adoptCached(id, text))) continue;
        missing.set(id, text);
      }
      for (const id of present) if (!documents.has(id) && !this.deferred.has(id)) await rm(this.fileOf(id), { force: true });
      this.cacheState = 'loaded';
      for (const [id, text] of missing) if (!this.deferred.has(id)) this.enqueue(id, text);
      for (const [id, text] of this.deferred) this.enqueue(id, text);
      this.deferred.clear();
    } finally {
      this.cacheState = 'loaded';
    }
  }

  /** Uses the cached vector of `id` if it was made from `text` by this model. */
  private async adoptCached(id: string, text: string): Promise<boolean> {
    const hash = contentHash(text);
    const decoded = decodeEmbedding(await readFile(this.fileOf(id)).catch(() => new Uint8Array()));
    if (!decoded || decoded.header.contentHash !== hash || decoded.header.modelId !== this.embedder.modelId) return false;
    this.wanted.set(id, hash);
    this.vectors.set(id, { hash, vector: decoded.vector });
    return true;
  }

  private kick(): void {
    if (this.worker || this.abort.signal.aborted) return;
    this.worker = this.drain().finally(() => {
      this.worker = undefined;
      if (this.pending.size > 0 && !this.abort.signal.aborted) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0 && !this.abort.signal.aborted) {
      const batch = [...this.pending.entries()].slice(0, this.batchSize);
      for (const [id] of batch) this.pending.delete(id);
      let vectors: number[][];
      try {
        vectors = await this.embedder.embed(
          batch.map(([, wanted]) => wanted.text.slice(0, this.maxInputChars)),
          { signal: this.abort.signal },
        );
      } catch (error) {
        if (this.abort.signal.aborted) return;
        this.logger.warn('Embedding failed; recall falls back to BM25 for these entries until the next open.', {
          ids: batch.map(([id]) => id),
          error: String(error),
        });
        continue;
      }
      for (let i = 0; i < batch.length; i++) {
        const [id, wanted] = batch[i]!;
        const vector = vectors[i];
        if (!vector || this.pending.has(id) || this.wanted.get(id) !== wanted.hash) continue;
        await writeFileAtomic(this.fileOf(id), encodeEmbedding({ modelId: this.embedder.modelId, contentHash: wanted.hash }, vector));
        this.vectors.set(id, { hash: wanted.hash, vector: Float32Array.from(vector) });
      }
    }
  }
}
