import type { MemorySearchResult } from '../schemas/memory-entry';

/** One change in a memory store's change feed (SPEC B12). */
export interface MemoryChange {
  /** The entry that changed. */
  id: string;
  /** `save` for an insert or a replacement, `delete` for a removal. */
  op: 'save' | 'delete';
  /** The feed position just after this change: pass it as `since` to read what came after it. */
  cursor: string;
}

/** What `ILongTermMemory.changes` answers. */
export interface MemoryChangePage {
  /** Changes after `since`, oldest first, at most `limit`. An id appears once per change. */
  changes: MemoryChange[];
  /** The position after the last change returned (the head when there were none): the next `since`. */
  cursor: string;
  /** True when more changes follow `cursor` (the page was cut at `limit`). */
  more: boolean;
  /**
   * True when the store cannot tell what changed since `since`: none was given, it comes from
   * another store or an older history that was compacted away. `changes` is then empty and
   * `cursor` is the head: treat every entry as changed (list them), then read on from `cursor`.
   */
  reset: boolean;
}

export interface MemoryChangeQuery {
  /** A `cursor` from an earlier page. Omit it to get the head (with `reset: true`). */
  since?: string;
  /** At most this many changes (1–10,000, default 1,000). */
  limit?: number;
}

/** A neighbour as `IMemoryChangeFeed.neighbourIds` gives it: the entry's id and its relative score. */
export interface MemoryNeighbour {
  id: string;
  /** Relative to the best match of the same query, in (0, 1], as in `neighbours()`. */
  score: number;
}

export interface MemoryNeighbourQuery {
  /** At most this many neighbours per entry (1–100, default 8). */
  limit?: number;
}

/**
 * SPEC B12: the optional part of `ILongTermMemory` that lets the dream cycle cost what changed.
 * A store without it still works: the passes list every entry instead, and say so once.
 */
export interface IMemoryChangeFeed {
  /**
   * What changed since a cursor: saves and deletes in the order they happened, resumable, across
   * processes for a persistent store. Reading the feed changes nothing.
   */
  changes(query?: MemoryChangeQuery): Promise<MemoryChangePage>;
  /**
   * The entries most similar to each given entry (BM25 over the entry's content against content,
   * tags and category, as recall ranks them), best first, never the entry itself. Each `score`
   * is relative to the best match of the same query (usually the entry itself), in (0, 1], so
   * callers can apply one threshold whatever the store. Unknown ids are left out of the map.
   */
  neighbours(ids: readonly string[], query?: MemoryNeighbourQuery): Promise<Map<string, MemorySearchResult[]>>;
  /**
   * Optional: forgets the changes that every cursor of `keep` has read past, so that the feed
   * does not grow with every write forever. `keep` holds the cursors of the feed's readers (the
   * dream passes' cursors: the engine calls this after a successful cycle); the changes up to
   * the oldest of them that this feed wrote are removed, those after it stay. A cursor of another
   * store or history holds nothing back, and when `keep` has no cursor of this feed nothing is
   * removed. A reader whose cursor is older than what is kept gets `reset` from `changes()`
   * (list everything), never a page that skips a change. Returns how many changes were removed.
   */
  compactChanges?(keep: readonly string[]): Promise<{ removed: number }>;
  /**
   * Optional: the same answer as `neighbours()` — same neighbours, order and scores — as ids,
   * without a copy of each neighbouring entry. For callers that only need to know which entries
   * are close: a dream cycle over every entry asks about each of them, and copies of five
   * neighbours per entry would be half a million short-lived entries at 100k. Callers fall back
   * to `neighbours()` when a store leaves it out.
   */
  neighbourIds?(ids: readonly string[], query?: MemoryNeighbourQuery): Promise<Map<string, MemoryNeighbour[]>>;
}
