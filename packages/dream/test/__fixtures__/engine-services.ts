import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryLongTermMemory, ManualClock, RecordingLogger } from '@reverie/core';
import type { DreamPass, DreamServices } from '../../src/engine/dream-types';
import { FileDreamStateStore } from '@reverie/file-store';

/**
 * What the engine tests run a cycle with: a fresh data directory (named `prefix…`, for the caller
 * to remove), a clock at 2026-06-01, an in-memory store on it, file dream state and a recording logger.
 */
export function freshEngineServices(prefix: string): {
  dataPath: string;
  clock: ManualClock;
  memory: InMemoryLongTermMemory;
  services: DreamServices;
} {
  const dataPath = mkdtempSync(join(tmpdir(), prefix));
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');
  const memory = new InMemoryLongTermMemory({ clock });
  return {
    dataPath,
    clock,
    memory,
    services: { dataPath, clock, state: new FileDreamStateStore({ dataPath, clock }), logger: new RecordingLogger(), memory },
  };
}

/** A rem-phase pass (named episode-extraction) whose plan throws "model exploded". */
export const failingPass: DreamPass = {
  name: 'episode-extraction',
  phase: 'rem',
  requires: ['memory'],
  model: 'none',
  async plan() {
    throw new Error('model exploded');
  },
};
