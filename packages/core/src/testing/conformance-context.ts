import { afterEach, beforeEach } from 'vitest';
import { ManualClock } from '../time/system-clock';

/** What the conformance kit hands a store factory. */
export interface ConformanceContext {
  /** Use this clock in the store: the kit moves it to test TTLs, ranges and timestamps. */
  clock: ManualClock;
  /**
   * A name unique to the running test. Every store the kit opens during one test gets the same
   * scope, so a persistent store keys its storage by it (a directory, a schema, a table prefix).
   */
  scope: string;
}

/** Makes a fresh store for one test. */
export type StoreFactory<T> = (context: ConformanceContext) => T | Promise<T>;

export interface ConformanceOptions {
  /**
   * Set when a store opened again with the same scope sees what the first one wrote (file and
   * database stores). Turns on the persistence cases, which close a store and reopen it.
   */
  persistent?: boolean;
  /**
   * Set when the store must implement the optional change feed (`changes`, `neighbours`, SPEC
   * B12). Without it, the feed cases run when the store has the methods and are skipped otherwise.
   */
  changeFeed?: boolean;
  /** Set when the store must keep a cold tier (SPEC B13, `store.tiers`). Without it, the tier cases run when the store has tiers and are skipped otherwise. */
  tiers?: boolean;
  /** Called after each test with its scope, to remove what the test left behind. */
  cleanup?: (scope: string) => void | Promise<void>;
}

/** The instant every conformance test starts at. */
export const CONFORMANCE_START = '2026-03-01T12:00:00.000Z';

let scopeCounter = 0;

/**
 * Registers hooks that give each test a context, open stores through the factory and close
 * them all after the test. Returns accessors for use inside `it` blocks.
 */
export function useStoreHarness<T extends { close(): Promise<void> }>(factory: StoreFactory<T>, options: ConformanceOptions) {
  let context: ConformanceContext | undefined;
  const opened: T[] = [];

  beforeEach(() => {
    scopeCounter += 1;
    context = {
      clock: new ManualClock(CONFORMANCE_START),
      scope: `conformance-${process.pid}-${Date.now().toString(36)}-${scopeCounter}`,
    };
  });

  afterEach(async () => {
    for (const store of opened.splice(0)) {
      await store.close().catch(() => undefined);
    }
    if (context && options.cleanup) await options.cleanup(context.scope);
  });

  const current = (): ConformanceContext => {
    if (!context) throw new Error('The conformance harness is used outside a test.');
    return context;
  };

  return {
    context: current,
    get clock(): ManualClock {
      return current().clock;
    },
    /** Opens a store through the factory; the harness closes it after the test. */
    async open(): Promise<T> {
      const store = await factory(current());
      opened.push(store);
      return store;
    },
    /** Closes `store` and opens a new one on the same scope (persistent stores only). */
    async reopen(store: T): Promise<T> {
      await store.close();
      const index = opened.indexOf(store);
      if (index >= 0) opened.splice(index, 1);
      return this.open();
    },
  };
}

/** Advances the clock by whole minutes/hours/days, for readable tests. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Names and paths that every validator must refuse, with what makes each one bad. */
export const HOSTILE_PATHS: ReadonlyArray<readonly [label: string, value: string]> = [
  ['parent traversal', '../../etc'],
  ['a ".." segment inside', 'notes/../../etc'],
  ['an absolute path', '/abs'],
  ['a backslash', 'a\\b'],
  ['an empty segment', 'a//b'],
  ['a trailing slash', 'a/b/'],
  ['a control character', 'con\u0000trol'],
  ['a newline', 'line\nbreak'],
  ['a leading dot', '.hidden'],
  ['500 characters', 'x'.repeat(500)],
  ['nothing at all', ''],
];
