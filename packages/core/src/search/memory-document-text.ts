import type { Bm25Index } from './bm25-index';
import { tokenize } from './stop-words';

/**
 * SPEC M3: the text BM25 indexes for a memory entry: content, then tags, then the category with
 * `/` and `-` turned into spaces, so `user-preferences/timezone` matches "timezone" and "user".
 * The category's words come last: they are the entry's label (`memoryLabelWords`).
 */
export function memoryDocumentText(entry: { content: string; tags: readonly string[]; category: string }): string {
  return [entry.content, entry.tags.join(' '), categoryWords(entry.category)].filter(Boolean).join(' ');
}

/**
 * SPEC M3: how many of the last words of `memoryDocumentText` (and of each of `memoryPassageTexts`)
 * are the entry's category — its label, which a store indexes with `labelWords` (see
 * `Bm25Index.set`): the words match a query, but they do not count in the entry's length. Where an
 * entry is filed says nothing about how wordy it is, so an entry moved from `general` to
 * `people/jon/dance-studio` ranks as before for a question that names none of those words. Pure.
 */
export function memoryLabelWords(entry: { category: string }): number {
  return tokenize(categoryWords(entry.category)).length;
}

function categoryWords(category: string): string {
  return category.replace(/[/-]/g, ' ');
}

/**
 * SPEC M3: the texts BM25 indexes as an entry's passages (see `Bm25Index.set`): each
 * passage its lineage keeps (the whole text of an entry merged into it), with the entry's tags and
 * category as `memoryDocumentText` adds them, so a passage ranks as its source would have, filed
 * where the entry is. Empty for an entry without passages. Pure.
 */
export function memoryPassageTexts(entry: {
  tags: readonly string[];
  category: string;
  lineage?: { passages?: readonly string[] | undefined } | undefined;
}): string[] {
  return (entry.lineage?.passages ?? []).map((content) => memoryDocumentText({ content, tags: entry.tags, category: entry.category }));
}

/**
 * SPEC M3: indexes (or re-indexes) a memory entry in `index` as every store does: its text
 * (`memoryDocumentText`), its passages (`memoryPassageTexts`) and its category as the label
 * (`memoryLabelWords`). A custom store that keeps a `Bm25Index` ranks as the built-in ones by
 * calling this. Throws what `Bm25Index.set` throws, leaving the index as it was.
 */
export function indexMemoryEntry(
  index: Bm25Index,
  entry: {
    id: string;
    content: string;
    tags: readonly string[];
    category: string;
    lineage?: { passages?: readonly string[] | undefined } | undefined;
  },
): void {
  index.set(entry.id, memoryDocumentText(entry), memoryPassageTexts(entry), memoryLabelWords(entry));
}
