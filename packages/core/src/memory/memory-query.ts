import { copyMemoryEntry } from './copy-memory-entry';
import { parseDraft } from '../schemas/parse-record';
import { type MemoryEntry, type MemorySearchQuery, type MemorySearchTiers, memorySearchQuerySchema } from '../schemas/memory-entry';
import { type DecayOptions, effectiveImportanceAt } from '../temporal/importance-decay';
import { validityTest, type ValidityView } from '../temporal/validity';
import { isUnderPrefix, validateCategory } from '../validation/path-name';

export interface ParsedMemoryQuery {
  /** The query text, or undefined when the caller is browsing. */
  text: string | undefined;
  maxResults: number;
  /** The category-prefix filter, if any. */
  category: string | undefined;
  /** The every-tag filter, if any. */
  tags: string[] | undefined;
  /** Which facts the search sees (SPEC B9): those that hold now, or those that held at `asOf`. */
  validity: ValidityView;
  /** SPEC B13: which tiers it reads (see `searchTiers`). */
  tiers: MemorySearchTiers;
  /** True for entries that pass the category-prefix and every-tag filters and the validity view. */
  matches(entry: MemoryEntry): boolean;
  /**
   * The filter a store hands its index for this query, by id, or undefined when every entry
   * passes. `bounded`, when the store keeps it, holds the ids of the entries with validity
   * bounds: for current recall without other filters only those are read, so a memory without
   * bounds costs no filter at all. An as-of search reads every candidate (its `createdAt` counts).
   */
  filterOf(entryOf: (id: string) => MemoryEntry | undefined, bounded?: ReadonlySet<string>): ((id: string) => boolean) | undefined;
}

/**
 * Validates a memory search (INVALID_CATEGORY for a bad category filter, INVALID_INPUT for the
 * rest) and turns its filters and its validity view (SPEC B9, current at `now` unless `asOf`)
 * into a predicate, so every store filters the same way.
 */
export function parseMemoryQuery(query: MemorySearchQuery, now: Date): ParsedMemoryQuery {
  if (query?.category !== undefined) validateCategory(query.category);
  const { text, category, tags, maxResults, asOf, tiers } = parseDraft(memorySearchQuerySchema, query, 'memory search');
  const validity: ValidityView = { now, ...(asOf !== undefined ? { asOf: new Date(asOf) } : {}) };
  const valid = validityTest(validity);
  const filtered = category !== undefined || (tags !== undefined && tags.length > 0);
  const matches = (entry: MemoryEntry) =>
    (category === undefined || isUnderPrefix(entry.category, category)) &&
    (tags === undefined || tags.every((tag) => entry.tags.includes(tag))) &&
    valid(entry);
  return {
    text: text !== undefined && text.trim() !== '' ? text : undefined,
    maxResults,
    category,
    tags,
    validity,
    tiers,
    matches,
    filterOf(entryOf, bounded) {
      if (filtered || validity.asOf !== undefined || bounded === undefined) {
        return (id) => {
          const entry = entryOf(id);
          return entry !== undefined && matches(entry);
        };
      }
      if (bounded.size === 0) return undefined;
      return (id) => {
        if (!bounded.has(id)) return true;
        const entry = entryOf(id);
        return entry !== undefined && valid(entry);
      };
    },
  };
}

/** When browsing ranks by effective importance (SPEC D7): the store's clock and decay options. */
export interface BrowseDecay {
  now: Date;
  decay: DecayOptions;
}

/**
 * A search without text: matching entries by importance, then most recently seen, then id (the
 * order of `byImportanceThenRecency`). With `decay`, importance is the effective importance at
 * `decay.now` (SPEC D7), which is also the result's `score`; without it, the stored value. A
 * bounded top-k selection in one pass: an entry that cannot enter the top `maxResults` is
 * dismissed on its stored importance alone (decay never raises it), so browsing 100k entries
 * costs a scan, not a sort with a date parse per comparison.
 */
export function browseMemory(entries: Iterable<MemoryEntry>, query: ParsedMemoryQuery, decay?: BrowseDecay) {
  const limit = query.maxResults;
  const top: Ranked[] = [];
  const importanceOf = decay ? effectiveImportanceAt(decay.now, decay.decay) : (entry: MemoryEntry) => entry.importance;
  for (const entry of entries) {
    if (!query.matches(entry)) continue;
    const last = top[limit - 1];
    if (last && entry.importance < last.importance) continue;
    const importance = importanceOf(entry);
    const candidate = { entry, importance, seen: Date.parse(entry.lastSeenAt) };
    if (last && compareRanked(candidate, last) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareRanked(top[middle]!, candidate) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, candidate);
    if (top.length > limit) top.pop();
  }
  return top.map(({ entry, importance }) => ({ entry: copyMemoryEntry(entry), score: importance }));
}

interface Ranked {
  entry: MemoryEntry;
  importance: number;
  seen: number;
}

function compareRanked(a: Ranked, b: Ranked): number {
  return b.importance - a.importance || b.seen - a.seen || (a.entry.id < b.entry.id ? -1 : 1);
}
