import { copyMemoryEntry } from '../memory/copy-memory-entry';
import type { MemoryNeighbour, MemoryNeighbourQuery } from '../interfaces/memory-change-feed';
import type { MemoryEntry, MemorySearchResult } from '../schemas/memory-entry';
import type { Bm25Index, Bm25SearchOptions } from '../search/bm25-index';

/**
 * How an entry's content is searched for its neighbours: its 12 rarest terms, leaving out terms
 * found in more than 1 % of the entries (at least three terms are kept), with prefix matching so
 * "deploy" still finds "deployment". The rare terms carry nearly all of the BM25 score; the
 * common ones have the longest postings, so leaving them out keeps a neighbour query cheap at
 * any size of memory (at 100k entries: 0.5 ms instead of 4.4 ms, in bench:dream's memory).
 */
export const NEIGHBOUR_QUERY: Readonly<Pick<Bm25SearchOptions, 'prefix' | 'stems' | 'maxTerms' | 'maxDocumentShare' | 'prune'>> =
  Object.freeze({
    prefix: true,
    // Words as written (and prefixes), not their other forms: the consolidation pass's thresholds
    // (`minNeighbourScore`, relative to the best hit) were calibrated on such queries.
    stems: false,
    maxTerms: 12,
    maxDocumentShare: 0.01,
    // Up to 12 rare terms and their prefix expansions: short postings, little to skip, and range
    // bounds to keep for each (pruning them doubled the initial consolidation cycle at 100k).
    prune: false,
  });
import { parseNeighbourQuery } from './change-cursor';

/**
 * `neighbourIds()` for a store that keeps a `Bm25Index` of its entries (SPEC B12): each known
 * entry's content is queried against the index, and the hits other than the entry itself are
 * returned best first, scored as a share of the best hit of that query (usually the entry
 * itself): 1 is as close as it gets. Costs one query per id, whatever the size of the store, and
 * copies no entry. `holds`, when given, keeps only neighbours it accepts (the facts that hold
 * now, SPEC B9: a superseded entry is nobody's neighbour).
 */
export function indexNeighbourIds(
  index: Bm25Index,
  entryOf: (id: string) => MemoryEntry | undefined,
  ids: readonly string[],
  query?: MemoryNeighbourQuery,
  holds?: (id: string) => boolean,
): Map<string, MemoryNeighbour[]> {
  const { limit } = parseNeighbourQuery(query);
  const found = new Map<string, MemoryNeighbour[]>();
  // One query object for every id (the entry asked about passes the filter, to score against).
  let asked = '';
  const search = { ...NEIGHBOUR_QUERY, limit: limit + 1, ...(holds ? { filter: (hit: string) => hit === asked || holds(hit) } : {}) };
  for (const id of new Set(ids)) {
    const entry = entryOf(id);
    if (!entry) continue;
    asked = id;
    const all = index.search(entry.content, search);
    const best = all[0]?.score ?? 0;
    const hits: MemoryNeighbour[] = [];
    for (const hit of all) {
      if (hits.length === limit) break;
      if (hit.id === id || hit.score <= 0 || !entryOf(hit.id)) continue;
      hits.push({ id: hit.id, score: hit.score / best });
    }
    found.set(id, hits);
  }
  return found;
}

/**
 * `neighbours()` for a store that keeps a `Bm25Index` of its entries: `indexNeighbourIds` with a
 * copy of each neighbouring entry, one per entry per call however many lists it appears in (the
 * copies are the caller's).
 */
export function indexNeighbours(
  index: Bm25Index,
  entryOf: (id: string) => MemoryEntry | undefined,
  ids: readonly string[],
  query?: MemoryNeighbourQuery,
  holds?: (id: string) => boolean,
): Map<string, MemorySearchResult[]> {
  const copies = new Map<string, MemoryEntry>();
  const copyOf = (neighbour: MemoryEntry) => {
    let copy = copies.get(neighbour.id);
    if (!copy) copies.set(neighbour.id, (copy = copyMemoryEntry(neighbour)));
    return copy;
  };
  const found = new Map<string, MemorySearchResult[]>();
  for (const [id, hits] of indexNeighbourIds(index, entryOf, ids, query, holds)) {
    found.set(
      id,
      hits.map((hit) => ({ entry: copyOf(entryOf(hit.id)!), score: hit.score })),
    );
  }
  return found;
}
