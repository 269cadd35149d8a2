// Over 400 lines on purpose: the store is the one coordinator of the hot collection, its index and snapshot, hybrid recall
// and the cold tier (SPEC B13); the cold tier's folder and index live in cold-tier.ts, the collection's modules in fs/.
import { join } from 'node:path';
import {
  assertOpen,
  assertValidId,
  browseMemory,
  Bm25Index,
  byCreation,
  type CategoryCount,
  checkCondition,
  copyMemoryEntry,
  type DecayOptions,
  type IClock,
  type ILogger,
  type ILongTermMemory,
  isUnderPrefix,
  type MemoryDraft,
  type MemoryEntry,
  indexMemoryEntry,
  memoryDocumentText,
  memoryPassageTexts,
  parseMemoryQuery,
  type MemorySearchQuery,
  type MemorySearchResult,
  resolveDecayOptions,
  resolveMemoryDraft,
  silentLogger,
  systemClock,
  validateCategory,
  hasValidityBounds,
  indexNeighbourIds,
  indexNeighbours,
  type MemoryChangePage,
  type MemoryChangeQuery,
  type MemoryNeighbourQuery,
  ReverieValidationError,
  type Thesaurus,
  type WriteCondition,
  type HybridRecallOptions,
  inTier,
  type MemoryListOptions,
  type MemoryTier,
  type ParsedMemoryQuery,
  parseListTier,
  searchTiers,
} from '@reverie/core';
import {
  BM25_INDEX_FORMAT,
  caseCollision,
  formatChangeCursor,
  parseChangeQuery,
  mergeHitLists,
  notedWithin,
  queryCues,
  rerankMemoryHits,
  rerankPool,
} from '@reverie/core/internal';
import { z } from 'zod';
import type { VectorSearchOptions } from '../embeddings/vector-search-options';
import { type HybridSearch, hybridSearchOf } from '../embeddings/hybrid-search';
import { JsonDocumentCollection } from '../fs/json-document-collection';
import type { RecordReader, SnapshotRecords } from '../fs/record-map';
import type { DecodedSection, SnapshotSection } from '../fs/snapshot-file';
import { validateStoreOptions } from '../options/validate-store-options';
import { checkIndexable, ColdTier, countCategory, memoryEntryLayout } from './cold-tier';

export interface FileMemoryStoreOptions extends HybridRecallOptions, VectorSearchOptions {
  /** The agent's data directory; entries live in `<dataPath>/memory/<category>/<id>.json`. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
  /** SPEC D7: how importance fades, applied when browsing (default graceDays 30, halfLifeDays 45, floor 0.1). */
  decay?: Partial<DecayOptions>;
  /**
   * Also match the synonyms of a query's words that this thesaurus gives, below the words' own
   * forms (`SYNONYM_WEIGHT`), e.g. `await loadWordNetThesaurus()` of `reverie` (default none).
   */
  synonyms?: Thesaurus;
}

const memoryStoreOptionsSchema = z
  .object({
    synonyms: z.custom<Thesaurus>((value) => typeof value === 'function', 'must be a function from a word to its synonyms').optional(),
  })
  .loose();

/**
 * The snapshot's format: the entry records as `memoryEntrySchema` reads them, the category
 * counts, the ids of the entries with validity bounds (SPEC B9) and the BM25 state. Change the
 * first part whenever the entry schema or the sections change; a snapshot of another version is
 * ignored and rewritten.
 */
const SNAPSHOT_VERSION = `memory-entries/7 ${BM25_INDEX_FORMAT}`;

/**
 * The default `ILongTermMemory` (SPEC M1–M4): one JSON file per entry under
 * `<dataPath>/memory/<category>/<id>.json`, a BM25 index built on first use and kept in sync on
 * every write, optional hybrid recall with cached embeddings, safe for several processes on one
 * data directory. Unreadable files are moved to `memory/.quarantine/` with a warning.
 *
 * SPEC B13: cold entries live apart, in `<dataPath>/memory-cold/` with an index of their own
 * (`ColdTier`), read only when a caller reaches them; hybrid recall, the change feed and the
 * neighbour lists are the hot tier's. A move writes the entry into its new tier before removing
 * it from the old one, and an id the hot tier holds is hot: a crash between the two steps leaves
 * the entry where it was, with a stale copy the next move overwrites, never without it.
 */
export class FileMemoryStore implements ILongTermMemory {
  private readonly clock: IClock;
  private readonly logger: ILogger;
  private readonly collection: JsonDocumentCollection<MemoryEntry>;
  private readonly index = new Bm25Index();
  private readonly categories = new Map<string, number>();
  /** The ids of the entries with validity bounds (SPEC B9): the only ones current recall must read to filter. */
  private readonly bounded = new Set<string>();
  private readonly hybrid: HybridSearch | undefined;
  private readonly decay: DecayOptions;
  private readonly synonyms: Thesaurus | undefined;
  private readonly cold: ColdTier;
  /** SPEC B13: this store keeps a cold tier. */
  readonly tiers = true;
  private closed = false;

  constructor(options: FileMemoryStoreOptions) {
    const valid = validateStoreOptions(options, 'FileMemoryStore', memoryStoreOptionsSchema);
    this.synonyms = options.synonyms;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.decay = resolveDecayOptions(valid.decay);
    const root = join(valid.dataPath, 'memory');
    this.cold = new ColdTier(valid.dataPath, this.clock, this.logger);
    this.hybrid = hybridSearchOf(valid, join(root, '.embeddings'), this.logger);
    this.collection = new JsonDocumentCollection<MemoryEntry>({
      root,
      clock: this.clock,
      logger: this.logger,
      layout: memoryEntryLayout('memory entry'),
      listener: {
        check: (entry) => checkIndexable(this.index, entry),
        onPut: (entry, previous) => {
          // Indexed first: when the text cannot be, nothing has changed.
          indexMemoryEntry(this.index, entry);
          if (previous) countCategory(this.categories, previous.category, -1);
          countCategory(this.categories, entry.category, +1);
          if (hasValidityBounds(entry)) this.bounded.add(entry.id);
          else this.bounded.delete(entry.id);
          this.hybrid?.want(entry.id, memoryDocumentText(entry));
        },
        onDelete: (entry) => {
          countCategory(this.categories, entry.category, -1);
          this.bounded.delete(entry.id);
          this.index.delete(entry.id);
          this.hybrid?.forget(entry.id);
        },
      },
      snapshot: {
        version: SNAPSHOT_VERSION,
        capture: () => this.captureIndex(),
        restore: (entries, sections) => this.restoreIndex(entries, sections),
      },
    });
  }

  async get(id: string): Promise<MemoryEntry | undefined> {
    this.assertOpen();
    assertValidId(id);
    const entry = (await this.entries()).get(id) ?? (await this.cold.entries()).get(id);
    return entry && copyMemoryEntry(entry);
  }

  async save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry> {
    this.assertOpen();
    // Validate before queueing, so bad input fails fast and nothing touches the disk.
    const probe = resolveMemoryDraft(draft, () => undefined, this.clock);
    const id = draft.id ?? probe.id;
    const hot = await this.entries();
    // An id the hot tier holds is hot; only a draft naming another id can concern the cold tier (SPEC B13).
    const coldCurrent = draft.id === undefined || hot.has(id) ? undefined : (await this.cold.entries()).get(id);
    const from: MemoryTier = coldCurrent ? 'cold' : 'hot';
    const to: MemoryTier = probe.tier === 'cold' || (from === 'cold' && draft.tier === undefined) ? 'cold' : 'hot';
    const resolve = (current: MemoryEntry | undefined, categories: ReadonlyMap<string, number>) => {
      const entry = resolveMemoryDraft({ ...draft, id }, () => current, this.clock, condition, this.decay);
      // Under the lock, with every process's entries loaded: the check cannot race another writer.
      if (!categories.has(entry.category)) {
        const others = [...categories]
          .filter(([category, count]) => !(count === 1 && category === current?.category))
          .map(([category]) => category);
        assertNoCaseClash(entry.category, others);
      }
      return entry;
    };
    let saved: MemoryEntry;
    if (from === 'hot' && to === 'hot') saved = await this.collection.put(id, (current) => resolve(current, this.categories));
    else if (from === 'cold' && to === 'cold') saved = await this.cold.put(id, (current) => resolve(current, this.cold.categories));
    else if (to === 'cold') {
      // Hot to cold: written cold first, then removed from the hot tier (a crash in between leaves it hot).
      const current = hot.get(id);
      saved = await this.cold.put(id, () => resolve(current, this.cold.categories));
      if (current) await this.collection.delete(id);
    } else {
      // Cold to hot: written hot first (the hot copy wins from then on), then removed from the cold tier.
      saved = await this.collection.put(id, () => resolve(coldCurrent, this.categories));
      await this.cold.delete(id);
    }
    return copyMemoryEntry(saved);
  }

  async delete(id: string, condition?: WriteCondition): Promise<boolean> {
    this.assertOpen();
    assertValidId(id);
    const check = (current: MemoryEntry | undefined) => checkCondition(`Memory entry ${id}`, current, condition);
    if ((await this.entries()).has(id)) return this.collection.delete(id, check);
    return this.cold.delete(id, check);
  }

  async search(query: MemorySearchQuery): Promise<MemorySearchResult[]> {
    this.assertOpen();
    const parsed = parseMemoryQuery(query, this.clock.now());
    return searchTiers(parsed.tiers, parsed.maxResults, parsed.text, (tier, limit) =>
      tier === 'hot' ? this.searchHot(parsed, limit) : this.searchCold(parsed, limit),
    );
  }

  /** The hot tier's best `limit` entries: BM25 (hybrid when embeddings are configured), reranked. */
  private async searchHot(parsed: ParsedMemoryQuery, limit: number): Promise<MemorySearchResult[]> {
    const entries = await this.entries();
    const view = { ...parsed, maxResults: limit };
    if (parsed.text === undefined) return browseMemory(entries.values(), view, { now: parsed.validity.now, decay: this.decay });
    const filter = parsed.filterOf((id) => entries.get(id), this.bounded);
    const { text } = parsed;
    const synonyms = this.synonyms ? { synonyms: this.synonyms } : {};
    const cues = queryCues(text);

    const queryVector = await this.hybrid?.queryVector(text);
    const accept = (id: string) => entries.has(id) && (filter === undefined || filter(id));
    // The text ranking's best, and its best among the entries noted within the periods the query names.
    const dated = cues.periods.length === 0 ? undefined : (id: string) => accept(id) && notedWithin(entries.get(id)!, cues.periods);
    const bm25 = (size: number) => {
      const hits = this.index.search(text, { ...(filter ? { filter } : {}), ...synonyms, limit: size });
      return dated ? mergeHitLists(hits, this.index.search(text, { filter: dated, ...synonyms, limit: size })) : hits;
    };
    const pool = rerankPool(limit, cues);
    const hits = this.hybrid ? this.hybrid.rank(queryVector, bm25, accept, limit, pool) : bm25(pool);
    return rerankMemoryHits(hits, cues, (id) => entries.get(id), limit).map((hit) => ({
      entry: copyMemoryEntry(entries.get(hit.id)!),
      score: hit.score,
    }));
  }

  /** The cold tier's best `limit` entries, by BM25 alone (no vectors are kept for cold entries). */
  private async searchCold(parsed: ParsedMemoryQuery, limit: number): Promise<MemorySearchResult[]> {
    const hot = await this.entries();
    const cold = await this.cold.entries();
    // A stale cold copy of an entry the hot tier holds (a move a crash interrupted) is not the entry.
    const live = (id: string) => cold.has(id) && !hot.has(id);
    const view = { ...parsed, maxResults: limit };
    if (parsed.text === undefined) {
      const entries = [...cold.values()].filter((entry) => live(entry.id));
      return browseMemory(entries, view, { now: parsed.validity.now, decay: this.decay });
    }
    const matches = parsed.filterOf((id) => cold.get(id));
    const filter = (id: string) => live(id) && (matches === undefined || matches(id));
    const cues = queryCues(parsed.text);
    const synonyms = this.synonyms ? { synonyms: this.synonyms } : {};
    const hits = this.cold.index.search(parsed.text, { filter, ...synonyms, limit: rerankPool(limit, cues) });
    return rerankMemoryHits(hits, cues, (id) => cold.get(id), limit).map((hit) => ({
      entry: copyMemoryEntry(cold.get(hit.id)!),
      score: hit.score,
    }));
  }

  async list(options: MemoryListOptions = {}): Promise<MemoryEntry[]> {
    this.assertOpen();
    const category = options.category === undefined ? undefined : validateCategory(options.category);
    const tier = parseListTier(options.tier);
    const hot = await this.entries();
    const entries = tier === 'cold' ? [] : [...hot.values()];
    if (tier !== 'hot') for (const entry of (await this.cold.entries()).values()) if (!hot.has(entry.id)) entries.push(entry);
    return entries
      .filter((entry) => (category === undefined || isUnderPrefix(entry.category, category)) && inTier(entry, tier))
      .sort(byCreation)
      .map((entry) => copyMemoryEntry(entry));
  }

  async listCategories(): Promise<CategoryCount[]> {
    this.assertOpen();
    await this.entries();
    await this.cold.entries();
    const counts = new Map(this.categories);
    for (const [category, count] of this.cold.categories) counts.set(category, (counts.get(category) ?? 0) + count);
    return [...counts.entries()]
      .map(([category, count]) => ({ category, count }))
      .sort((a, b) => (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
  }

  /**
   * SPEC B12: what changed since a cursor, read from the change journal every process appends
   * to (`memory/.changes.jsonl`). The journal is compacted past 8 MiB; a cursor from before the
   * last compaction is answered with `reset`.
   */
  async changes(query?: MemoryChangeQuery): Promise<MemoryChangePage> {
    this.assertOpen();
    const { since, limit } = parseChangeQuery(query);
    const page = await this.collection.changesSince(since, limit);
    return {
      changes: page.changes.map((change) => ({
        id: change.key,
        op: change.op === 'put' ? 'save' : 'delete',
        cursor: formatChangeCursor({ epoch: page.epoch, seq: change.seq }),
      })),
      cursor: formatChangeCursor({ epoch: page.epoch, seq: page.through }),
      more: page.more,
      reset: page.reset,
    };
  }

  /** SPEC B12: each entry's BM25 neighbours in the store's own index (no listing, no re-indexing). */
  async neighbours(ids: readonly string[], query?: MemoryNeighbourQuery) {
    return this.askNeighbours(ids, (entryOf, holds) => indexNeighbours(this.index, entryOf, ids, query, holds));
  }

  /** SPEC B12: `neighbours()` as ids and scores, without copying the neighbouring entries. */
  async neighbourIds(ids: readonly string[], query?: MemoryNeighbourQuery) {
    return this.askNeighbours(ids, (entryOf, holds) => indexNeighbourIds(this.index, entryOf, ids, query, holds));
  }

  /** Asks the index about `ids`: only the facts that hold now are neighbours (SPEC B9). */
  private async askNeighbours<T>(
    ids: readonly string[],
    answer: (entryOf: (id: string) => MemoryEntry | undefined, holds: ((id: string) => boolean) | undefined) => T,
  ): Promise<T> {
    this.assertOpen();
    ids.forEach(assertValidId);
    const entries = await this.entries();
    const entryOf = (id: string) => entries.get(id);
    return answer(entryOf, parseMemoryQuery({}, this.clock.now()).filterOf(entryOf, this.bounded));
  }

  /**
   * Waits until every document saved so far has its vector (for tests and tools); with `index:
   * true`, also until the vector index holds them (see docs/file-store.md, "The vector index").
   */
  async flushEmbeddings(options: { index?: boolean } = {}): Promise<void> {
    await this.entries();
    await (options.index ? this.hybrid?.settleIndex() : this.hybrid?.flush());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.collection.close();
    await this.cold.close();
    await this.hybrid?.close();
  }

  /** The category counts and the BM25 state as snapshot sections (see `docs/file-store.md`, "The snapshot"). */
  private captureIndex(): Map<string, SnapshotSection> {
    const state = this.index.exportState();
    return new Map<string, SnapshotSection>([
      ['memory.categories', { kind: 'json', value: [...this.categories] }],
      ['memory.bounded', { kind: 'json', value: [...this.bounded] }],
      ['bm25.ids', { kind: 'json', value: state.ids }],
      ['bm25.passage', { kind: 'bytes', value: state.passage }],
      ['bm25.vocabulary', { kind: 'json', value: state.vocabulary }],
      ['bm25.lengths', { kind: 'u32', value: state.lengths }],
      ['bm25.offsets', { kind: 'u32', value: state.offsets }],
      ['bm25.docs', { kind: 'u32', value: state.docs }],
      ['bm25.freqs', { kind: 'u32', value: state.freqs }],
    ]);
  }

  /**
   * Sets the category counts and imports the BM25 state for the entries of a snapshot, without
   * parsing them: the index asks for an entry's text only when the entry is replaced or deleted
   * (after the collection holds the new version), and `entries` gives it as the snapshot holds it.
   */
  private restoreIndex(entries: SnapshotRecords<MemoryEntry>, sections: ReadonlyMap<string, DecodedSection>): void {
    const json = (name: string): unknown => {
      const section = sections.get(name);
      if (section?.kind !== 'json') throw new Error(`no ${name} section`);
      return JSON.parse(section.text);
    };
    const numbers = (name: string): Uint32Array => {
      const section = sections.get(name);
      if (section?.kind !== 'u32') throw new Error(`no ${name} section`);
      return section.value;
    };
    const ids = json('bm25.ids') as string[];
    const passage = sections.get('bm25.passage');
    if (passage?.kind !== 'bytes') throw new Error('no bm25.passage section');
    if (
      !Array.isArray(ids) ||
      passage.value.length !== ids.length ||
      ids.length - passage.value.reduce((sum, flag) => sum + flag, 0) !== entries.size
    )
      throw new Error('the index does not cover the entries');
    for (const id of ids) if (!entries.has(id)) throw new Error(`the index holds ${id}, which is not an entry`);
    const categories = json('memory.categories') as Array<[string, number]>;
    if (
      !Array.isArray(categories) ||
      categories.reduce((sum, [, count]) => sum + count, 0) !== entries.size ||
      !categories.every(([, count]) => Number.isInteger(count) && count > 0)
    ) {
      throw new Error('the category counts do not add up to the entries');
    }
    const bounded = json('memory.bounded') as string[];
    if (!Array.isArray(bounded) || !bounded.every((id) => entries.has(id))) throw new Error('the bounded ids are not entries');
    this.index.importState(
      {
        ids,
        passage: passage.value,
        vocabulary: json('bm25.vocabulary') as string[],
        lengths: numbers('bm25.lengths'),
        offsets: numbers('bm25.offsets'),
        docs: numbers('bm25.docs'),
        freqs: numbers('bm25.freqs'),
      },
      (id) => memoryDocumentText(entries.recordOf(id)!),
      (id) => memoryPassageTexts(entries.recordOf(id)!),
    );
    this.categories.clear();
    for (const [category, count] of categories) this.categories.set(category, count);
    this.bounded.clear();
    for (const id of bounded) this.bounded.add(id);
  }

  private assertOpen(): void {
    assertOpen(this.closed, 'memory store');
  }

  private async entries(): Promise<RecordReader<MemoryEntry>> {
    const entries = await this.collection.current();
    this.hybrid?.loadCache(() => new Map([...entries.values()].map((entry) => [entry.id, memoryDocumentText(entry)])));
    return entries;
  }
}

/** Categories are unique without regard to case: on macOS and Windows `Work/` and `work/` are one folder. */
function assertNoCaseClash(category: string, existing: Iterable<string>): void {
  const clash = caseCollision(category, existing);
  if (clash === undefined) return;
  throw new ReverieValidationError(
    'INVALID_CATEGORY',
    `Invalid category ${JSON.stringify(category)}: it differs only in case from the existing "${clash}", and the two would be one folder on macOS and Windows. Use "${clash}" as written.`,
    { details: { value: category, clash } },
  );
}
