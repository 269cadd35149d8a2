import { afterEach, beforeEach } from 'vitest';
import { ManualClock } from '@reverie/core';
import type { DreamStateStore } from '../dream-state-store';

/** The instant every dream-state conformance test starts at. */
export const DREAM_STATE_START = '2026-03-01T12:00:00.000Z';

/** What the kit hands a factory: one test's clock and a scope name unique to the test. */
export interface DreamStateContext {
  clock: ManualClock;
  scope: string;
}

/** One test's scope, as the factory opens it. */
export interface DreamStateScope {
  /**
   * Opens a store on this test's scope. Every call is a new handle, as another process or another
   * machine would open it: what one handle wrote, another reads.
   */
  open(): Promise<DreamStateStore>;
  /**
   * Makes the holder behind `store` gone the way a crash would (its process killed, its
   * connection dropped) without releasing anything, so another handle may take the lock over.
   */
  crash(store: DreamStateStore): Promise<void>;
  /** Removes what the test left behind (called after the test, once every store is closed). */
  dispose?(): Promise<void>;
}

export type DreamStateFactory = (context: DreamStateContext) => DreamStateScope | Promise<DreamStateScope>;

let scopes = 0;

/** One test's dream state as a suite sees it: its clock, new handles on its scope, and a crash. */
export interface DreamStateHarness {
  /** The test's clock (a new one per test). */
  clock(): ManualClock;
  /** A new handle on the test's scope, closed after the test. */
  open(): Promise<DreamStateStore>;
  /** See `DreamStateScope.crash`. */
  crash(store: DreamStateStore): Promise<void>;
  /** The clock's time, moved by `offsetMs`, as an ISO string. */
  iso(offsetMs?: number): string;
}

/**
 * Registers the hooks that give each test of the calling `describe` a clock at
 * `DREAM_STATE_START` and a scope of its own from `factory`, and close what it opened: what the
 * conformance suites of the dream state (`describeDreamStateConformance`) and of the engine on it
 * (`describeDreamEngineConformance` in `@reverie/dream/testing`) share.
 */
export function useDreamStateScope(factory: DreamStateFactory): DreamStateHarness {
  let clock: ManualClock;
  let scope: DreamStateScope | undefined;
  const opened: DreamStateStore[] = [];

  beforeEach(async () => {
    scopes += 1;
    clock = new ManualClock(DREAM_STATE_START);
    scope = await factory({ clock, scope: `dream-state-${process.pid}-${Date.now().toString(36)}-${scopes}` });
  });

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close().catch(() => undefined);
    await scope?.dispose?.();
  });

  return {
    clock: () => clock,
    open: async () => {
      const store = await scope!.open();
      opened.push(store);
      return store;
    },
    crash: (store) => scope!.crash(store),
    iso: (offsetMs = 0) => new Date(clock.now().getTime() + offsetMs).toISOString(),
  };
}

/** A process as a store whose lock records its holder's process sees it (`FileDreamStateStore`'s options). */
export interface SimulatedProcess {
  pid: number;
  host: string;
  isProcessAlive(pid: number): boolean;
}

/**
 * `open` and `crash` for a store whose lock names its holder's process: each handle is a process
 * of its own on one host, and a crash is that process being gone.
 */
export function handlesAsProcesses(open: (process: SimulatedProcess) => DreamStateStore): Pick<DreamStateScope, 'open' | 'crash'> {
  const alive = new Set<number>();
  const pids = new Map<DreamStateStore, number>();
  let nextPid = 4_000_000;
  return {
    async open() {
      const pid = nextPid++;
      alive.add(pid);
      const store = open({ pid, host: 'conformance-host', isProcessAlive: (candidate) => alive.has(candidate) });
      pids.set(store, pid);
      return store;
    },
    async crash(store) {
      alive.delete(pids.get(store)!);
    },
  };
}
