import { type ILongTermMemory, type MemorySearchQuery, type MemorySearchResult, searchWithSecondHop } from '@reverie/core';

/** A search of long-term memory, as per-turn recall and `search_memory` run it. */
export type RecallSearch = (query: MemorySearchQuery) => Promise<MemorySearchResult[]>;

/**
 * How per-turn recall and `search_memory` search `memory`: one search, or with `secondHop`
 * (`withMemory({ secondHop: true })`) a second one for the names the best hit holds and the
 * query does not (`searchWithSecondHop` of `@reverie/core`), the same for every store.
 */
export function recallSearch(memory: ILongTermMemory, secondHop: boolean): RecallSearch {
  const search: RecallSearch = (query) => memory.search(query);
  return secondHop ? (query) => searchWithSecondHop(search, query) : search;
}
