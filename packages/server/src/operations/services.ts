import { invalidOptions, type ISkillStore, type IWorkingMemory } from '@reverie/core';
import type { Reverie, ReverieMemory } from 'reverie';

/** The served Reverie's long-term memory; INVALID_OPTIONS when it was built without one. */
export function memoryOf(reverie: Reverie): ReverieMemory {
  if (reverie.memory === undefined) {
    throw invalidOptions('This Reverie has no long-term memory: build it with .withMemory() to serve the memory operations.', [
      { path: 'withMemory', message: 'not configured' },
    ]);
  }
  return reverie.memory;
}

/** The served Reverie's skill library; INVALID_OPTIONS when it was built without one. */
export function skillsOf(reverie: Reverie): ISkillStore {
  if (reverie.skills === undefined) {
    throw invalidOptions('This Reverie has no skill library: build it with .withSkills() to serve the skill operations.', [
      { path: 'withSkills', message: 'not configured' },
    ]);
  }
  return reverie.skills;
}

/** The served Reverie's working memory; INVALID_OPTIONS when it was built without one. */
export function workingMemoryOf(reverie: Reverie): IWorkingMemory {
  if (reverie.workingMemory === undefined) {
    throw invalidOptions('This Reverie has no working memory: build it with .withWorkingMemory() to serve the working-memory operations.', [
      { path: 'withWorkingMemory', message: 'not configured' },
    ]);
  }
  return reverie.workingMemory;
}
