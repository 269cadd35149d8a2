import { parseDraft } from '../schemas/parse-record';
import { type WorkingMemoryEntry, type WorkingMemorySearchQuery, workingMemorySearchQuerySchema } from '../schemas/working-memory-entry';
import { isUnderPrefix, validateCategory } from '../validation/path-name';

export interface ParsedWorkingMemoryQuery {
  /** The query text, or undefined when the caller is browsing. */
  text: string | undefined;
  maxResults: number;
  /** The filters as given, for a store that applies them itself (in SQL): key prefix, category, tags. */
  filters: { prefix?: string | undefined; category?: string | undefined; tags?: string[] | undefined };
  /** True for entries under the key prefix, category and every tag asked for (expiry is the store's to check). */
  matches(entry: WorkingMemoryEntry): boolean;
}

/** Validates a working-memory search and turns its filters into a predicate, as every store filters. */
export function parseWorkingMemoryQuery(query: WorkingMemorySearchQuery): ParsedWorkingMemoryQuery {
  if (query?.category !== undefined) validateCategory(query.category);
  const { text, category, tags, prefix, maxResults } = parseDraft(workingMemorySearchQuerySchema, query, 'working-memory search');
  return {
    text: text !== undefined && text.trim() !== '' ? text : undefined,
    maxResults,
    filters: { prefix, category, tags },
    matches: (entry) =>
      (prefix === undefined || isUnderPrefix(entry.key, prefix)) &&
      (category === undefined || (entry.category !== undefined && isUnderPrefix(entry.category, category))) &&
      (tags === undefined || tags.every((tag) => entry.tags.includes(tag))),
  };
}
