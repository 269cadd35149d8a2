import { readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type IEmbedder, type ILogger, type VectorHit } from '@reverie/core';
import { MAX_EMBEDDING_INPUT_CHARS } from '@reverie/core/internal';
import { writeFileAtomic } from '../fs/atomic-write';
import { BestHits } from './best-hits';
import { decodeSnapshot, encodeSnapshot } from '../fs/snapshot-file';
import { contentHash, decodeEmbedding, encodeEmbedding } from './embedding-file';

/**
 * Every cached vector in one file (`.matrix.bin` in the vectors folder), read at open instead of
 * one file per entry. It is a copy of the per-entry files: a vector is taken from it only for a
 * document whose text has the hash stored next to it, from the same model, so a stale matrix can
 * only cost reads, never give a wrong vector.
 */
const MATRIX = '.matrix.bin';
const MATRIX_FORMAT = 'embeddings/1';
/** Documents checked per slice while the cache is read; the event loop runs between slices. */
const CACHE_SLICE = 1000;

export interface EmbeddingIndexOptions {
  /** Where vectors are cached: one `<id>.bin` per document. */
  dir: string;
  embedder: IEmbedder;
  logger: ILogger;
  /** Texts sent to the embedder per call (default 16). */
  batchSize?: number;
  /** Longer texts are cut to this many characters before embedding (default 30 000). */
  maxInputChars?: number;
  /**
   * The name of a document's vector file, without `.bin` (default: its id). A store whose ids may
   * hold `/` or be long (skill names, working-memory keys) gives a hash.
   */
  fileStemOf?: (id: string) => string;
}

interface Wanted {
  text: string;
  hash: string;
}

/** A document's vector, the hash of the text it was made from, and its length (for cosines). */
interface StoredVector {
  hash: string;
  vector: Float32Array;
  norm: number;
}

function stored(hash: string, vector: Float32Array): StoredVector {
  return { hash, vector, norm: Math.sqrt(dot(vector, vector)) };
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
  private readonly fileStemOf: (id: string) => string;
  private readonly vectors = new Map<string, StoredVector>();
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
  /** True when the vectors differ from what `.matrix.bin` holds. */
  private matrixStale = false;
  /** True once the whole cache was read (a close before that must not write a partial matrix). */
  private cacheComplete = false;

  constructor(options: EmbeddingIndexOptions) {
    this.dir = options.dir;
    this.embedder = options.embedder;
    this.logger = options.logger;
    this.batchSize = options.batchSize ?? 16;
    this.maxInputChars = options.maxInputChars ?? MAX_EMBEDDING_INPUT_CHARS;
    this.fileStemOf = options.fileStemOf ?? ((id) => id);
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
    if (this.vectors.delete(id)) this.matrixStale = true;
    const removal = rm(this.fileOf(id), { force: true }).finally(() => this.removals.delete(removal));
    this.removals.add(removal);
    return removal;
  }

  /**
   * The `limit` vectors most similar to `query` (cosine) among the documents `accept` lets through,
   * most similar first. Each vector's length is kept beside it, so a comparison is one dot
   * product, and only the best `limit` are kept (`BestHits`); `accept` is asked only about a
   * document that would be kept. Vectors of another length than the query's (another model's)
   * and vectors of zeros are skipped.
   */
  similar(queryVector: ArrayLike<number>, accept: (id: string) => boolean, limit: number): VectorHit[] {
    const query = Float32Array.from(queryVector);
    const queryNorm = Math.sqrt(dot(query, query));
    const best = new BestHits(limit);
    if (queryNorm === 0) return [];
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

  /** Resolves when nothing is queued or being embedded. */
  async flush(): Promise<void> {
    await this.cacheLoaded;
    while (this.worker) await this.worker;
    await Promise.all(this.removals);
  }

  /** Stops the worker (queued documents are picked up again on the next open) and brings `.matrix.bin` up to date. */
  async close(): Promise<void> {
    this.abort.abort();
    this.pending.clear();
    await this.worker?.catch(() => undefined);
    await this.cacheLoaded?.catch(() => undefined);
    await Promise.all(this.removals);
    if (this.matrixStale && this.cacheComplete) await this.writeMatrix();
  }

  /** Writes every ready vector of the most common length into `.matrix.bin`, atomically. */
  private async writeMatrix(): Promise<void> {
    const lengths = new Map<number, number>();
    for (const { vector } of this.vectors.values()) lengths.set(vector.length, (lengths.get(vector.length) ?? 0) + 1);
    const dimensions = [...lengths].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    const ids: string[] = [];
    const hashes: string[] = [];
    for (const [id, { hash, vector }] of this.vectors) {
      if (vector.length !== dimensions) continue;
      ids.push(id);
      hashes.push(hash);
    }
    const matrix = new Float32Array(ids.length * dimensions);
    ids.forEach((id, i) => matrix.set(this.vectors.get(id)!.vector, i * dimensions));
    this.matrixStale = false;
    try {
      await writeFileAtomic(
        join(this.dir, MATRIX),
        encodeSnapshot({
          version: MATRIX_FORMAT,
          sections: new Map([
            ['model', { kind: 'json', value: { modelId: this.embedder.modelId, dimensions } }],
            ['ids', { kind: 'json', value: ids }],
            ['hashes', { kind: 'json', value: hashes }],
            ['vectors', { kind: 'f32', value: matrix }],
          ]),
        }),
      );
    } catch (error) {
      this.matrixStale = true;
      this.logger.warn('Could not write the embedding matrix; the next open reads one file per entry.', { error: String(error) });
    }
  }

  /** The vectors in `.matrix.bin` made by this model, by id; empty when it is absent, torn or of another format. */
  private readMatrix(): Map<string, StoredVector> {
    const found = new Map<string, StoredVector>();
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(this.dir, MATRIX));
    } catch {
      return found;
    }
    const decoded = decodeSnapshot(bytes);
    if (!decoded || decoded.version !== MATRIX_FORMAT) return found;
    try {
      const json = (name: string): unknown => {
        const section = decoded.sections.get(name);
        return section?.kind === 'json' ? JSON.parse(section.text) : undefined;
      };
      const model = json('model') as { modelId?: unknown; dimensions?: unknown } | undefined;
      const ids = json('ids');
      const hashes = json('hashes');
      const vectors = decoded.sections.get('vectors');
      if (model?.modelId !== this.embedder.modelId || typeof model.dimensions !== 'number' || !Array.isArray(ids) || !Array.isArray(hashes)) return found;
      const dimensions = model.dimensions;
      if (vectors?.kind !== 'f32' || hashes.length !== ids.length || vectors.value.length !== ids.length * dimensions) return found;
      ids.forEach((id: string, i) => found.set(id, stored(hashes[i] as string, vectors.value.subarray(i * dimensions, (i + 1) * dimensions))));
    } catch {
      found.clear();
    }
    return found;
  }

  get readyCount(): number {
    return this.vectors.size;
  }

  private fileOf(id: string): string {
    return join(this.dir, `${this.fileStemOf(id)}.bin`);
  }

  private async readCache(documents: ReadonlyMap<string, string>): Promise<void> {
    this.cacheState = 'loading';
    try {
      const matrix = this.readMatrix();
      const present = new Set(
        (await readdir(this.dir).catch(() => [] as string[])).filter((name) => name.endsWith('.bin') && !name.startsWith('.')).map((name) => name.slice(0, -4)),
      );
      const missing = new Map<string, string>();
      let checked = 0;
      for (const [id, text] of documents) {
        if (this.abort.signal.aborted) return;
        if (++checked % CACHE_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
        const hash = contentHash(text);
        const cached = matrix.get(id);
        if (cached && cached.hash === hash) {
          this.wanted.set(id, hash);
          this.vectors.set(id, cached);
          continue;
        }
        if (present.has(this.fileStemOf(id)) && (await this.adoptCached(id, text))) {
          this.matrixStale = true;
          continue;
        }
        missing.set(id, text);
      }
      if (matrix.size !== this.vectors.size) this.matrixStale = true;
      this.cacheComplete = true;
      const kept = new Set([...documents.keys(), ...this.deferred.keys()].map(this.fileStemOf));
      for (const stem of present) if (!kept.has(stem)) await rm(join(this.dir, `${stem}.bin`), { force: true });
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
    this.vectors.set(id, stored(hash, decoded.vector));
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
        this.logger.warn(
          'Embedding failed: these entries have no vector, so recall ranks them by BM25 alone until the store is opened again. Check the embedding model (its API key, its server, the network); vectors are computed again at the next open.',
          { ids: batch.map(([id]) => id), error: String(error) },
        );
        continue;
      }
      for (let i = 0; i < batch.length; i++) {
        const [id, wanted] = batch[i]!;
        const vector = vectors[i];
        if (!vector || this.pending.has(id) || this.wanted.get(id) !== wanted.hash) continue;
        await writeFileAtomic(this.fileOf(id), encodeEmbedding({ modelId: this.embedder.modelId, contentHash: wanted.hash }, vector));
        this.vectors.set(id, stored(wanted.hash, Float32Array.from(vector)));
        this.matrixStale = true;
      }
    }
  }
}
