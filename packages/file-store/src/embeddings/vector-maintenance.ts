import type { ILogger } from '@reverie/core';
import type { AnnIndex } from './ann-index';
import { MAX_UNINDEXED } from './ann-settings';
import type { StoredVector } from './stored-vector';

/** Time the graph's additions may take in one turn of the event loop before they yield. */
const ADD_SLICE_MS = 4;

export interface VectorMaintenanceOptions {
  /** A new, empty index for vectors of this length. */
  makeIndex(dimensions: number): AnnIndex;
  /** The store's vectors (read, never changed here). */
  vectors: ReadonlyMap<string, StoredVector>;
  /** Below this many vectors, searches compare every vector and no index is kept. */
  minVectors: number;
  /** Whether documents are being embedded now (a rebuild waits until they are, unless far behind). */
  embedding(): boolean;
  logger: ILogger;
  signal: AbortSignal;
}

/**
 * Keeps a store's vector index up to date in the background (SPEC M4, B12): opens the one on
 * disk, or builds one in a worker thread once there are `minVectors` vectors; adds a new or
 * changed vector to the graph a few at a time between other work; and builds the graph again
 * when too many vectors wait outside it (`MAX_UNINDEXED`, or more than it holds) or a quarter of
 * its keys are dead. Until the graph holds a vector, a search compares the query with that
 * vector directly (`unindexed`), so nothing ready is ever left out.
 */
export class VectorMaintenance {
  private index: AnnIndex | undefined;
  /** Documents whose current vector the graph does not hold. */
  readonly unindexed = new Set<string>();
  private running: Promise<void> | undefined;
  private opened = false;
  private failures = 0;
  private readonly build = new AbortController();

  constructor(private readonly options: VectorMaintenanceOptions) {
    options.signal.addEventListener('abort', () => this.build.abort(), { once: true });
  }

  /** The index, when searches should go through it for vectors of this length. */
  searchable(dimensions: number): AnnIndex | undefined {
    const index = this.index;
    if (!index?.ready || index.dimensions !== dimensions || this.options.vectors.size < Math.max(1, this.options.minVectors))
      return undefined;
    return index;
  }

  get indexedCount(): number {
    return this.index?.ready ? this.index.size : 0;
  }

  /** `id`'s vector changed, appeared or went: the graph stops proposing it until it holds the new one. */
  changed(id: string): void {
    this.index?.drop(id);
    if (this.options.vectors.has(id)) this.unindexed.add(id);
    else this.unindexed.delete(id);
    // While documents are embedded, the embedding worker kicks once it is done.
    if (!this.options.embedding()) this.kick();
  }

  /** Starts the background work if there is any and none runs. */
  kick(): void {
    if (this.running || this.options.signal.aborted || !this.hasWork()) return;
    let again = false;
    this.running = this.work()
      .then((outcome) => {
        again = outcome === 'done';
        this.failures = 0;
      })
      .catch((error: unknown) => {
        if (this.options.signal.aborted) return;
        this.failures += 1;
        // Three failures in a row end the index's work in this process: searches stay correct.
        again = this.failures < 3;
        this.options.logger.warn(
          again
            ? 'Could not bring the vector index up to date; searches compare every vector meanwhile, and it is tried again.'
            : 'Could not bring the vector index up to date three times in a row; until the store is opened again, searches compare every vector it does not hold.',
          { error: String(error) },
        );
      })
      .finally(() => {
        this.running = undefined;
        if (again) setImmediate(() => this.kick());
      });
  }

  /** Resolves when nothing is left to do (for tests and the benchmarks). */
  async settled(): Promise<void> {
    for (;;) {
      this.kick();
      if (!this.running) return;
      await this.running;
      if (this.options.embedding()) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Stops the work in flight and writes the index if it changed. */
  async close(): Promise<void> {
    this.build.abort();
    await this.running?.catch(() => undefined);
    await this.index?.persist();
  }

  private hasWork(): boolean {
    if (this.failures >= 3 || this.options.vectors.size < Math.max(1, this.options.minVectors)) return false;
    const index = this.index;
    if (!this.opened || !index?.ready) return true;
    return this.unindexed.size > 0 || this.tooStale(index);
  }

  /** A quarter of the graph's keys stand for vectors that changed or went. */
  private tooStale(index: AnnIndex): boolean {
    return index.keys - index.size > index.keys / 4;
  }

  /**
   * Opens the index on disk once, then adds what waits outside the graph, or rebuilds it when
   * there is none, it is too stale or too much waits. While documents are being embedded a
   * rebuild waits ('deferred': the embedding worker kicks again when it is done), unless the
   * graph would at least double.
   */
  private async work(): Promise<'done' | 'deferred'> {
    this.index ??= this.options.makeIndex(this.commonLength());
    const index = this.index;
    if (!this.opened) {
      this.opened = true;
      await index.open(
        (id) => this.options.vectors.get(id),
        () => this.recountUnindexed(),
      );
    }
    while (!this.options.signal.aborted && this.hasWork()) {
      if (!index.ready || this.tooStale(index) || this.unindexed.size > MAX_UNINDEXED) {
        const farBehind = index.ready && this.unindexed.size > index.size;
        if (this.options.embedding() && !farBehind) return 'deferred';
        await this.rebuild(index);
        continue;
      }
      this.addSome(index);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return 'done';
  }

  /** Adds unindexed vectors to the graph for at most `ADD_SLICE_MS`. */
  private addSome(index: AnnIndex): void {
    const start = performance.now();
    for (const id of this.unindexed) {
      const stored = this.options.vectors.get(id);
      this.unindexed.delete(id);
      if (stored && stored.vector.length === index.dimensions) index.add(id, stored);
      if (performance.now() - start > ADD_SLICE_MS) return;
    }
  }

  private async rebuild(index: AnnIndex): Promise<void> {
    const snapshot: Array<[string, StoredVector]> = [];
    for (const entry of this.options.vectors) if (entry[1].vector.length === index.dimensions) snapshot.push(entry);
    await index.rebuild(
      snapshot,
      (id) => this.options.vectors.get(id),
      this.build.signal,
      () => this.recountUnindexed(),
    );
  }

  /** Every vector the graph does not hold now. */
  private recountUnindexed(): void {
    this.unindexed.clear();
    const index = this.index!;
    for (const [id, { hash }] of this.options.vectors) if (!index.holds(id, hash)) this.unindexed.add(id);
  }

  /** The most common vector length (that of the store's model). */
  private commonLength(): number {
    const lengths = new Map<number, number>();
    for (const { vector } of this.options.vectors.values()) lengths.set(vector.length, (lengths.get(vector.length) ?? 0) + 1);
    return [...lengths].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  }
}
