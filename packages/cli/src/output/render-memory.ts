import type { CategoryCount, MemoryEntry, MemorySearchResult } from '@reverie/core';
import { plural, singleLine } from './single-line';

function entryLine(entry: MemoryEntry, categoryWidth: number, score?: number): string {
  const tags = entry.tags.length > 0 ? ` ${entry.tags.map((tag) => `#${tag}`).join(' ')}` : '';
  const columns = [entry.id, ...(score === undefined ? [] : [score.toFixed(3)]), entry.category.padEnd(categoryWidth), entry.importance.toFixed(2)];
  return `${columns.join('  ')}  ${singleLine(entry.content)}${tags}`;
}

/** `memory list` in text: one entry a line (id, category, importance, content, tags). Pure. */
export function renderMemoryList(entries: readonly MemoryEntry[]): string {
  if (entries.length === 0) return 'No memories.';
  const width = Math.max(...entries.map((entry) => entry.category.length));
  return [...entries.map((entry) => entryLine(entry, width)), plural(entries.length, 'entry', 'entries')].join('\n');
}

/** `memory search` in text: best first, with the score after the id. Pure. */
export function renderMemorySearch(results: readonly MemorySearchResult[]): string {
  if (results.length === 0) return 'No memories match.';
  const width = Math.max(...results.map((result) => result.entry.category.length));
  return [...results.map((result) => entryLine(result.entry, width, result.score)), plural(results.length, 'result')].join('\n');
}

/** `memory categories` in text: count, then category. Pure. */
export function renderCategories(categories: readonly CategoryCount[]): string {
  if (categories.length === 0) return 'No categories: the memory is empty.';
  const width = Math.max(...categories.map((c) => String(c.count).length));
  return categories.map((c) => `${String(c.count).padStart(width)}  ${c.category}`).join('\n');
}
