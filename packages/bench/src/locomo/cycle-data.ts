import { createHash } from 'node:crypto';
import { type IClock } from '@reverie/core';
import { FileConversationLog, FileMemoryStore } from '@reverie/file-store';
import type { LocomoConversation } from './locomo-data';

/** How many of a conversation's last sessions its data directory holds as the conversation log. */
export const LOGGED_SESSIONS = 4;

/**
 * The id of an observation's entry: the same on every machine, so a recorded dream cycle's replies
 * name the entries a data directory built again from LoCoMo holds. Pure.
 */
export function observationId(conversation: Pick<LocomoConversation, 'sampleId'>, position: number): string {
  return createHash('sha256').update(`locomo:${conversation.sampleId}:${position}`).digest('hex').slice(0, 12);
}

/**
 * Writes a conversation of LoCoMo as the data directory a recorded dream cycle starts from, in the
 * file store's layout: every observation an entry in `general`, noted on its session's date and
 * tagged with the speaker it is about (its id from `observationId`), and the turns of the last
 * `LOGGED_SESSIONS` sessions as the conversation log (the first speaker as the user, the other as
 * the assistant, session `locomo-<n>`). The text comes from LoCoMo at run time: nothing of it is
 * kept in the repository.
 */
export async function writeCycleData(
  conversation: LocomoConversation,
  dataPath: string,
  clock: IClock,
): Promise<{ entries: number; turns: number }> {
  const memory = new FileMemoryStore({ dataPath, clock });
  try {
    for (const [position, observation] of conversation.observations.entries()) {
      await memory.save({
        id: observationId(conversation, position),
        content: observation.content,
        category: 'general',
        tags: [observation.speaker.toLowerCase()],
        ...(observation.at ? { createdAt: observation.at, lastSeenAt: observation.at } : {}),
      });
    }
  } finally {
    await memory.close();
  }
  const log = new FileConversationLog({ dataPath, clock });
  let turns = 0;
  try {
    for (const session of conversation.sessions.slice(-LOGGED_SESSIONS)) {
      for (const turn of session.turns) {
        await log.append({
          sessionId: `locomo-${session.number}`,
          role: turn.speaker === conversation.speakers[0] ? 'user' : 'assistant',
          content: turn.text,
          ...(session.at ? { timestamp: session.at } : {}),
        });
        turns += 1;
      }
    }
  } finally {
    await log.close();
  }
  return { entries: conversation.observations.length, turns };
}
