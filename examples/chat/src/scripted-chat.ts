import type { Reverie, WrappableModel } from 'reverie';
import { chatSession, dreamBetweenSessions } from './chat-session';

/** Three short sessions with a dream cycle after each of the first two. */
export const SCRIPT: Array<{ sessionId: string; messages: string[] }> = [
  { sessionId: 'monday', messages: ['Remember: I prefer metric units.', 'Also remember: I am allergic to peanuts.'] },
  { sessionId: 'tuesday', messages: ['Remember: I prefer metric units.'] },
  { sessionId: 'wednesday', messages: ['Which units do I prefer, and am I allergic to anything?'] },
];

/** Plays `SCRIPT`: the agent saves memories, a dream merges the duplicate, a later session recalls them. */
export async function runScriptedChat(reverie: Reverie, model: WrappableModel, print: (line: string) => void): Promise<string[]> {
  const replies: string[] = [];
  for (const [index, { sessionId, messages }] of SCRIPT.entries()) {
    print(`— session ${sessionId} —`);
    const session = chatSession(reverie, model, sessionId, () => {});
    for (const message of messages) {
      print(`you> ${message}`);
      const reply = await session.send(message);
      print(`agent> ${reply}`);
      replies.push(reply);
    }
    await session.end();
    if (index < SCRIPT.length - 1) await dreamBetweenSessions(reverie, print);
  }
  return replies;
}
