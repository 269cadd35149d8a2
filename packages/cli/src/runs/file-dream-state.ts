import { systemClock } from '@reverie/core';
import { type DreamStateStore, FileDreamStateStore } from '@reverie/dream';

/** The dream state of a data directory, for the commands that read runs without building a Reverie. */
export function fileDreamState(dataPath: string): DreamStateStore {
  return new FileDreamStateStore({ dataPath, clock: systemClock });
}
