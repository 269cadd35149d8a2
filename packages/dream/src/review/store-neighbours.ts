import type { MemoryNeighbour, MemorySearchResult } from '@reverie/core';
import type { FeedStore } from '../changes/memory-feed';

/** A neighbour a store found: the entry's id and its score relative to the best match (≤ 1). */
export type StoreHit = MemoryNeighbour;

/** Ids per `neighbourIds()` (or `neighbours()`) call, so one answer stays small. */
const IDS_PER_CALL = 64;

/**
 * The neighbours a memory store with a change feed found for a run (SPEC B12), kept as ids and
 * scores only: a run over every entry asks about each of them, and keeping the entries the
 * store returned would hold several copies of the memory at once.
 */
export class StoreNeighbours {
  /** Entry id → its neighbours, best first. */
  readonly found = new Map<string, StoreHit[]>();
  /** Entry id → how many neighbours the store was asked for. */
  private readonly asked = new Map<string, number>();

  constructor(readonly store: FeedStore) {}

  /** Keeps what the store said about the neighbours of `id`, asked with `limit`. */
  record(id: string, hits: StoreHit[], limit: number): void {
    this.found.set(id, hits);
    this.asked.set(id, limit);
  }

  /**
   * Asks about `ids` a slice at a time and hands each slice to `use` with the store's answer for
   * it (every id of the slice, with no hits when the store does not know it), then drops it: a
   * run over every entry never holds the neighbours of them all, and nothing long-lived grows
   * and shrinks with each slice. Ids already asked about with at least `limit` (an incremental
   * run's changed entries, asked while loading the working set) are answered from what was kept.
   */
  async eachSlice(
    ids: readonly string[],
    limit: number,
    use: (slice: readonly string[], found: ReadonlyMap<string, readonly StoreHit[]>) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
      signal?.throwIfAborted();
      const slice = ids.slice(start, start + IDS_PER_CALL);
      const missing = slice.filter((id) => (this.asked.get(id) ?? 0) < limit);
      const found = missing.length > 0 ? await neighbourIdsOf(this.store, missing, limit) : new Map<string, StoreHit[]>();
      for (const id of slice) if (!found.has(id)) found.set(id, this.found.get(id)?.slice(0, limit) ?? []);
      use(slice, found);
    }
  }

  /** Asks the store about the ids it was not yet asked about with at least `limit`, a slice at a time. */
  async fetch(ids: Iterable<string>, limit: number, signal?: AbortSignal): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => (this.asked.get(id) ?? 0) < limit);
    for (let start = 0; start < missing.length; start += IDS_PER_CALL) {
      signal?.throwIfAborted();
      const slice = missing.slice(start, start + IDS_PER_CALL);
      const answer = await neighbourIdsOf(this.store, slice, limit);
      for (const id of slice) this.record(id, answer.get(id) ?? [], limit);
    }
  }
}

/**
 * The store's `neighbourIds()`, or its `neighbours()` reduced to ids and scores when it has no
 * `neighbourIds` (the entries it copied are dropped at once).
 */
export async function neighbourIdsOf(store: FeedStore, ids: readonly string[], limit: number): Promise<Map<string, StoreHit[]>> {
  if (store.neighbourIds) return store.neighbourIds(ids, { limit });
  const found = new Map<string, StoreHit[]>();
  for (const [id, results] of await store.neighbours(ids, { limit })) found.set(id, hitsOf(results));
  return found;
}

/** What a `neighbours()` answer says about one entry, as ids and scores. */
export function hitsOf(results: readonly MemorySearchResult[]): StoreHit[] {
  return results.map((result) => ({ id: result.entry.id, score: result.score }));
}
