import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handlesAsProcesses } from '@reverie/dream-state/testing';
import { FileDreamStateStore } from '@reverie/file-store';
import { afterAll } from 'vitest';
import { describeDreamEngineConformance } from '../src/testing/dream-engine-conformance';

const root = mkdtempSync(join(tmpdir(), 'reverie-dream-engine-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The engine on the file dream state: each handle a process of its own on one host.
describeDreamEngineConformance('FileDreamStateStore', ({ clock, scope }) => {
  const dataPath = join(root, scope);
  return {
    ...handlesAsProcesses((process) => new FileDreamStateStore({ dataPath, clock, ...process })),
    dispose: () => rm(dataPath, { recursive: true, force: true }),
  };
});
