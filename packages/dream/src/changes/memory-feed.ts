import {
  hasChangeFeed,
  type ILogger,
  type ILongTermMemory,
  type IMemoryChangeFeed,
  isUnderPrefix,
  type MemoryEntry,
  tierOf,
} from '@reverie/core';
import { SYSTEM_CATEGORY } from '@reverie/core/internal';

export type FeedStore = ILongTermMemory & IMemoryChangeFeed;

const warned = new WeakSet<object>();

/**
 * The store's change feed (SPEC B12), or undefined when it has none. A store without one still
 * works — the passes list every entry instead — and the first pass to notice says so, once per
 * store.
 */
export function changeFeedOf(memory: ILongTermMemory, logger: ILogger): FeedStore | undefined {
  if (hasChangeFeed(memory)) return memory;
  if (!warned.has(memory)) {
    warned.add(memory);
    logger.warn(
      'This memory store has no change feed (changes() and neighbours()): the dream passes list every entry each cycle, so a cycle costs in proportion to the whole memory. Implement IMemoryChangeFeed to make it cost what changed.',
      { store: memory.constructor?.name ?? 'unknown' },
    );
  }
  return undefined;
}

/**
 * The same store without its change feed: only the methods every `ILongTermMemory` has. What a
 * custom store written before the feed looks like — for tests of the listing path, and as the
 * baseline `bench:dream` measures the feed against.
 */
export function withoutChangeFeed(store: ILongTermMemory): ILongTermMemory {
  return {
    get: (id) => store.get(id),
    save: (draft, condition) => store.save(draft, condition),
    delete: (id, condition) => store.delete(id, condition),
    search: (query) => store.search(query),
    list: (options) => store.list(options),
    listCategories: () => store.listCategories(),
    close: () => store.close(),
  };
}

/** Changes read from a feed: the live entries saved since the cursor (as they are now) and the ids deleted. */
export interface FeedRead {
  reset: false;
  /** Entries saved since the cursor and still live and hot (SPEC B13), outside `_system`, that `accept` took, in feed order. */
  saved: MemoryEntry[];
  /** Ids deleted since the cursor (and not saved again after). */
  deleted: string[];
  /** Where the next read starts: after the last change consumed. */
  cursor: string;
  /** Changes read. */
  read: number;
  /** True when reading stopped at `maxSaved` with changes still unread. */
  more: boolean;
}

/** The feed cannot say what changed since the cursor (or there was none): list everything, then go on from `head`. */
export interface FeedReset {
  reset: true;
  head: string;
}

/**
 * Reads a change feed from `since`, page by page, and fetches each saved entry once. Saves that
 * `accept` refuses (a rewrite that is not a change worth reviewing) are consumed and skipped.
 * Stops before the change that would take more than `maxSaved` entries, so what is left stays
 * in the feed for the next run. Cost: the changes read plus one `get` per distinct saved id.
 */
export async function readFeed(
  store: FeedStore,
  since: string | undefined,
  options: { maxSaved: number; accept?: (entry: MemoryEntry) => boolean; signal?: AbortSignal },
): Promise<FeedRead | FeedReset> {
  if (since === undefined) return { reset: true, head: (await store.changes()).cursor };
  const saved = new Map<string, MemoryEntry>();
  const deleted = new Set<string>();
  const looked = new Set<string>();
  let cursor = since;
  let read = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const page = await store.changes({ since: cursor });
    if (page.reset) return { reset: true, head: page.cursor };
    for (const change of page.changes) {
      if (change.op === 'delete') {
        saved.delete(change.id);
        looked.delete(change.id);
        deleted.add(change.id);
      } else if (!looked.has(change.id)) {
        const entry = await store.get(change.id);
        // Gone again: the delete comes later in the feed.
        if (entry) deleted.delete(entry.id);
        if (entry && tierOf(entry) === 'hot' && !isUnderPrefix(entry.category, SYSTEM_CATEGORY) && (options.accept?.(entry) ?? true)) {
          if (saved.size >= options.maxSaved)
            return { reset: false, saved: [...saved.values()], deleted: [...deleted], cursor, read, more: true };
          saved.set(entry.id, entry);
        }
        looked.add(change.id);
      }
      cursor = change.cursor;
      read += 1;
    }
    if (!page.more) return { reset: false, saved: [...saved.values()], deleted: [...deleted], cursor: page.cursor, read, more: false };
  }
}
