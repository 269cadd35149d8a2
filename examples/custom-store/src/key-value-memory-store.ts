import {
  assertOpen,
  assertValidId,
  Bm25Index,
  browseMemory,
  byCreation,
  type CategoryCount,
  checkCondition,
  type DecayOptions,
  type IClock,
  indexMemoryEntry,
  type ILongTermMemory,
  isUnderPrefix,
  type MemoryDraft,
  type MemoryEntry,
  memoryEntrySchema,
  type MemorySearchQuery,
  type MemorySearchResult,
  parseMemoryQuery,
  parseRecord,
  resolveDecayOptions,
  resolveMemoryDraft,
  systemClock,
  validateCategory,
  type WriteCondition,
} from '@reverie/core';
import type { KeyValueBackend } from './key-value-backend';

export interface KeyValueMemoryStoreOptions {
  backend: KeyValueBackend;
  /** Keys are `<prefix>memory/<id>`, so several agents can share one backend. */
  keyPrefix?: string;
  clock?: IClock;
  /** SPEC D7: the importance decay curve; give it what you give `.withMemory({ decay })`. */
  decay?: Partial<DecayOptions>;
}

/**
 * An `ILongTermMemory` over any key-value backend. It shows the three things a custom store
 * must get right:
 *
 * 1. The draft rules: `resolveMemoryDraft` from `@reverie/core` applies them (ids, times,
 *    defaults, what an update keeps, optimistic concurrency), so every store agrees.
 * 2. Recall: the backend has no full-text search, so the store keeps a `Bm25Index` in memory,
 *    built on first use from the backend and updated on every write.
 * 3. Concurrency: a save is read-modify-write, so writes go through one queue; parallel saves
 *    never interleave and none is lost.
 *
 * Importance decays at read time (SPEC D7): the store hands its decay options to the draft
 * rules and browses by effective importance at its clock, as `browseMemory` does with them.
 */
export class KeyValueMemoryStore implements ILongTermMemory {
  private readonly backend: KeyValueBackend;
  private readonly prefix: string;
  private readonly clock: IClock;
  private readonly decay: DecayOptions;
  private cache: Map<string, MemoryEntry> | undefined;
  private loading: Promise<Map<string, MemoryEntry>> | undefined;
  private readonly index = new Bm25Index();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(options: KeyValueMemoryStoreOptions) {
    this.backend = options.backend;
    this.prefix = `${options.keyPrefix ?? ''}memory/`;
    this.clock = options.clock ?? systemClock;
    this.decay = resolveDecayOptions(options.decay);
  }

  async get(id: string): Promise<MemoryEntry | undefined> {
    assertOpen(this.closed, 'memory store');
    assertValidId(id);
    const entry = (await this.entries()).get(id);
    return entry && structuredClone(entry);
  }

  save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry> {
    return this.write(async (entries) => {
      const entry = resolveMemoryDraft(draft, (id) => entries.get(id), this.clock, condition, this.decay);
      await this.backend.set(this.prefix + entry.id, JSON.stringify(entry));
      entries.set(entry.id, entry);
      indexMemoryEntry(this.index, entry);
      return structuredClone(entry);
    });
  }

  delete(id: string, condition?: WriteCondition): Promise<boolean> {
    return this.write(async (entries) => {
      assertValidId(id);
      const existing = entries.get(id);
      checkCondition(`Memory entry ${id}`, existing, condition);
      if (!existing) return false;
      await this.backend.delete(this.prefix + id);
      entries.delete(id);
      this.index.delete(id);
      return true;
    });
  }

  async search(query: MemorySearchQuery): Promise<MemorySearchResult[]> {
    assertOpen(this.closed, 'memory store');
    // Validates, and turns the filters and the validity view (SPEC B9: what holds now, or at asOf) into a predicate.
    const parsed = parseMemoryQuery(query, this.clock.now());
    const entries = await this.entries();
    if (parsed.text === undefined) return browseMemory(entries.values(), parsed, { now: parsed.validity.now, decay: this.decay });
    return this.index
      .search(parsed.text, { filter: parsed.filterOf((id) => entries.get(id)), limit: parsed.maxResults })
      .map((hit) => ({ entry: structuredClone(entries.get(hit.id)!), score: hit.score }));
  }

  async list(options: { category?: string } = {}): Promise<MemoryEntry[]> {
    assertOpen(this.closed, 'memory store');
    const category = options.category === undefined ? undefined : validateCategory(options.category);
    return [...(await this.entries()).values()]
      .filter((entry) => category === undefined || isUnderPrefix(entry.category, category))
      .sort(byCreation)
      .map((entry) => structuredClone(entry));
  }

  async listCategories(): Promise<CategoryCount[]> {
    assertOpen(this.closed, 'memory store');
    const counts = new Map<string, number>();
    for (const entry of (await this.entries()).values()) counts.set(entry.category, (counts.get(entry.category) ?? 0) + 1);
    return [...counts].map(([category, count]) => ({ category, count })).sort((a, b) => a.category.localeCompare(b.category));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue.catch(() => undefined);
    this.closed = true;
  }

  /** Runs writes one at a time; a failed write rejects its caller and does not block the next. */
  private write<T>(operation: (entries: Map<string, MemoryEntry>) => Promise<T>): Promise<T> {
    assertOpen(this.closed, 'memory store');
    const run = this.queue.then(async () => operation(await this.entries()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Loads every entry once (validating each one) and builds the index. */
  private entries(): Promise<Map<string, MemoryEntry>> {
    if (this.cache) return Promise.resolve(this.cache);
    this.loading ??= (async () => {
      const entries = new Map<string, MemoryEntry>();
      for (const key of await this.backend.keys(this.prefix)) {
        const raw = await this.backend.get(key);
        if (raw === undefined) continue;
        const entry = parseRecord(memoryEntrySchema, JSON.parse(raw), `memory entry at ${key}`);
        entries.set(entry.id, entry);
        indexMemoryEntry(this.index, entry);
      }
      this.cache = entries;
      return entries;
    })();
    return this.loading;
  }
}
