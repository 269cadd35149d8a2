import type { IClock } from '../interfaces/clock';

/** Options every in-memory store accepts. */
export interface InMemoryStoreOptions {
  /** Where timestamps come from (default: the system clock). */
  clock?: IClock;
}
