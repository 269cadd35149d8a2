import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  Bm25Index,
  type IClock,
  type ILogger,
  type MemoryEntry,
  indexMemoryEntry,
  memoryDocumentText,
  memoryEntrySchema,
  memoryPassageTexts,
} from '@reverie/core';
import type { DocumentLayout } from '../fs/document-layout';
import { JsonDocumentCollection } from '../fs/json-document-collection';
import type { RecordReader } from '../fs/record-map';

/** The folder of the cold tier, beside `memory/`. */
export const COLD_MEMORY_FOLDER = 'memory-cold';

/**
 * SPEC B13: the file memory store's cold tier, `<dataPath>/memory-cold/<category>/<id>.json`
 * with its own change journal and its own BM25 index. Nothing is read until a caller needs a
 * cold entry (a `get` or `save` of an id the hot tier does not hold, a listing of both tiers, a
 * search that falls back): a process that never reaches the cold tier never reads its folder.
 */
export class ColdTier {
  private readonly collection: JsonDocumentCollection<MemoryEntry>;
  private readonly root: string;
  readonly index = new Bm25Index();
  readonly categories = new Map<string, number>();
  private opened = false;

  constructor(dataPath: string, clock: IClock, logger: ILogger) {
    this.root = join(dataPath, COLD_MEMORY_FOLDER);
    this.collection = new JsonDocumentCollection<MemoryEntry>({
      root: this.root,
      clock,
      logger,
      layout: memoryEntryLayout('cold memory entry'),
      listener: {
        check: (entry) => checkIndexable(this.index, entry),
        onPut: (entry, previous) => {
          indexMemoryEntry(this.index, entry);
          if (previous) countCategory(this.categories, previous.category, -1);
          countCategory(this.categories, entry.category, +1);
        },
        onDelete: (entry) => {
          countCategory(this.categories, entry.category, -1);
          this.index.delete(entry.id);
        },
      },
    });
  }

  /** True once something read the cold folder. */
  get loaded(): boolean {
    return this.opened;
  }

  /**
   * The cold entries, read on first use and kept current with other processes' writes. While no
   * process has ever written a cold entry (no `memory-cold/` folder), nothing is read: a memory
   * without tiers never pays for them.
   */
  async entries(): Promise<RecordReader<MemoryEntry>> {
    if (!this.opened && !existsSync(this.root)) return NO_ENTRIES;
    this.opened = true;
    return this.collection.current();
  }

  /** Writes a cold entry computed from the stored one (see `JsonDocumentCollection.put`). */
  async put(id: string, build: (current: MemoryEntry | undefined) => MemoryEntry): Promise<MemoryEntry> {
    this.opened = true;
    return this.collection.put(id, build);
  }

  /** Removes a cold entry; false when the cold tier did not hold it. */
  async delete(id: string, check: (current: MemoryEntry | undefined) => void = () => undefined): Promise<boolean> {
    if (!(await this.entries()).has(id)) {
      check(undefined);
      return false;
    }
    return this.collection.delete(id, check);
  }

  async close(): Promise<void> {
    if (this.opened) await this.collection.close();
  }
}

const NO_ENTRIES: RecordReader<MemoryEntry> = Object.freeze({
  size: 0,
  has: () => false,
  get: () => undefined,
  values: () => [][Symbol.iterator](),
});

/** Throws, before anything is written, when `index` cannot hold an entry's text or one of its passages: both tiers' collections run it. */
export function checkIndexable(index: Bm25Index, entry: MemoryEntry): void {
  index.check(memoryDocumentText(entry));
  for (const passage of memoryPassageTexts(entry)) index.check(passage);
}

/** How both tiers keep entries on disk: `<category>/<id>.json`, validated by `memoryEntrySchema`, the later `updatedAt` winning a duplicate. */
export function memoryEntryLayout(what: string): DocumentLayout<MemoryEntry> {
  return {
    what,
    schema: memoryEntrySchema,
    keyOf: (entry) => entry.id,
    pathOf: (entry) => `${entry.category}/${entry.id}.json`,
    isNewer: (a, b) => new Date(a.updatedAt).getTime() > new Date(b.updatedAt).getTime(),
  };
}

/** Adds `delta` to a category's count, dropping it at zero. */
export function countCategory(categories: Map<string, number>, category: string, delta: number): void {
  const next = (categories.get(category) ?? 0) + delta;
  if (next > 0) categories.set(category, next);
  else categories.delete(category);
}
