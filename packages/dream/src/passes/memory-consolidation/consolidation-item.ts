import { type DecayOptions, DEFAULT_DECAY_OPTIONS, type MemoryEntry, newId } from '@reverie/core';
import { deepestCategory, mergeEntries, representativeOf, unionTags } from './merge-entries';
import { duplicateKey, stripRetentionTags } from './normalise-content';

/**
 * What the pass reasons about: one live entry, or a group of duplicates the deterministic
 * pre-pass folds into one (SPEC B7). A group is shown to the model as its merged form under the
 * id of its representative member, so a decision about that id applies to the whole group.
 */
export interface ConsolidationItem {
  /** The id the model sees: the entry's own, or the group representative's. */
  id: string;
  /** What the model sees: the entry, or the group's merged form (under `id`). */
  view: MemoryEntry;
  /** The live entries this item stands for (one, or every member of a group). */
  members: MemoryEntry[];
  /** For a group: the merged entry the pre-pass saves, with a new id, unless the model decides otherwise. */
  merged?: MemoryEntry;
}

/**
 * SPEC B7, the deterministic pre-pass: groups live entries whose `duplicateKey` is equal
 * (normalised content and subject time; across categories, since the same statement filed
 * twice is still one fact) and folds each group of two or more into one merged entry: the
 * representative's wording without retention hints, the deepest category, the union of tags,
 * and the D4 arithmetic. Every other entry becomes an item of its own. Items come in the order
 * of `entries`; a group takes the place of its first member. Pure apart from `newId`.
 */
export function buildConsolidationItems(entries: readonly MemoryEntry[], now: Date, decay: DecayOptions = DEFAULT_DECAY_OPTIONS): ConsolidationItem[] {
  const groups = new Map<string, MemoryEntry[]>();
  const order: Array<MemoryEntry[]> = [];
  for (const entry of entries) {
    const key = duplicateKey(entry);
    const group = key === undefined ? undefined : groups.get(key);
    if (group) {
      group.push(entry);
      continue;
    }
    const fresh = [entry];
    if (key !== undefined) groups.set(key, fresh);
    order.push(fresh);
  }
  return order.map((members) => (members.length === 1 ? single(members[0]!) : group(members, now, decay)));
}

function single(entry: MemoryEntry): ConsolidationItem {
  return { id: entry.id, view: entry, members: [entry] };
}

function group(members: MemoryEntry[], now: Date, decay: DecayOptions): ConsolidationItem {
  const representative = representativeOf(members);
  const ordered = [representative, ...members.filter((member) => member !== representative)];
  const merged = mergeEntries(ordered, {
    id: newId(),
    content: stripRetentionTags(representative.content),
    category: deepestCategory(members, representative.category),
    tags: unionTags(...ordered.map((member) => member.tags)),
    updatedAt: now.toISOString(),
    importanceAt: now,
  }, decay);
  return {
    id: representative.id,
    view: { ...merged, id: representative.id, updatedAt: representative.updatedAt },
    members,
    merged,
  };
}
