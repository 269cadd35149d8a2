import type { ILongTermMemory, MemoryEntry } from '@reverie/core';
import type { LocomoConversation } from './locomo-data';

/** The metadata key an entry's evidence turn ids are kept under (space-separated). */
export const EVIDENCE_KEY = 'locomo.evidence';

/**
 * Saves every observation of a conversation as one memory entry, as a user of the library
 * would store what it learnt: the observation as the content, in `general`, tagged with the
 * speaker it is about (lower case), noted on its session's date, its evidence turn ids in the
 * metadata. Returns each entry's evidence by id.
 */
export async function saveObservations(memory: ILongTermMemory, conversation: LocomoConversation): Promise<Map<string, string[]>> {
  const evidence = new Map<string, string[]>();
  for (const observation of conversation.observations) {
    const entry = await memory.save({
      content: observation.content,
      category: 'general',
      tags: [observation.speaker.toLowerCase()],
      ...(observation.at ? { createdAt: observation.at, lastSeenAt: observation.at } : {}),
      metadata: { [EVIDENCE_KEY]: observation.evidence.join(' ') },
    });
    evidence.set(entry.id, observation.evidence);
  }
  return evidence;
}

/**
 * The evidence an entry carries: that of the observation it is, and of every observation it
 * replaced (its lineage's ancestors, merged or superseded), from `evidenceById` (the entries as
 * they were before a dream cycle). Pure.
 */
export function entryEvidence(entry: Pick<MemoryEntry, 'id' | 'lineage'>, evidenceById: ReadonlyMap<string, readonly string[]>): string[] {
  const ids = [entry.id, ...(entry.lineage?.ancestors ?? []).map((ancestor) => ancestor.id)];
  return [...new Set(ids.flatMap((id) => evidenceById.get(id) ?? []))];
}

/**
 * The observations' evidence by entry id, for entries saved before (a recorded cycle's
 * `initial/` data directory, whose entries hold the observations' text word for word): each
 * entry's content is looked up among the conversation's observations. Pure.
 */
export function evidenceByContent(
  entries: ReadonlyArray<Pick<MemoryEntry, 'id' | 'content'>>,
  conversation: LocomoConversation,
): Map<string, string[]> {
  const byContent = new Map<string, string[]>();
  for (const observation of conversation.observations)
    byContent.set(observation.content, [...(byContent.get(observation.content) ?? []), ...observation.evidence]);
  const evidence = new Map<string, string[]>();
  for (const entry of entries) {
    const found = byContent.get(entry.content);
    if (found) evidence.set(entry.id, found);
  }
  return evidence;
}

/** The conversation whose observations hold the most of these contents (the one a recorded cycle's data directory was made from). Pure. */
export function conversationOf(contents: readonly string[], conversations: readonly LocomoConversation[]): LocomoConversation | undefined {
  let best: { conversation: LocomoConversation; found: number } | undefined;
  for (const conversation of conversations) {
    const known = new Set(conversation.observations.map((observation) => observation.content));
    const found = contents.filter((content) => known.has(content)).length;
    if (found > 0 && (!best || found > best.found)) best = { conversation, found };
  }
  return best?.conversation;
}
