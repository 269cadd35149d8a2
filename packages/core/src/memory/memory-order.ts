import type { MemoryEntry } from '../schemas/memory-entry';

const ms = (iso: string) => Date.parse(iso);

/** Browsing order without a query: most important first, then most recently seen, then id. */
export function byImportanceThenRecency(a: MemoryEntry, b: MemoryEntry): number {
  return b.importance - a.importance || ms(b.lastSeenAt) - ms(a.lastSeenAt) || (a.id < b.id ? -1 : 1);
}

/** Listing order: oldest `createdAt` first, then id. */
export function byCreation(a: MemoryEntry, b: MemoryEntry): number {
  return ms(a.createdAt) - ms(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
