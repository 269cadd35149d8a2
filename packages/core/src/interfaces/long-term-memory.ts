import type { TimeInput } from '../schemas/common';
import type {
  CategoryCount,
  MemoryDraft,
  MemoryEntry,
  MemoryListOptions,
  MemorySearchQuery,
  MemorySearchResult,
} from '../schemas/memory-entry';
import type { IMemoryChangeFeed } from './memory-change-feed';

/** Optimistic-concurrency guard for writes (SPEC B3). */
export interface WriteCondition {
  /**
   * The `updatedAt` the caller last read. The write fails with a `CONFLICT` ReverieError when
   * the stored record's `updatedAt` differs. `null` means "only if it does not exist yet".
   */
  ifUpdatedAt?: TimeInput | null;
}

/**
 * SPEC M1–M4: the agent's long-term memory. Implementations validate every record with
 * `memoryEntrySchema` on write and read, and must pass `describeLongTermMemoryConformance`.
 */
export interface ILongTermMemory {
  /** The entry with this id, or undefined. An invalid id is an `INVALID_ID` error. */
  get(id: string): Promise<MemoryEntry | undefined>;
  /**
   * Inserts or replaces an entry (see `MemoryDraft` for the rules) and returns it as stored.
   * `updatedAt` is always stamped by the store. Invalid input throws and writes nothing.
   */
  save(draft: MemoryDraft, condition?: WriteCondition): Promise<MemoryEntry>;
  /** Removes the entry; false when it did not exist. */
  delete(id: string, condition?: WriteCondition): Promise<boolean>;
  /**
   * Ranked recall. With `text`: BM25 over content, tags and category (plus cosine similarity
   * when embeddings are configured), best first. Without `text`: entries by effective importance
   * (SPEC D7: decayed to the store's clock with its decay options, see `effectiveImportance`),
   * which is also the score, then most recently seen. Filters: category prefix, every tag. At
   * most `maxResults` (default 8). Tiers (SPEC B13): see `tiers` in the query and `searchTiers`;
   * a store without tiers holds every entry hot and may ignore it.
   */
  search(query: MemorySearchQuery): Promise<MemorySearchResult[]>;
  /** Every entry of both tiers (optionally under a category prefix, or of one tier), oldest `createdAt` first, then by id. */
  list(options?: MemoryListOptions): Promise<MemoryEntry[]>;
  /** Each category in use with its number of entries, sorted by category. */
  listCategories(): Promise<CategoryCount[]>;
  /** Finishes pending writes and background work, then releases resources. */
  close(): Promise<void>;
  /**
   * SPEC B13: true when the store keeps cold entries out of its hot index (a draft's `tier` is
   * stored and searches honour `tiers`). A store without it keeps every entry hot: the
   * `tier-migration` pass skips it and says so once.
   */
  readonly tiers?: boolean;
  /** Optional (SPEC B12): what changed since a cursor. See `IMemoryChangeFeed`. */
  changes?: IMemoryChangeFeed['changes'];
  /** Optional (SPEC B12): the most similar entries of each given entry. See `IMemoryChangeFeed`. */
  neighbours?: IMemoryChangeFeed['neighbours'];
  /** Optional (SPEC B12): forgets the changes every reader has passed. See `IMemoryChangeFeed`. */
  compactChanges?: IMemoryChangeFeed['compactChanges'];
  /** Optional (SPEC B12): `neighbours` as ids and scores, without entry copies. See `IMemoryChangeFeed`. */
  neighbourIds?: IMemoryChangeFeed['neighbourIds'];
}

/** True when the store implements the change feed (both `changes` and `neighbours`). */
export function hasChangeFeed(store: ILongTermMemory): store is ILongTermMemory & IMemoryChangeFeed {
  return typeof store.changes === 'function' && typeof store.neighbours === 'function';
}

/** SPEC B13: true when the store keeps a cold tier (see `ILongTermMemory.tiers`). */
export function hasTiers(store: ILongTermMemory): boolean {
  return store.tiers === true;
}
