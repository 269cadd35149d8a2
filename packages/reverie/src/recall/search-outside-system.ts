import { DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS, type MemorySearchQuery, type MemorySearchResult } from '@reverie/core';
import { isSystemCategory } from '@reverie/core/internal';
import type { RecallSearch } from './recall-search';

/**
 * SPEC O7: `search` without the entries under `_system/`, Reverie's own records, which are never
 * recalled. When such entries take places in the ranking it asks again for more, so they never
 * crowd out the entries that may be returned: the answer holds `maxResults` results whenever the
 * store has that many outside `_system/`.
 */
export function searchOutsideSystem(search: RecallSearch): RecallSearch {
  return async (query: MemorySearchQuery): Promise<MemorySearchResult[]> => {
    const wanted = query.maxResults ?? DEFAULT_SEARCH_RESULTS;
    // The first search asks for what the caller asked (the store judges it); the next ones for more.
    let asked = wanted;
    for (;;) {
      const results = await search({ ...query, maxResults: asked });
      const kept = results.filter((result) => !isSystemCategory(result.entry.category));
      if (kept.length >= wanted || results.length < asked || asked >= MAX_SEARCH_RESULTS) return kept.slice(0, wanted);
      asked = Math.min(asked * 2, MAX_SEARCH_RESULTS);
    }
  };
}
