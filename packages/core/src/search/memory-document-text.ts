/**
 * SPEC M3: the text BM25 indexes for a memory entry: content, then tags, then the category with
 * `/` and `-` turned into spaces, so `user-preferences/timezone` matches "timezone" and "user".
 */
export function memoryDocumentText(entry: { content: string; tags: readonly string[]; category: string }): string {
  return [entry.content, entry.tags.join(' '), entry.category.replace(/[/-]/g, ' ')].filter(Boolean).join(' ');
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
