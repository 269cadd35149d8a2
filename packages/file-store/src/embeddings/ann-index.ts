import { statSync } from 'node:fs';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ILogger } from '@reverie/core';
import { writeFileAtomic } from '../fs/atomic-write';
import { decodeSnapshot, encodeSnapshot } from '../fs/snapshot-file';
import { buildAnnIndex } from './ann-build';
import { ANN_SETTINGS, type AnnSettings } from './ann-settings';
import type { UsearchIndex, UsearchModule } from './load-usearch';

/** The index's table of contents: which graph file, and which document and text each key stands for. */
const LABELS = '.ann.bin';
const LABELS_FORMAT = 'ann/1';
/** Graph files: `.ann-<generation>.usearch`, never changed once written. */
const GRAPH_PREFIX = '.ann-';
const GRAPH_SUFFIX = '.usearch';
/**
 * A graph file no table names is removed once it is this much older than the table (a newer one
 * may be another process's, about to be named).
 */
const ORPHAN_AGE_MS = 60_000;

/** A document's vector as the index reads it. */
export interface IndexedVector {
  hash: string;
  vector: Float32Array;
}

/**
 * The approximate-nearest-neighbour index of a store's vectors (SPEC M4, B12): usearch's HNSW
 * graph over the vectors of one model, persisted beside them as a graph file and a table that
 * names it and says which document and which text hash each key of the graph stands for.
 *
 * It only ever proposes candidates: `search` gives the documents whose key is live, that is,
 * whose vector in the graph is the one the store holds now for the same text (`EmbeddingIndex`
 * then scores them from its own vectors). A document deleted or changed has its key dropped at
 * once, in memory; a new vector is added to the graph in the background (`add`), or, when many
 * are missing, the graph is built again in a worker thread and replaces this one.
 *
 * On disk the table is the commit point: a graph file is written whole under a new name before
 * the table that names it replaces the old table atomically, so a process killed at any point
 * leaves the old graph with its table, or the new ones. At open, every key whose document or
 * text hash no longer matches is dropped, so a stale graph costs work, never a wrong vector.
 */
export class AnnIndex {
  private graph: UsearchIndex | undefined;
  private graphFile: string | undefined;
  /** What each key stands for (by key), and whether it still does. */
  private ids: string[] = [];
  private hashes: string[] = [];
  private live = new Uint8Array(0);
  private liveCount = 0;
  private readonly keyOf = new Map<string, number>();
  /** True when the graph or its keys changed since the table was written. */
  private dirty = false;

  constructor(
    private readonly usearch: UsearchModule,
    private readonly usearchEntry: string,
    private readonly dir: string,
    private readonly modelId: string,
    readonly dimensions: number,
    private readonly logger: ILogger,
    private readonly settings: AnnSettings = ANN_SETTINGS,
  ) {}

  /** Documents whose current vector the graph holds. */
  get size(): number {
    return this.liveCount;
  }

  /** Keys in the graph, live or not. */
  get keys(): number {
    return this.ids.length;
  }

  get ready(): boolean {
    return this.graph !== undefined;
  }

  /** Whether the graph holds `id`'s vector for the text of `hash`. */
  holds(id: string, hash: string): boolean {
    const key = this.keyOf.get(id);
    return key !== undefined && this.hashes[key] === hash;
  }

  /**
   * Opens the graph persisted in the folder, if it is of this model and size, keeping the keys
   * whose document still has a vector for the same text (`current`), and calls `adopted` in the
   * same tick. Returns false when there is none to open (absent, of another model, torn,
   * unreadable): the caller builds one.
   */
  async open(current: (id: string) => IndexedVector | undefined, adopted: () => void): Promise<boolean> {
    const table = await this.readTable();
    await this.removeOrphans(table?.file);
    if (!table) return false;
    const path = join(this.dir, table.file);
    try {
      if (statSync(path).size !== table.bytes) return false;
      const graph = this.newGraph();
      graph.load(path);
      if (graph.size() !== table.ids.length) return false;
      this.adopt(graph, table.file, table.ids, table.hashes, current);
      adopted();
      return true;
    } catch (error) {
      this.logger.warn('Could not open the vector index; it is built again in the background.', { error: String(error) });
      return false;
    }
  }

  /**
   * Builds a graph of `vectors` in a worker thread and replaces this one with it (keys made live
   * again only for documents whose vector is still the one built from, per `current`; `adopted`
   * is called in the same tick), then writes it to disk. Rejects when aborted or when the worker
   * fails.
   */
  async rebuild(
    vectors: ReadonlyArray<readonly [string, IndexedVector]>,
    current: (id: string) => IndexedVector | undefined,
    signal: AbortSignal,
    adopted: () => void,
  ): Promise<void> {
    const file = newGraphFile();
    const path = join(this.dir, file);
    const temporary = join(this.dir, `.${file}.${randomBytes(4).toString('hex')}.tmp`);
    let bytes: number;
    try {
      bytes = await buildAnnIndex({
        usearchEntry: this.usearchEntry,
        settings: this.settings,
        dimensions: this.dimensions,
        count: vectors.length,
        vectorAt: (key) => vectors[key]![1].vector,
        path,
        temporary,
        signal,
      });
    } catch (error) {
      await rm(temporary, { force: true });
      await rm(path, { force: true });
      throw error;
    }
    if (signal.aborted) {
      await rm(path, { force: true });
      throw new Error('the vector index build was stopped');
    }
    const graph = this.newGraph();
    graph.load(path);
    const previous = this.graphFile;
    this.adopt(
      graph,
      file,
      vectors.map(([id]) => id),
      vectors.map(([, { hash }]) => hash),
      current,
    );
    adopted();
    await this.writeTable(bytes);
    if (previous && previous !== file) await rm(join(this.dir, previous), { force: true });
  }

  /** Adds `id`'s vector to the graph (replacing what it held for `id`). A few milliseconds: the caller paces it. */
  add(id: string, { hash, vector }: IndexedVector): void {
    if (!this.graph || vector.length !== this.dimensions) return;
    this.drop(id);
    const key = this.ids.length;
    this.graph.add(BigUint64Array.of(BigInt(key)), vector, 1);
    this.ids.push(id);
    this.hashes.push(hash);
    if (this.live.length <= key) {
      const grown = new Uint8Array(Math.max(1024, this.live.length * 2));
      grown.set(this.live);
      this.live = grown;
    }
    this.live[key] = 1;
    this.liveCount += 1;
    this.keyOf.set(id, key);
    this.dirty = true;
  }

  /** Stops proposing `id` (deleted, or its vector changed); its key stays in the graph, dead. */
  drop(id: string): void {
    const key = this.keyOf.get(id);
    if (key === undefined) return;
    this.keyOf.delete(id);
    this.live[key] = 0;
    this.liveCount -= 1;
    this.dirty = true;
  }

  /** The documents of the `k` keys nearest to `query` that are live, nearest first. */
  search(query: Float32Array, k: number): string[] {
    if (!this.graph || k < 1 || this.ids.length === 0) return [];
    // Dead keys are skipped, so ask for as many more as there are in proportion.
    const asked = Math.min(this.ids.length, Math.ceil(k * (this.ids.length / Math.max(1, this.liveCount))) + 1);
    const { keys } = this.graph.search(query, asked, 1);
    const found: string[] = [];
    for (const big of keys) {
      const key = Number(big);
      if (key < this.ids.length && this.live[key] === 1) found.push(this.ids[key]!);
    }
    return found;
  }

  /** Writes the graph and its table if either changed since they were written (at close). */
  async persist(): Promise<void> {
    if (!this.graph || !this.dirty) return;
    const file = newGraphFile();
    const path = join(this.dir, file);
    const temporary = join(this.dir, `.${file}.${randomBytes(4).toString('hex')}.tmp`);
    const previous = this.graphFile;
    try {
      this.graph.save(temporary);
      await syncAndRename(temporary, path);
      this.graphFile = file;
      await this.writeTable(statSync(path).size);
      if (previous && previous !== file) await rm(join(this.dir, previous), { force: true });
    } catch (error) {
      await rm(temporary, { force: true });
      this.logger.warn('Could not write the vector index; the next open rebuilds what it lacks.', { error: String(error) });
    }
  }

  private newGraph(): UsearchIndex {
    const { connectivity, expansionAdd, expansionSearch, quantization } = this.settings;
    return new this.usearch.Index({
      dimensions: this.dimensions,
      metric: 'cos',
      quantization,
      connectivity,
      expansion_add: expansionAdd,
      expansion_search: expansionSearch,
      multi: false,
    });
  }

  /** Makes `graph` the index, its key k standing for `ids[k]` made from `hashes[k]`; keys whose document changed since are dead. */
  private adopt(
    graph: UsearchIndex,
    file: string,
    ids: string[],
    hashes: string[],
    current: (id: string) => IndexedVector | undefined,
  ): void {
    this.graph = graph;
    this.graphFile = file;
    this.ids = ids;
    this.hashes = hashes;
    this.live = new Uint8Array(Math.max(1024, ids.length));
    this.keyOf.clear();
    this.liveCount = 0;
    this.dirty = false;
    ids.forEach((id, key) => {
      const now = current(id);
      if (!now || now.hash !== hashes[key] || now.vector.length !== this.dimensions) {
        this.dirty = true;
        return;
      }
      const earlier = this.keyOf.get(id);
      if (earlier !== undefined) {
        this.live[earlier] = 0;
        this.liveCount -= 1;
      }
      this.keyOf.set(id, key);
      this.live[key] = 1;
      this.liveCount += 1;
    });
  }

  private async readTable(): Promise<{ file: string; bytes: number; ids: string[]; hashes: string[] } | undefined> {
    let decoded: ReturnType<typeof decodeSnapshot>;
    try {
      decoded = decodeSnapshot(await readFile(join(this.dir, LABELS)));
    } catch {
      return undefined;
    }
    if (!decoded || decoded.version !== LABELS_FORMAT) return undefined;
    try {
      const json = (name: string): unknown => {
        const section = decoded.sections.get(name);
        return section?.kind === 'json' ? JSON.parse(section.text) : undefined;
      };
      const graph = json('graph') as
        | { file?: unknown; bytes?: unknown; modelId?: unknown; dimensions?: unknown; settings?: unknown }
        | undefined;
      const ids = json('ids');
      const hashes = json('hashes');
      if (
        typeof graph?.file !== 'string' ||
        !isGraphFile(graph.file) ||
        typeof graph.bytes !== 'number' ||
        graph.modelId !== this.modelId ||
        graph.dimensions !== this.dimensions ||
        JSON.stringify(graph.settings) !== JSON.stringify(this.settings) ||
        !Array.isArray(ids) ||
        !Array.isArray(hashes) ||
        ids.length !== hashes.length ||
        !ids.every((id) => typeof id === 'string') ||
        !hashes.every((hash) => typeof hash === 'string')
      ) {
        return undefined;
      }
      return { file: graph.file, bytes: graph.bytes, ids: ids as string[], hashes: hashes as string[] };
    } catch {
      return undefined;
    }
  }

  private async writeTable(bytes: number): Promise<void> {
    await writeFileAtomic(
      join(this.dir, LABELS),
      encodeSnapshot({
        version: LABELS_FORMAT,
        sections: new Map([
          [
            'graph',
            {
              kind: 'json',
              value: { file: this.graphFile, bytes, modelId: this.modelId, dimensions: this.dimensions, settings: this.settings },
            },
          ],
          ['ids', { kind: 'json', value: this.ids }],
          ['hashes', { kind: 'json', value: this.hashes }],
        ]),
      }),
    );
    this.dirty = false;
  }

  /** Removes graph files (and their temporary files) that the table does not name and that are older than it. */
  private async removeOrphans(named: string | undefined): Promise<void> {
    let tableTime: number;
    try {
      tableTime = statSync(join(this.dir, LABELS)).mtimeMs;
    } catch {
      return;
    }
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (name === named || !(isGraphFile(name) || (name.startsWith(`.${GRAPH_PREFIX}`) && name.endsWith('.tmp')))) continue;
      try {
        if (statSync(join(this.dir, name)).mtimeMs < tableTime - ORPHAN_AGE_MS) await rm(join(this.dir, name), { force: true });
      } catch {
        // Gone already.
      }
    }
  }
}

/** A new graph file's name. */
function newGraphFile(): string {
  return `${GRAPH_PREFIX}${randomBytes(8).toString('hex')}${GRAPH_SUFFIX}`;
}

function isGraphFile(name: string): boolean {
  return name.startsWith(GRAPH_PREFIX) && name.endsWith(GRAPH_SUFFIX) && !name.includes('/');
}

async function syncAndRename(temporary: string, path: string): Promise<void> {
  const handle = await open(temporary, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}
