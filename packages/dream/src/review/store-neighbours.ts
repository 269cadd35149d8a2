import type { MemorySearchResult } from '@reverie/core';
import type { FeedStore } from '../changes/memory-feed';

/** A neighbour a store found: the entry's id and its score relative to the best match (≤ 1). */
export interface StoreHit {
  id: string;
  score: number;
}

/** Ids per `neighbours()` call, so the entries a store hands back for one call stay few. */
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

  /** Keeps what one `neighbours()` answer said about `id`, asked with `limit`. */
  record(id: string, hits: readonly MemorySearchResult[], limit: number): void {
    this.found.set(
      id,
      hits.map((hit) => ({ id: hit.entry.id, score: hit.score })),
    );
    this.asked.set(id, limit);
  }

  /**
   * Asks about `ids` a slice at a time and hands each slice to `use` while the store's answer for
   * it is held, then forgets it: a run over every entry never holds the neighbours of them all.
   */
  async eachSlice(ids: readonly string[], limit: number, use: (slice: readonly string[]) => void, signal?: AbortSignal): Promise<void> {
    for (let start = 0; start < ids.length; start += IDS_PER_CALL) {
      const slice = ids.slice(start, start + IDS_PER_CALL);
      await this.fetch(slice, limit, signal);
      use(slice);
      for (const id of slice) {
        this.found.delete(id);
        this.asked.delete(id);
      }
    }
  }

  /** Asks the store about the ids it was not yet asked about with at least `limit`, a slice at a time. */
  async fetch(ids: Iterable<string>, limit: number, signal?: AbortSignal): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => (this.asked.get(id) ?? 0) < limit);
    for (let start = 0; start < missing.length; start += IDS_PER_CALL) {
      signal?.throwIfAborted();
      const slice = missing.slice(start, start + IDS_PER_CALL);
      const answer = await this.store.neighbours(slice, { limit });
      for (const id of slice) this.record(id, answer.get(id) ?? [], limit);
    }
  }
}
