import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeDreamStateConformance, handlesAsProcesses } from '@reverie/dream-state/testing';
import { FileDreamStateStore } from './file-dream-state-store';

const root = mkdtempSync(join(tmpdir(), 'reverie-dream-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Each handle is a process of its own on one host: a crash is its process being gone.
describeDreamStateConformance('FileDreamStateStore', ({ clock, scope }) => {
  const dataPath = join(root, scope);
  return {
    ...handlesAsProcesses((process) => new FileDreamStateStore({ dataPath, clock, ...process })),
    dispose: () => rm(dataPath, { recursive: true, force: true }),
  };
});
