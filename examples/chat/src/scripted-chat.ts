import type { Reverie, WrappableModel } from 'reverie';
import { chatSession, dreamBetweenSessions } from './chat-session';

/** One stretch of conversation: a session's messages, then whether the session ends (and a dream runs). */
export interface ScriptStep {
  sessionId: string;
  messages: string[];
  /** The process restarts before this step: the instance is closed and the data directory opened again. */
  restartBefore?: boolean;
  /** The session ends after this step, and a dream cycle runs. */
  endAndDream?: boolean;
}

/**
 * Three sessions. Tuesday's peanut allergy, recalled for the snack question, stays in the model's
 * context on the next turn (about something sweet) and after a restart in the middle of the
 * session; the dream after it merges the two notes about metric units.
 */
export const SCRIPT: ScriptStep[] = [
  { sessionId: 'monday', messages: ['Remember: I prefer metric units.', 'Also remember: I am allergic to peanuts.'], endAndDream: true },
  {
    sessionId: 'tuesday',
    messages: [
      'Remember: I prefer metric units.',
      'Suggest a snack for my hike, keeping my peanut allergy in mind.',
      'And something sweet for later?',
    ],
  },
  { sessionId: 'tuesday', restartBefore: true, messages: ['One more idea for the train home?'], endAndDream: true },
  { sessionId: 'wednesday', messages: ['Which units do I prefer, and am I allergic to anything?'] },
];

/**
 * Plays `SCRIPT` with the instances `open` makes (one per process lifetime): the agent saves
 * memories, keeps them in context across turns and a restart, a dream merges the duplicate, a
 * later session recalls them. Returns the replies and the instance open at the end.
 */
export async function runScriptedChat(
  open: () => Reverie,
  model: WrappableModel,
  print: (line: string) => void,
): Promise<{ replies: string[]; reverie: Reverie }> {
  const replies: string[] = [];
  let reverie = open();
  let current: string | undefined;
  for (const step of SCRIPT) {
    if (step.restartBefore) {
      await reverie.close();
      reverie = open();
      print('~ restart: the process stops and a new one opens the same data directory');
    }
    if (current !== step.sessionId || step.restartBefore) print(`— session ${step.sessionId}${step.restartBefore ? ' (continued)' : ''} —`);
    current = step.sessionId;
    const session = chatSession(reverie, model, step.sessionId, () => {});
    for (const message of step.messages) {
      print(`you> ${message}`);
      const reply = await session.send(message);
      print(`agent> ${reply}`);
      replies.push(reply);
    }
    if (step.endAndDream) {
      await session.end();
      await dreamBetweenSessions(reverie, print);
    }
  }
  return { replies, reverie };
}
