import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryLongTermMemory, ManualClock, RecordingLogger } from '@reverie/core';
import { DreamEngine } from '../src/engine/dream-engine';
import type { DreamPass, DreamServices } from '../src/engine/dream-types';
import type { DreamLockStatus } from '@reverie/dream-state';
import { DreamLock, dreamsDir, lockPath, runsDir } from '@reverie/file-store/internal';
import { FileDreamStateStore } from '@reverie/file-store';

let dataPath: string;
let clock: ManualClock;
let services: DreamServices;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-engine-lock-'));
  clock = new ManualClock('2026-06-01T00:00:00.000Z');
  services = {
    dataPath,
    clock,
    state: new FileDreamStateStore({ dataPath, clock }),
    logger: new RecordingLogger(),
    memory: new InMemoryLongTermMemory({ clock }),
  };
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

/** A pass that records the lock's state while it plans. */
function watching(seen: DreamLockStatus[], engine: () => DreamEngine): DreamPass {
  return {
    name: 'importance-decay',
    phase: 'light-sleep',
    requires: [],
    model: 'none',
    async plan() {
      seen.push(await engine().lockState());
      return { operations: [], itemsProcessed: 0, notes: [], refusals: [] };
    },
  };
}

describe('the engine and the lock (SPEC O3)', () => {
  it('holds the lock for the whole run, naming the run, and releases it after', async () => {
    const seen: DreamLockStatus[] = [];
    const engine: DreamEngine = new DreamEngine(services, [watching(seen, () => engine)]);
    const report = await engine.run({ trigger: 'manual' });
    expect(seen).toEqual([{ status: 'held', holder: expect.objectContaining({ pid: process.pid, runId: report.runId }), stale: false }]);
    expect(await engine.lockState()).toEqual({ status: 'free' });
    expect(existsSync(lockPath(dataPath))).toBe(false);
  });

  it('refuses a run, an undo and a recovery while another runner holds the lock; a dry run still plans', async () => {
    const engine: DreamEngine = new DreamEngine(services, [watching([], () => engine)]);
    const done = await engine.run({ trigger: 'manual' });
    const other = await new DreamLock({ dataPath, clock }).acquire('other-run');
    await expect(engine.run({ trigger: 'manual' })).rejects.toMatchObject({
      code: 'LOCK_HELD',
      details: { holder: { runId: 'other-run' } },
    });
    await expect(engine.undo(done.runId)).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(await engine.recover()).toEqual([]);
    const dry = await engine.run({ trigger: 'manual', dryRun: true });
    expect(dry.passes).toHaveLength(1);
    await other.release();
    await engine.undo(done.runId);
  });

  it('releases the lock when a run throws', async () => {
    mkdirSync(dreamsDir(dataPath), { recursive: true });
    writeFileSync(runsDir(dataPath), 'a file where the run folders should be');
    const engine = new DreamEngine(services, []);
    await expect(engine.run({ trigger: 'manual' })).rejects.toThrow();
    expect(await engine.lockState()).toEqual({ status: 'free' });
  });

  it('lets a run take over the lock of a runner on another host whose heartbeat stood still for staleLockMinutes', async () => {
    await new DreamLock({ dataPath, clock, host: 'another-host' }).acquire('crashed-run');
    const state = new FileDreamStateStore({ dataPath, clock, staleLockMinutes: 30 });
    const engine: DreamEngine = new DreamEngine({ ...services, state }, [watching([], () => engine)]);
    await expect(engine.run({ trigger: 'schedule' })).rejects.toMatchObject({ code: 'LOCK_HELD' });
    clock.advance(31 * 60_000);
    expect(await engine.lockState()).toMatchObject({ status: 'held', stale: true });
    const report = await engine.run({ trigger: 'schedule' });
    expect(report.passes[0]).toMatchObject({ status: 'ok' });
  });
});
