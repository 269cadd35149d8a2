import { holdsNow, type ILogger, type ILongTermMemory, isUnderPrefix, type MemoryEntry, tierOf } from '@reverie/core';
import { SYSTEM_CATEGORY } from '@reverie/core/internal';
import { changeFeedOf, readFeed } from '../../changes/memory-feed';
import { hitsOf, StoreNeighbours } from '../../review/store-neighbours';
import { comparePositions, entryPosition } from './consolidation-cursor';

/** The entries one consolidation run reasons about, and how it found them. */
export interface WorkingSet {
  /** Live entries outside `_system` to build items over, oldest `createdAt` first. */
  entries: MemoryEntry[];
  /** Entries changed since the cursor, in position order (a subset of `entries`). */
  changed: MemoryEntry[];
  /** The change-feed cursor to keep once the run is applied (absent without a feed). */
  feedCursor?: string;
  /** True for an id that is still live as far as this run knows. */
  isLive(id: string): boolean;
  /** Every live id, when the run listed them all (to forget the rest); undefined with a feed. */
  live?: ReadonlySet<string>;
  /** Ids the feed reported deleted. */
  gone: ReadonlySet<string>;
  /** True when changes were left unread for the next run. */
  more: boolean;
  notes: string[];
  /**
   * With a store that has a change feed, also when this run listed every entry: the neighbours
   * the store found so far, so a caller asks it for more instead of indexing the entries again.
   */
  feed?: StoreNeighbours;
}

export interface WorkingSetRequest {
  memory: ILongTermMemory;
  logger: ILogger;
  /** Where the feed was left by the last applied run (undefined: list everything). */
  since: string | undefined;
  /** Whether the feed may be used (false for the `full` strategy, which is the baseline). */
  useFeed: boolean;
  /** Takes an entry as a change worth reviewing; `byPosition` is false when the feed said it changed. */
  accept(entry: MemoryEntry, byPosition: boolean): boolean;
  /**
   * The entry as the run sees it (the pass: its importance decayed to now). `entries` and
   * `changed` hold these views only, so a run over every entry keeps one object per entry.
   */
  view(entry: MemoryEntry): MemoryEntry;
  /** At most this many changed entries are taken from the feed in one run. */
  maxChanged: number;
  /** Ids to bring in besides the changes (retries due), and texts whose matches to bring in (corrections). */
  extraIds: readonly string[];
  extraTexts: readonly string[];
  /** The run's clock: only the facts that hold now are consolidated (SPEC B9). */
  now: Date;
  /** Neighbours fetched per changed entry and per extra text (what clustering uses). */
  neighbours: number;
  signal?: AbortSignal;
}

const isSystem = (entry: MemoryEntry) => isUnderPrefix(entry.category, SYSTEM_CATEGORY);

/** The order of `byCreation`, each timestamp parsed once instead of at every comparison. */
function inCreationOrder(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return entries
    .map((entry) => ({ entry, at: Date.parse(entry.createdAt) }))
    .sort((a, b) => a.at - b.at || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0))
    .map(({ entry }) => entry);
}
const byPosition = (a: MemoryEntry, b: MemoryEntry) => comparePositions(entryPosition(a), entryPosition(b));

/**
 * SPEC B1, B12: what a run looks at. With a change feed and a cursor from an earlier run, only
 * the entries saved since, the retries due, their neighbours in the store's own index and the
 * matches of correction texts: cost in proportion to what changed. Otherwise (no feed, the first
 * run, a feed that was reset, the `full` strategy) every entry, as listed by the store; the
 * feed's head is taken before listing, so the next run reads on from there.
 */
export async function loadWorkingSet(request: WorkingSetRequest): Promise<WorkingSet> {
  // Superseded and ended facts are history (SPEC B9): never merged, rewritten or replaced again.
  const now = request.now.getTime();
  // Cold entries are out of the working set (SPEC B13): a cycle costs in proportion to the hot set.
  const isMemory = (entry: MemoryEntry) => !isSystem(entry) && holdsNow(entry, now) && tierOf(entry) === 'hot';
  const feed = request.useFeed ? changeFeedOf(request.memory, request.logger) : undefined;
  let head: string | undefined;
  let resetNote: string | undefined;
  if (feed) {
    const read = await readFeed(feed, request.since, {
      maxSaved: request.maxChanged,
      accept: (entry) => request.accept(entry, false),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    if (!read.reset) {
      const found = new Map(read.saved.map((entry) => [entry.id, entry]));
      for (const id of request.extraIds) {
        if (found.has(id) || read.deleted.includes(id)) continue;
        const entry = await request.memory.get(id);
        if (entry && isMemory(entry)) found.set(id, entry);
      }
      const limit = Math.min(100, Math.max(1, request.neighbours));
      const neighbours = new StoreNeighbours(feed);
      const asked = [...found.keys()];
      const around = await feed.neighbours(asked, { limit });
      for (const id of asked) neighbours.record(id, hitsOf(around.get(id) ?? []), limit);
      for (const hits of around.values())
        for (const { entry } of hits) if (isMemory(entry) && !found.has(entry.id)) found.set(entry.id, entry);
      for (const text of request.extraTexts) {
        for (const { entry } of await request.memory.search({ text, maxResults: limit, tiers: 'hot' }))
          if (isMemory(entry) && !found.has(entry.id)) found.set(entry.id, entry);
      }
      const gone = new Set(read.deleted);
      const notes = [
        `change feed: ${read.read} change(s) read, ${read.saved.length} entr(y/ies) changed, ${gone.size} deleted; ${found.size} entries looked at`,
      ];
      if (read.more) notes.push('more changes wait in the feed for the next run');
      const viewed = new Map([...found].map(([id, entry]) => [id, request.view(entry)]));
      return {
        entries: inCreationOrder([...viewed.values()]),
        changed: read.saved.map((entry) => viewed.get(entry.id)!).sort(byPosition),
        feedCursor: read.cursor,
        isLive: (id) => !gone.has(id),
        gone,
        more: read.more,
        notes,
        feed: neighbours,
      };
    }
    head = read.head;
    resetNote =
      request.since === undefined
        ? 'change feed: first run, every entry listed'
        : 'change feed: the store could not say what changed since the cursor (history compacted or another store): every entry listed';
  }
  const entries = (await request.memory.list({ tier: 'hot' })).filter(isMemory).map(request.view);
  const live = new Set(entries.map((entry) => entry.id));
  const changed = entries.filter((entry) => request.accept(entry, true)).sort(byPosition);
  // Changes left for later runs are found by listing again: the feed starts once the backlog is done.
  const done = changed.length <= request.maxChanged;
  return {
    entries,
    changed,
    ...(head !== undefined && done ? { feedCursor: head } : {}),
    isLive: (id) => live.has(id),
    live,
    gone: new Set(),
    more: false,
    notes: resetNote ? [resetNote] : [],
    ...(feed ? { feed: new StoreNeighbours(feed) } : {}),
  };
}
