import { parseRecord } from '../schemas/parse-record';
import { type MemoryEntry, type MemorySearchQuery, memorySearchQuerySchema } from '../schemas/memory-entry';
import { isUnderPrefix, validateCategory } from '../validation/path-name';
import { byImportanceThenRecency } from './memory-order';

export interface ParsedMemoryQuery {
  /** The query text, or undefined when the caller is browsing. */
  text: string | undefined;
  maxResults: number;
  /** True for entries that pass the category-prefix and every-tag filters. */
  matches(entry: MemoryEntry): boolean;
}

/**
 * Validates a memory search (INVALID_CATEGORY for a bad category filter, INVALID_INPUT for the
 * rest) and turns its filters into a predicate, so every store filters the same way.
 */
export function parseMemoryQuery(query: MemorySearchQuery): ParsedMemoryQuery {
  if (query?.category !== undefined) validateCategory(query.category);
  const { text, category, tags, maxResults } = parseRecord(memorySearchQuerySchema, query, 'memory search');
  return {
    text: text !== undefined && text.trim() !== '' ? text : undefined,
    maxResults,
    matches: (entry) =>
      (category === undefined || isUnderPrefix(entry.category, category)) &&
      (tags === undefined || tags.every((tag) => entry.tags.includes(tag))),
  };
}

/** A search without text: matching entries by importance, then most recently seen. */
export function browseMemory(entries: Iterable<MemoryEntry>, query: ParsedMemoryQuery) {
  return [...entries]
    .filter(query.matches)
    .sort(byImportanceThenRecency)
    .slice(0, query.maxResults)
    .map((entry) => ({ entry: structuredClone(entry), score: entry.importance }));
}
