/**
 * SPEC M3: the text BM25 indexes for a memory entry: content, then tags, then the category with
 * `/` and `-` turned into spaces, so `user-preferences/timezone` matches "timezone" and "user".
 */
export function memoryDocumentText(entry: { content: string; tags: readonly string[]; category: string }): string {
  return [entry.content, entry.tags.join(' '), entry.category.replace(/[/-]/g, ' ')].filter(Boolean).join(' ');
}
