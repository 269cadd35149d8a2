import { type DecayOptions, type MemoryEntry, mergeTemporalFields, ReverieValidationError, withEffectiveImportance } from '@reverie/core';
import { timestampMs } from '@reverie/core/internal';

/** SPEC M1: an entry carries at most this many tags; a union of many sources is cut to it. */
const MAX_TAGS = 32;

/**
 * The member whose wording a merged group keeps: the most recently seen, then the most
 * reinforced, then the most recently updated, then the smallest id (so the choice never
 * depends on input order).
 */
export function representativeOf(members: readonly MemoryEntry[]): MemoryEntry {
  const [first, ...rest] = members;
  if (first === undefined) throw new ReverieValidationError('INVALID_INPUT', 'representativeOf needs at least one entry.');
  let best = first;
  for (const member of rest) {
    const order =
      timestampMs(member.lastSeenAt) - timestampMs(best.lastSeenAt) ||
      member.reinforcementCount - best.reinforcementCount ||
      timestampMs(member.updatedAt) - timestampMs(best.updatedAt) ||
      (member.id < best.id ? 1 : -1);
    if (order > 0) best = member;
  }
  return best;
}

function depth(category: string): number {
  return category.split('/').length;
}

/**
 * The most specific category among the members (the deepest path); on a tie `preferred` when
 * it is one of the deepest, else the smallest string.
 */
export function deepestCategory(members: readonly Pick<MemoryEntry, 'category'>[], preferred?: string): string {
  const deepest = Math.max(...members.map((member) => depth(member.category)));
  const candidates = [...new Set(members.map((member) => member.category).filter((category) => depth(category) === deepest))].sort();
  if (preferred !== undefined && candidates.includes(preferred)) return preferred;
  const chosen = candidates[0];
  if (chosen === undefined) throw new ReverieValidationError('INVALID_INPUT', 'deepestCategory needs at least one entry.');
  return chosen;
}

/** Tags in order of first appearance, without repeats, at most 32. */
export function unionTags(...lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())].slice(0, MAX_TAGS);
}

/**
 * SPEC D4: the entry that replaces `sources`. Wording, category and tags come from the caller;
 * the temporal fields are the host's arithmetic (`mergeTemporalFields`: createdAt the earliest,
 * lastSeenAt the latest, reinforcementCount the sum, importance the highest, metadata only the
 * merged subject time). Importance is compared as it stands at `importanceAt` (SPEC D7: each
 * source's effective importance then, under `decay`), and the result is stored as of that
 * instant, so a merge neither revives nor decays twice what has faded. Nothing else is stamped
 * "now" except `updatedAt`, which the store rewrites.
 */
export function mergeEntries(
  sources: readonly MemoryEntry[],
  fields: { id: string; content: string; category: string; tags: readonly string[]; updatedAt: string; importanceAt: Date },
  decay: DecayOptions,
): MemoryEntry {
  const temporal = mergeTemporalFields(sources.map((source) => withEffectiveImportance(source, fields.importanceAt, decay)));
  return {
    id: fields.id,
    content: fields.content,
    category: fields.category,
    tags: unionTags(fields.tags),
    createdAt: temporal.createdAt,
    updatedAt: fields.updatedAt,
    lastSeenAt: temporal.lastSeenAt,
    reinforcementCount: temporal.reinforcementCount,
    importance: temporal.importance,
    importanceAt: fields.importanceAt.toISOString(),
    metadata: temporal.metadata,
  };
}
