import type { MemoryEntry } from '@reverie/core';

/** An entry recalled in a session, with the session's turn numbers at which it was recalled. */
export interface HeldEntry {
  entry: MemoryEntry;
  /** The first turn that recalled it. */
  firstTurn: number;
  /** The latest turn that recalled it. */
  lastTurn: number;
}

/**
 * The order of the session memory block (SPEC M11): the entries the current message recalled
 * (`hits`, best first) — they bear on it —, then the others recalled earlier in the session,
 * the most recently recalled first (then the earliest recalled first). Each entry once; a hit not
 * held is left out. Pure.
 */
export function rankSessionMemory(held: readonly HeldEntry[], hits: readonly string[]): MemoryEntry[] {
  const byId = new Map(held.map((item) => [item.entry.id, item]));
  const ranked: MemoryEntry[] = [];
  const placed = new Set<string>();
  for (const id of hits) {
    const item = byId.get(id);
    if (item === undefined || placed.has(id)) continue;
    ranked.push(item.entry);
    placed.add(id);
  }
  const rest = held.filter((item) => !placed.has(item.entry.id)).sort((a, b) => b.lastTurn - a.lastTurn || a.firstTurn - b.firstTurn);
  for (const item of rest) {
    if (placed.has(item.entry.id)) continue;
    ranked.push(item.entry);
    placed.add(item.entry.id);
  }
  return ranked;
}
