import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { DreamStateStore } from '@reverie/dream-state';
import { describeDreamStateConformance, type DreamStateFactory } from '@reverie/dream-state/testing';
import { describeDreamEngineConformance } from '../testing/dream-engine-conformance';
import { FileDreamStateStore } from './file-dream-state-store';

const root = mkdtempSync(join(tmpdir(), 'reverie-dream-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Each handle is a process of its own on one host: a crash is its process being gone.
const onFiles: DreamStateFactory = ({ clock, scope }) => {
  const dataPath = join(root, scope);
  const alive = new Set<number>();
  const pids = new Map<DreamStateStore, number>();
  let nextPid = 4_000_000;
  return {
    async open() {
      const pid = nextPid++;
      alive.add(pid);
      const store = new FileDreamStateStore({ dataPath, clock, pid, host: 'conformance-host', isProcessAlive: (candidate) => alive.has(candidate) });
      pids.set(store, pid);
      return store;
    },
    async crash(store) {
      alive.delete(pids.get(store)!);
    },
    dispose: () => rm(dataPath, { recursive: true, force: true }),
  };
};
describeDreamStateConformance('FileDreamStateStore', onFiles);
describeDreamEngineConformance('FileDreamStateStore', onFiles);
