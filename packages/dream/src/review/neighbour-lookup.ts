import { type Bm25Index } from '@reverie/core';
import { NEIGHBOUR_QUERY } from '@reverie/core/internal';
import type { StoreHit } from './store-neighbours';

/** A neighbour and how close it is: its score as a share of the best score of the same query (≤ 1). */
export interface Neighbour {
  id: string;
  strength: number;
}

/**
 * Where the consolidation pass and its guards find similar items (SPEC B1, B11): an index the
 * pass built over what it listed, or the memory store's own index through its change feed.
 */
export interface NeighbourLookup {
  /** Items similar to the item `id`, strongest first, never `id` itself; at most `limit`. */
  ofItem(id: string, limit: number): Neighbour[];
  /** Items matching a free text (a correction), strongest first; at most `limit`. */
  ofText(text: string, limit: number): Neighbour[];
}

function relative(hits: ReadonlyArray<{ id: string; score: number }>, self: string | undefined, limit: number): Neighbour[] {
  const best = hits[0]?.score ?? 0;
  if (best <= 0) return [];
  return hits
    .filter((hit) => hit.id !== self && hit.score > 0)
    .slice(0, limit)
    .map((hit) => ({ id: hit.id, strength: hit.score / best }));
}

/** Neighbours from a BM25 index over the items: an item's neighbours are the hits of its own text. */
export function indexLookup(index: Bm25Index, textOf: (id: string) => string | undefined): NeighbourLookup {
  return {
    ofItem(id, limit) {
      const text = textOf(id);
      return text === undefined ? [] : relative(index.search(text, { ...NEIGHBOUR_QUERY, limit: limit + 1 }), id, limit);
    },
    ofText(text, limit) {
      return relative(index.search(text, { limit }), undefined, limit);
    },
  };
}

/**
 * Neighbours the memory store found (`neighbours()`, scores already relative to the best match),
 * mapped from entry ids to item ids; items the store was not asked about, and free texts, fall
 * back to `fallback`.
 */
export function storeLookup(
  found: ReadonlyMap<string, readonly StoreHit[]>,
  itemOf: (entryId: string) => string | undefined,
  fallback: NeighbourLookup,
): NeighbourLookup {
  return {
    ofItem(id, limit) {
      const hits = found.get(id);
      if (!hits) return fallback.ofItem(id, limit);
      const seen = new Set<string>([id]);
      const neighbours: Neighbour[] = [];
      for (const hit of hits) {
        const item = itemOf(hit.id);
        if (item === undefined || seen.has(item)) continue;
        seen.add(item);
        neighbours.push({ id: item, strength: hit.score });
        if (neighbours.length === limit) break;
      }
      return neighbours;
    },
    ofText: (text, limit) => fallback.ofText(text, limit),
  };
}
