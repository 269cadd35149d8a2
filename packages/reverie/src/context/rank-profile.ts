import { type DecayOptions, effectiveImportance, type MemoryEntry } from '@reverie/core';

/**
 * The order of the profile (SPEC M11): the entries of the pinned categories, most important
 * first (importance as it stands at `now`, decay applied, SPEC D7), then the most recently seen,
 * then the most recently changed; each entry once. Pure.
 */
export function rankProfile(entries: readonly MemoryEntry[], now: Date, decay: DecayOptions): MemoryEntry[] {
  const unique = new Map<string, { entry: MemoryEntry; importance: number }>();
  for (const entry of entries)
    if (!unique.has(entry.id)) unique.set(entry.id, { entry, importance: effectiveImportance(entry, now, decay) });
  return [...unique.values()]
    .sort(
      (a, b) =>
        b.importance - a.importance ||
        Date.parse(b.entry.lastSeenAt) - Date.parse(a.entry.lastSeenAt) ||
        Date.parse(b.entry.updatedAt) - Date.parse(a.entry.updatedAt) ||
        (a.entry.id < b.entry.id ? -1 : 1),
    )
    .map(({ entry }) => entry);
}
