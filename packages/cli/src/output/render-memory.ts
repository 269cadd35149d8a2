import { type CategoryCount, type MemoryEntry, type MemorySearchResult, type MemoryTier, tierOf } from '@reverie/core';
import { plural, singleLine } from './single-line';

/** What an entry's importance is worth now (SPEC D7: `Reverie.importanceOf`). */
export type ImportanceOf = (entry: MemoryEntry) => number;

/** Importance now, then the stored value in brackets when decay has lowered it: `0.40 (0.80)`. */
function importanceColumn(entry: MemoryEntry, importanceOf: ImportanceOf): string {
  const now = importanceOf(entry).toFixed(2);
  const stored = entry.importance.toFixed(2);
  return now === stored ? now : `${now} (${stored})`;
}

function entryLine(entry: MemoryEntry, categoryWidth: number, importanceOf: ImportanceOf, score?: number): string {
  const tags = entry.tags.length > 0 ? ` ${entry.tags.map((tag) => `#${tag}`).join(' ')}` : '';
  const columns = [
    entry.id,
    ...(score === undefined ? [] : [score.toFixed(3)]),
    entry.category.padEnd(categoryWidth),
    importanceColumn(entry, importanceOf),
  ];
  const cold = entry.tier === 'cold' ? '[cold] ' : '';
  return `${columns.join('  ')}  ${cold}${singleLine(entry.content)}${tags}`;
}

/**
 * `memory list` in text: one entry a line (id, category, importance now — with the stored value
 * in brackets when decay has lowered it — content, tags). Pure.
 */
export function renderMemoryList(entries: readonly MemoryEntry[], importanceOf: ImportanceOf): string {
  if (entries.length === 0) return 'No memories.';
  const width = Math.max(...entries.map((entry) => entry.category.length));
  return [...entries.map((entry) => entryLine(entry, width, importanceOf)), plural(entries.length, 'entry', 'entries')].join('\n');
}

/** `memory search` in text: best first, with the score after the id. Pure. */
export function renderMemorySearch(results: readonly MemorySearchResult[], importanceOf: ImportanceOf): string {
  if (results.length === 0) return 'No memories match.';
  const width = Math.max(...results.map((result) => result.entry.category.length));
  return [...results.map((result) => entryLine(result.entry, width, importanceOf, result.score)), plural(results.length, 'result')].join(
    '\n',
  );
}

/** An entry for `--format json`: as stored, with its tier spelled out (SPEC B13), plus `effectiveImportance`, what it is worth now (SPEC D7). */
export function memoryJson(
  entry: MemoryEntry,
  importanceOf: ImportanceOf,
): MemoryEntry & { tier: MemoryTier; effectiveImportance: number } {
  return { ...entry, tier: tierOf(entry), effectiveImportance: importanceOf(entry) };
}

/** `memory categories` in text: count, then category. Pure. */
export function renderCategories(categories: readonly CategoryCount[]): string {
  if (categories.length === 0) return 'No categories: the memory is empty.';
  const width = Math.max(...categories.map((c) => String(c.count).length));
  return categories.map((c) => `${String(c.count).padStart(width)}  ${c.category}`).join('\n');
}
