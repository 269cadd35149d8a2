import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, RecordingLogger } from '@reverie/core';
import { dreamsDir, lockPath } from '../dream-state-paths';
import { DreamLock } from './dream-lock';
import { holdingLock } from '@reverie/dream-state';

let dataPath: string;
let clock: ManualClock;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-lock-'));
  clock = new ManualClock('2026-06-01T00:00:00.000Z');
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

const lock = (extra: Partial<ConstructorParameters<typeof DreamLock>[0]> = {}) => new DreamLock({ dataPath, clock, host: 'box', ...extra });

function writeForeignLock(holder: Record<string, unknown>): void {
  mkdirSync(dirname(lockPath(dataPath)), { recursive: true });
  writeFileSync(lockPath(dataPath), JSON.stringify(holder));
}

describe('DreamLock', () => {
  it('creates _system/dreams/lock holding pid, host, time and run, and removes it on release', async () => {
    const handle = await lock({ pid: 321, isProcessAlive: () => true }).acquire('run-1');
    const onDisk = JSON.parse(readFileSync(lockPath(dataPath), 'utf8'));
    expect(onDisk).toMatchObject({ pid: 321, host: 'box', acquiredAt: '2026-06-01T00:00:00.000Z', runId: 'run-1' });
    expect(await lock({ isProcessAlive: () => true }).state()).toMatchObject({
      status: 'held',
      holder: { pid: 321, runId: 'run-1' },
      stale: false,
    });
    await handle.release();
    await handle.release();
    expect(existsSync(lockPath(dataPath))).toBe(false);
    expect(readdirSync(dreamsDir(dataPath))).toEqual([]);
    expect(await lock().state()).toEqual({ status: 'free' });
  });

  it('refuses a second runner with LOCK_HELD naming the holder, in one process too', async () => {
    const first = await lock().acquire('run-1');
    const error = await lock()
      .acquire('run-2')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LOCK_HELD', details: { holder: { pid: process.pid, host: 'box', runId: 'run-1' } } });
    expect((error as Error).message).toContain('run run-1');
    await first.release();
    const second = await lock().acquire('run-2');
    await second.release();
  });

  it('is released by holdingLock even when the work throws', async () => {
    await expect(holdingLock(lock(), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lock().state()).toEqual({ status: 'free' });
    expect(await holdingLock(lock(), async (holder) => holder.runId, 'r9')).toBe('r9');
  });

  it("takes over another host's lock only after watching its heartbeat stand still for staleLockMinutes on its own clock", async () => {
    writeForeignLock({ pid: 1, host: 'other-box', acquiredAt: '2026-05-31T22:00:00.000Z', token: 'old' });
    writeFileSync(`${lockPath(dataPath)}.beat-old`, '7\n');
    const logger = new RecordingLogger();
    const watcher = lock({ logger });
    expect(await watcher.state()).toMatchObject({ status: 'held', stale: false });
    await expect(watcher.acquire()).rejects.toMatchObject({ code: 'LOCK_HELD' });
    // A wall-clock step is not time passing.
    clock.set('2026-06-01T05:00:00.000Z');
    await expect(watcher.acquire()).rejects.toMatchObject({ code: 'LOCK_HELD' });
    // A heartbeat that moves keeps the lock alive, however long it is held.
    clock.advance(50 * 60_000);
    writeFileSync(`${lockPath(dataPath)}.beat-old`, '8\n');
    await expect(watcher.acquire()).rejects.toMatchObject({ code: 'LOCK_HELD' });
    clock.advance(50 * 60_000);
    await expect(watcher.acquire()).rejects.toMatchObject({ code: 'LOCK_HELD' });
    clock.advance(11 * 60_000);
    expect(await watcher.state()).toMatchObject({
      status: 'held',
      stale: true,
      staleReason: expect.stringContaining('no heartbeat from other-box for over 60 minutes'),
    });
    const handle = await watcher.acquire('run-new');
    expect(handle.holder.runId).toBe('run-new');
    expect(JSON.parse(readFileSync(lockPath(dataPath), 'utf8')).runId).toBe('run-new');
    expect(logger.records.some((entry) => entry.message.includes('Took over a stale dream lock'))).toBe(true);
    await handle.release();
    expect(readdirSync(dreamsDir(dataPath))).toEqual([]);
  });

  it('takes over a fresh lock whose process is gone from this host, but not one of another host', async () => {
    writeForeignLock({ pid: 4242, host: 'box', acquiredAt: '2026-06-01T00:00:00.000Z', token: 'dead' });
    const isProcessAlive = (pid: number) => pid !== 4242;
    expect(await lock({ isProcessAlive }).state()).toMatchObject({ stale: true, staleReason: 'process 4242 is gone from box' });
    await (await lock({ isProcessAlive }).acquire()).release();

    rmSync(lockPath(dataPath), { force: true });
    writeForeignLock({ pid: 4242, host: 'elsewhere', acquiredAt: '2026-06-01T00:00:00.000Z', token: 'remote' });
    await expect(lock({ isProcessAlive }).acquire()).rejects.toMatchObject({ code: 'LOCK_HELD' });
  });

  it('never judges a live holder stale from a reader whose wall clock runs 2 hours ahead (SPEC B3)', async () => {
    const holder = await lock({ host: 'box-a' }).acquire('first-cycle');
    const ahead = new ManualClock('2026-06-01T02:00:00.000Z');
    const reader = new DreamLock({ dataPath, clock: ahead, host: 'box-b' });
    await expect(reader.acquire('second-cycle')).rejects.toMatchObject({ code: 'LOCK_HELD' });
    ahead.set('2026-06-01T09:00:00.000Z');
    await expect(reader.acquire('second-cycle')).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(JSON.parse(readFileSync(lockPath(dataPath), 'utf8')).runId).toBe('first-cycle');
    await holder.release();
  });

  it('renews a heartbeat file while held and removes it at release', async () => {
    const handle = await lock().acquire('run-1');
    const beat = `${lockPath(dataPath)}.beat-${handle.holder.token}`;
    expect(readFileSync(beat, 'utf8')).toBe('1\n');
    await handle.release();
    expect(existsSync(beat)).toBe(false);
  });

  it('treats an unreadable lock file as stale after a short wait', async () => {
    writeForeignLock({});
    writeFileSync(lockPath(dataPath), '');
    expect(await lock().state()).toMatchObject({ status: 'held', stale: true });
    const handle = await lock().acquire();
    expect(JSON.parse(readFileSync(lockPath(dataPath), 'utf8')).token).toBe(handle.holder.token);
    await handle.release();
  });

  it('lets only one of many in-process contenders take over the same stale lock', async () => {
    writeForeignLock({ pid: 4242, host: 'box', acquiredAt: '2026-05-30T00:00:00.000Z', token: 'old' });
    const isProcessAlive = (pid: number) => pid !== 4242;
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => lock({ isProcessAlive }).acquire(`run-${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'LOCK_HELD' });
    const winner = results.find((r) => r.status === 'fulfilled')!.value;
    expect(JSON.parse(readFileSync(lockPath(dataPath), 'utf8')).token).toBe(winner.holder.token);
    await winner.release();
    expect(readdirSync(dreamsDir(dataPath))).toEqual([]);
  });

  it('does not delete, at release, a lock that another runner took over meanwhile', async () => {
    const mine = await lock({ host: 'far-box' }).acquire('slow-run');
    const other = lock({ pid: 777, isProcessAlive: () => true });
    await expect(other.acquire('new-run')).rejects.toMatchObject({ code: 'LOCK_HELD' });
    clock.advance(2 * 60 * 60_000);
    const theirs = await other.acquire('new-run');
    await mine.release();
    expect(JSON.parse(readFileSync(lockPath(dataPath), 'utf8')).runId).toBe('new-run');
    await theirs.release();
    expect(await lock().state()).toEqual({ status: 'free' });
  });

  it('refuses a staleLockMinutes that is not a positive number', () => {
    for (const staleLockMinutes of [0, -1, Number.NaN]) {
      expect(() => lock({ staleLockMinutes })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    }
  });

  it('clears a take-over guard abandoned by a crash', async () => {
    writeForeignLock({ pid: 4242, host: 'box', acquiredAt: '2026-05-30T00:00:00.000Z', token: 'old' });
    writeFileSync(`${lockPath(dataPath)}.takeover-old`, JSON.stringify({ pid: 4242, host: 'box', acquiredAt: '2026-05-30T00:00:00.000Z' }));
    const handle = await lock({ isProcessAlive: (pid) => pid !== 4242 }).acquire();
    await handle.release();
    expect(readdirSync(dreamsDir(dataPath))).toEqual([]);
  });
});
