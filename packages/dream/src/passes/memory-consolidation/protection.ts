import { isUnderPrefix, type MemoryEntry } from '@reverie/core';
import type { ConsolidationItem } from './consolidation-item';
import type { MemoryConsolidationOptions } from './memory-consolidation-options';

/** The options that protect an entry from being deleted outright or changed loosely (SPEC B11). */
export type Protection = Pick<MemoryConsolidationOptions, 'protectImportance' | 'protectReinforcement' | 'protectedCategories'>;

/** Why an item may not be deleted outright or changed loosely, or undefined when it is not protected. */
export function protectionOf(item: ConsolidationItem, options: Protection): string | undefined {
  const entries: MemoryEntry[] = [item.view, ...item.members];
  if (entries.some((entry) => entry.importance >= options.protectImportance))
    return `importance ≥ ${options.protectImportance} is protected`;
  if (item.view.reinforcementCount >= options.protectReinforcement)
    return `reinforced ${item.view.reinforcementCount}× (≥ ${options.protectReinforcement}) is protected`;
  const category = entries
    .map((entry) => entry.category)
    .find((c) => options.protectedCategories.some((prefix) => isUnderPrefix(c, prefix)));
  if (category !== undefined) return `the category ${category} is protected`;
  return undefined;
}

/** Whether `category` lies under one of the protected prefixes. */
export function isProtected(category: string, options: Protection): boolean {
  return options.protectedCategories.some((prefix) => isUnderPrefix(category, prefix));
}

/** Where a protected item must stay: under the protected prefix that covers it, else under its own top-level category. */
export function protectedHome(item: ConsolidationItem, options: Protection): string {
  const prefix = options.protectedCategories.find((candidate) => isUnderPrefix(item.view.category, candidate));
  return prefix ?? item.view.category.split('/')[0]!;
}
