import { copyMemoryEntry } from '../memory/copy-memory-entry';
import { assertValidId } from '../ids/new-id';
import type { ILongTermMemory, WriteCondition } from '../interfaces/long-term-memory';
import type { MemoryChangePage, MemoryChangeQuery, MemoryNeighbourQuery } from '../interfaces/memory-change-feed';
import { ChangeLog } from '../changes/change-log';
import { indexNeighbourIds, indexNeighbours } from '../changes/index-neighbours';
import type { IClock } from '../interfaces/clock';
import {
  type CategoryCount,
  type MemoryDraft,
  type MemoryEntry,
  type MemoryListOptions,
  type MemorySearchQuery,
  type MemorySearchResult,
  type MemoryTier,
} from '../schemas/memory-entry';
import { inTier, searchTiers, tierOf } from '../memory/memory-tiers';
import { byCreation } from '../memory/memory-order';
import { browseMemory, type ParsedMemoryQuery, parseMemoryQuery } from '../memory/memory-query';
import { parseListTier } from '../memory/memory-tiers';
import { resolveMemoryDraft } from '../memory/resolve-memory-draft';
import { Bm25Index } from '../search/bm25-index';
import { indexMemoryEntry, memoryDocumentText } from '../search/memory-document-text';
import { queryCues } from '../search/query-cues';
import { notedWithin } from '../search/query-periods';
import { mergeHitLists, rerankMemoryHits, rerankPool } from '../search/rerank-memory-hits';
import { systemClock } from '../time/system-clock';
import { isUnderPrefix, validateCategory } from '../validation/path-name';
import { assertOpen, checkCondition } from '../stores/write-condition';
import { type DecayOptions, resolveDecayOptions } from '../temporal/importance-decay';
import type { InMemoryStoreOptions } from './in-memory-store-options';

/** Options of `InMemoryLongTermMemory`. */
export interface InMemoryLongTermMemoryOptions extends InMemoryStoreOptions {
  /** SPEC D7: how importance fades, applied when browsing (default graceDays 30, halfLifeDays 45, floor 0.1). */
  decay?: Partial<DecayOptions>;
}

/**
 * The reference `ILongTermMemory`: entries in a Map, recall through the BM25 index of
 * `@reverie/core`. Nothing persists. Read it as the specification in code of what a store does
 * with a draft; custom stores follow the same rules and prove it with the conformance kit.
 */
export class InMemoryLongTermMemory implements ILongTermMemory {
  private readonly entries = new Map<string, MemoryEntry>();
  /** The hot entries' index (SPEC B13). Holds no text of its own: it asks for an entry's text (before the entry is changed or dropped). */
  private readonly index = new Bm25Index({ textOf: (id) => this.textOf(id) });
  /** The cold entries' index, apart so that hot recall and neighbours cost in proportion to the hot set. */
  private readonly coldIndex = new Bm25Index({ textOf: (id) => this.textOf(id) });
  /** SPEC B13: this store keeps a cold tier. */
  readonly tiers = true;
  private readonly log = new ChangeLog();
  private readonly clock: IClock;
  private readonly decay: DecayOptions;
  private closed = false;

  constructor(options: InMemoryLongTermMemoryOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.decay = resolveDecayOptions(options.decay);
  }

  async get(id: string): Promise<MemoryEntry | undefined> {
    assertOpen(this.closed, 'memory store');
    assertValidId(id);
    const entry = this.entries.get(id);
    return entry && copyMemoryEntry(entry);
  }

  async save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry> {
    assertOpen(this.closed, 'memory store');
    const entry = resolveMemoryDraft(draft, (id) => this.entries.get(id), this.clock, condition, this.decay);
    const previous = this.entries.get(entry.id);
    if (previous && tierOf(previous) !== tierOf(entry)) this.indexOf(tierOf(previous)).delete(entry.id);
    indexMemoryEntry(this.indexOf(tierOf(entry)), entry);
    this.entries.set(entry.id, entry);
    this.log.record(entry.id, 'save');
    return copyMemoryEntry(entry);
  }

  async delete(id: string, condition?: WriteCondition): Promise<boolean> {
    assertOpen(this.closed, 'memory store');
    assertValidId(id);
    const current = this.entries.get(id);
    checkCondition(`Memory entry ${id}`, current, condition);
    if (!current) return false;
    this.indexOf(tierOf(current)).delete(id);
    this.entries.delete(id);
    this.log.record(id, 'delete');
    return true;
  }

  async changes(query?: MemoryChangeQuery): Promise<MemoryChangePage> {
    assertOpen(this.closed, 'memory store');
    return this.log.changes(query);
  }

  async compactChanges(keep: readonly string[]) {
    assertOpen(this.closed, 'memory store');
    return this.log.compact(keep);
  }

  async neighbours(ids: readonly string[], query?: MemoryNeighbourQuery) {
    return this.askNeighbours(ids, (entryOf, holds) => indexNeighbours(this.index, entryOf, ids, query, holds));
  }

  async neighbourIds(ids: readonly string[], query?: MemoryNeighbourQuery) {
    return this.askNeighbours(ids, (entryOf, holds) => indexNeighbourIds(this.index, entryOf, ids, query, holds));
  }

  async search(query: MemorySearchQuery): Promise<MemorySearchResult[]> {
    assertOpen(this.closed, 'memory store');
    const parsed = parseMemoryQuery(query, this.clock.now());
    return searchTiers(parsed.tiers, parsed.maxResults, parsed.text, (tier, limit) => this.searchTier(parsed, tier, limit));
  }

  /** One tier's best `limit` entries for a parsed query. */
  private searchTier(parsed: ParsedMemoryQuery, tier: MemoryTier, limit: number): MemorySearchResult[] {
    const view = { ...parsed, maxResults: limit };
    if (parsed.text === undefined) {
      const entries = [...this.entries.values()].filter((entry) => tierOf(entry) === tier);
      return browseMemory(entries, view, { now: parsed.validity.now, decay: this.decay });
    }
    const { text } = parsed;
    const index = this.indexOf(tier);
    const filter = parsed.filterOf((id) => this.entries.get(id));
    const cues = queryCues(text);
    let hits = index.search(text, { filter, limit: rerankPool(limit, cues) });
    // Its best among the entries noted within the periods the query names, too (see rerankMemoryHits).
    if (cues.periods.length > 0) {
      const dated = (id: string) => (filter === undefined || filter(id)) && notedWithin(this.entries.get(id)!, cues.periods);
      hits = mergeHitLists(hits, index.search(text, { filter: dated, limit: rerankPool(limit, cues) }));
    }
    return rerankMemoryHits(hits, cues, (id) => this.entries.get(id), limit).map((hit) => ({
      entry: copyMemoryEntry(this.entries.get(hit.id)!),
      score: hit.score,
    }));
  }

  async list(options: MemoryListOptions = {}): Promise<MemoryEntry[]> {
    assertOpen(this.closed, 'memory store');
    const category = options.category === undefined ? undefined : validateCategory(options.category);
    const tier = parseListTier(options.tier);
    return [...this.entries.values()]
      .filter((entry) => (category === undefined || isUnderPrefix(entry.category, category)) && inTier(entry, tier))
      .sort(byCreation)
      .map((entry) => copyMemoryEntry(entry));
  }

  async listCategories(): Promise<CategoryCount[]> {
    assertOpen(this.closed, 'memory store');
    const counts = new Map<string, number>();
    for (const entry of this.entries.values()) counts.set(entry.category, (counts.get(entry.category) ?? 0) + 1);
    return [...counts.entries()]
      .map(([category, count]) => ({ category, count }))
      .sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  }

  /** `neighbours()` or `neighbourIds()` over the index: only the facts that hold now are neighbours (SPEC B9). */
  private askNeighbours<T>(
    ids: readonly string[],
    answer: (entryOf: (id: string) => MemoryEntry | undefined, holds: ((id: string) => boolean) | undefined) => T,
  ): T {
    assertOpen(this.closed, 'memory store');
    ids.forEach(assertValidId);
    const entryOf = (id: string) => this.entries.get(id);
    return answer(entryOf, parseMemoryQuery({}, this.clock.now()).filterOf(entryOf));
  }

  private indexOf(tier: MemoryTier): Bm25Index {
    return tier === 'cold' ? this.coldIndex : this.index;
  }

  /** The text the index holds for an entry, from the entry as stored. */
  private textOf(id: string): string | undefined {
    const entry = this.entries.get(id);
    return entry && memoryDocumentText(entry);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
