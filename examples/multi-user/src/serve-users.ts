import type { ReverieScopes } from 'reverie';

/** What one user said in one session: the agent remembers it and is asked about it later. */
export interface UserStory {
  scope: string;
  remember: string[];
  ask: string;
}

export interface UserOutcome {
  scope: string;
  /** What the agent's context showed for the question (the profile and the session memory). */
  recalled: string[];
  /** What the user's dream cycle did to their memory: entries before and after. */
  entriesBefore: number;
  entriesAfter: number;
  runId: string;
}

/**
 * Serves each user's agent from the same `scopes`: their memories go into their own scope, a
 * turn recalls only theirs, and each user's dream cycle (here the model-free passes: duplicates
 * merged by the host) runs on their memory alone, under their own lock.
 */
export async function serveUsers(scopes: ReverieScopes, stories: readonly UserStory[]): Promise<UserOutcome[]> {
  // Requests of different users interleave, as in a server: all of them at once.
  await Promise.all(
    stories.map(async ({ scope, remember }) => {
      const reverie = scopes.get(scope);
      for (const content of remember) await reverie.memory!.save({ content, category: 'user-preferences' });
    }),
  );
  return Promise.all(
    stories.map(async ({ scope, ask }) => {
      const reverie = scopes.get(scope);
      const context = await reverie.context.forTurn({ sessionId: `${scope}/session-1`, message: ask });
      // Their preferences are pinned (user-preferences/): the profile shows them; the rest is the session memory.
      const shown = [...context.profileIds, ...context.sessionMemoryIds];
      const recalled = await Promise.all(shown.map(async (id) => (await reverie.memory!.get(id))?.content ?? ''));
      const entriesBefore = (await reverie.memory!.list()).length;
      const report = await reverie.dreams.run();
      const entriesAfter = (await reverie.memory!.list()).length;
      return { scope, recalled, entriesBefore, entriesAfter, runId: report.runId };
    }),
  );
}

/** Two users who happen to say similar things: neither ever sees the other's memory. */
export const STORIES: readonly UserStory[] = [
  {
    scope: 'user:alice',
    remember: ['Alice prefers answers in metric units.', 'alice prefers answers in metric units', 'Alice is vegetarian.'],
    ask: 'Which units do I like, and what do I eat?',
  },
  {
    scope: 'user:bob',
    remember: ['Bob prefers answers in imperial units.', 'Bob is allergic to peanuts.'],
    ask: 'Which units do I like, and what should I avoid eating?',
  },
];
