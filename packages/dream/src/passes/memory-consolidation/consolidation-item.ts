import { type DecayOptions, DEFAULT_DECAY_OPTIONS, type MemoryEntry, newId } from '@reverie/core';
import { deepestCategory, mergeEntries, representativeOf, unionTags } from './merge-entries';
import { duplicateKey, duplicateKeyHash, stripRetentionTags } from './normalise-content';

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
  /**
   * `duplicateKeyHash` of the `duplicateKey` of `view` (absent when it is undefined): finds the
   * items that may share a key with a new text without normalising every item again.
   */
  keyHash?: number;
}

/**
 * SPEC B7, the deterministic pre-pass: groups live entries whose `duplicateKey` is equal
 * (normalised content and subject time; across categories, since the same statement filed
 * twice is still one fact) and folds each group of two or more into one merged entry: the
 * representative's wording without retention hints, the deepest category, the union of tags,
 * and the D4 arithmetic. Every other entry becomes an item of its own. Items come in the order
 * of `entries`; a group takes the place of its first member. Pure apart from `newId`.
 */
export function buildConsolidationItems(
  entries: readonly MemoryEntry[],
  now: Date,
  decay: DecayOptions = DEFAULT_DECAY_OPTIONS,
): ConsolidationItem[] {
  // Groups by the hash of their key, which a Map holds without a string per entry; a group whose
  // first member's key differs (two keys with one hash) sends the entry to `collided`, by key.
  const byHash = new Map<number, MemoryEntry[]>();
  const collided = new Map<string, MemoryEntry[]>();
  const order: MemoryEntry[][] = [];
  /** The key hash of each group of `order`; NaN for an entry without a key. */
  const hashes: number[] = [];
  for (const entry of entries) {
    const key = duplicateKey(entry);
    if (key === undefined) {
      order.push([entry]);
      hashes.push(Number.NaN);
      continue;
    }
    const keyHash = duplicateKeyHash(key);
    const first = byHash.get(keyHash);
    const group = first === undefined ? undefined : duplicateKey(first[0]!) === key ? first : collided.get(key);
    if (group) {
      group.push(entry);
      continue;
    }
    const fresh = [entry];
    if (first === undefined) byHash.set(keyHash, fresh);
    else collided.set(key, fresh);
    order.push(fresh);
    hashes.push(keyHash);
  }
  return order.map((members, index) => (members.length === 1 ? single(members[0]!, hashes[index]!) : group(members, now, decay)));
}

function single(entry: MemoryEntry, keyHash: number): ConsolidationItem {
  return { id: entry.id, view: entry, members: [entry], keyHash: Number.isNaN(keyHash) ? undefined : keyHash };
}

function group(members: MemoryEntry[], now: Date, decay: DecayOptions): ConsolidationItem {
  const representative = representativeOf(members);
  const ordered = [representative, ...members.filter((member) => member !== representative)];
  const merged = mergeEntries(
    ordered,
    {
      id: newId(),
      content: stripRetentionTags(representative.content),
      category: deepestCategory(members, representative.category),
      tags: unionTags(...ordered.map((member) => member.tags)),
      updatedAt: now.toISOString(),
      importanceAt: now,
    },
    decay,
  );
  const view = { ...merged, id: representative.id, updatedAt: representative.updatedAt };
  const key = duplicateKey(view);
  return { id: representative.id, view, members, merged, keyHash: key === undefined ? undefined : duplicateKeyHash(key) };
}
