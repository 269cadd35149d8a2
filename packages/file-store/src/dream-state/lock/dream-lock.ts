import { hostname } from 'node:os';
import { link, mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type IClock, type ILogger, invalidOptions, newId, ReverieLockHeldError } from '@reverie/core';
import { monotonicMs } from '@reverie/core/internal';
import type { DreamLockHandle, DreamLockStatus, DreamStateLock } from '@reverie/dream-state';
import { lockPath } from '../dream-state-paths';
import { type LockHolder, lockHolderSchema } from '@reverie/dream-state';

export const DEFAULT_STALE_LOCK_MINUTES = 60;
/** How often a holder renews its heartbeat (at most; a quarter of the stale period when that is shorter). */
const HEARTBEAT_MS = 30_000;
/** A take-over guard is held for a few file operations; one this old was left by a crash. */
const GUARD_STALE_MS = 60_000;
const MAX_ATTEMPTS = 50;

export interface DreamLockOptions {
  dataPath: string;
  clock: IClock;
  /**
   * A lock of another host whose heartbeat this process has watched stand still for this long,
   * on its own monotonic clock, may be taken over (default 60).
   */
  staleLockMinutes?: number;
  logger?: ILogger;
  /** This process, as the lock file records it (defaults: `process.pid`, `os.hostname()`). */
  pid?: number;
  host?: string;
  /** Whether a process of this host is alive (default: `process.kill(pid, 0)`). */
  isProcessAlive?: (pid: number) => boolean;
}

/**
 * One runner per data directory, across processes (SPEC O3): the file
 * `_system/dreams/lock`, created with the `wx` flag (fails when it exists) and holding who took
 * it (host, pid, start, run). While held, the holder renews a heartbeat in
 * `_system/dreams/lock.beat-<token>` (a counter, every 30 s at most).
 *
 * A lock is taken over only when its holder is provably gone: on the same host, its process is
 * not alive; on another host, its heartbeat has not moved for `staleLockMinutes` as measured by
 * this process's own monotonic clock from when it first saw that heartbeat value. Two machines'
 * wall clocks are never compared, so a reader whose clock runs hours ahead (or steps) cannot
 * judge a live holder stale. Taking over is serialised by a guard file named after the stale holder's token (also
 * created with `wx`): only the guard's winner moves the stale file aside, after checking it is
 * still the same one, and every contender then races on `wx` again — exactly one wins.
 */
export class DreamLock implements DreamStateLock {
  readonly path: string;
  private readonly clock: IClock;
  private readonly staleMs: number;
  private readonly logger: ILogger | undefined;
  private readonly pid: number;
  private readonly host: string;
  private readonly isProcessAlive: (pid: number) => boolean;
  private readonly heartbeatMs: number;
  /** Per lock (token) or guard seen, the heartbeat value last read and the monotonic time it was first seen. */
  private readonly observations = new Map<string, { beat: string; since: number }>();
  /** The handles of the locks this object took and has not released yet. */
  private readonly held = new Set<DreamLockHandle>();

  constructor(options: DreamLockOptions) {
    const staleLockMinutes = options.staleLockMinutes ?? DEFAULT_STALE_LOCK_MINUTES;
    if (!(Number.isFinite(staleLockMinutes) && staleLockMinutes > 0)) {
      throw invalidOptions(`staleLockMinutes must be a positive number of minutes, not ${String(staleLockMinutes)}.`, [
        { path: 'staleLockMinutes', message: 'must be a positive number of minutes' },
      ]);
    }
    this.path = lockPath(options.dataPath);
    this.clock = options.clock;
    this.staleMs = staleLockMinutes * 60_000;
    this.logger = options.logger;
    this.pid = options.pid ?? process.pid;
    this.host = options.host ?? hostname();
    this.isProcessAlive = options.isProcessAlive ?? processAlive;
    this.heartbeatMs = Math.min(HEARTBEAT_MS, this.staleMs / 4);
  }

  /** Takes the lock or throws LOCK_HELD naming the holder. */
  async acquire(runId?: string): Promise<DreamLockHandle> {
    await mkdir(dirname(this.path), { recursive: true });
    let unreadableSeen = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const holder: LockHolder = {
        pid: this.pid,
        host: this.host,
        acquiredAt: this.clock.now().toISOString(),
        ...(runId === undefined ? {} : { runId }),
        token: newId(),
      };
      if (await createExclusive(this.path, `${JSON.stringify(holder)}\n`)) return this.handle(holder);

      const current = await readLockFile(this.path);
      if (current.kind === 'gone') continue;
      if (current.kind === 'unreadable' && unreadableSeen++ < 5) {
        // Its creator may be between `open` and `write`: give it a moment.
        await sleep(20);
        continue;
      }
      const verdict =
        current.kind === 'held' ? await this.judge(current.holder) : ({ stale: true, reason: 'the lock file is unreadable' } as const);
      if (!verdict.stale) throw this.heldError(current.kind === 'held' ? current.holder : undefined);
      await this.takeOver(current, verdict.reason);
    }
    const last = await readLockFile(this.path);
    throw this.heldError(last.kind === 'held' ? last.holder : undefined);
  }

  /** Releases every lock this object holds (a store being closed). */
  async close(): Promise<void> {
    await Promise.all([...this.held].map((handle) => handle.release()));
  }

  /** Whether the lock is free or held, by whom, and whether it could be taken over. */
  async state(): Promise<DreamLockStatus> {
    const current = await readLockFile(this.path);
    if (current.kind === 'gone') return { status: 'free' };
    if (current.kind === 'unreadable') {
      return {
        status: 'held',
        holder: { pid: 0, host: 'unknown', acquiredAt: 'unknown' },
        stale: true,
        staleReason: 'the lock file is unreadable',
      };
    }
    const verdict = await this.judge(current.holder);
    return { status: 'held', holder: current.holder, stale: verdict.stale, ...(verdict.stale ? { staleReason: verdict.reason } : {}) };
  }

  private async judge(holder: LockHolder): Promise<{ stale: false } | { stale: true; reason: string }> {
    if (holder.host === this.host) {
      return this.isProcessAlive(holder.pid)
        ? { stale: false }
        : { stale: true, reason: `process ${holder.pid} is gone from ${holder.host}` };
    }
    const key = `lock:${holder.token ?? `${holder.pid}-${holder.acquiredAt}`}`;
    const beat = holder.token === undefined ? '' : ((await readFile(this.beatPath(holder.token), 'utf8').catch(() => undefined)) ?? '');
    if (this.stillFor(key, beat) < this.staleMs) return { stale: false };
    return {
      stale: true,
      reason: `no heartbeat from ${holder.host} for over ${Math.round(this.staleMs / 60_000)} minutes, watched from this process (staleLockMinutes)`,
    };
  }

  /** How long, on this process's monotonic clock, `key` has shown the value `beat`. */
  private stillFor(key: string, beat: string): number {
    const now = monotonicMs(this.clock);
    const seen = this.observations.get(key);
    if (seen === undefined || seen.beat !== beat) {
      this.observations.set(key, { beat, since: now });
      return 0;
    }
    return now - seen.since;
  }

  private beatPath(token: string): string {
    return `${this.path}.beat-${token}`;
  }

  /**
   * Moves a stale lock file aside. The guard `<lock>.takeover-<token>` admits one contender per
   * stale lock; that one re-reads the lock and moves it only if it is still the stale one (a
   * token is never reused, so a lock that has changed since is never moved by mistake).
   */
  private async takeOver(stale: Exclude<LockFile, { kind: 'gone' }>, reason: string): Promise<void> {
    const key = stale.kind === 'held' ? (stale.holder.token ?? `${stale.holder.pid}-${Date.parse(stale.holder.acquiredAt)}`) : 'unreadable';
    const guard = `${this.path}.takeover-${key}`;
    const guardHolder = { pid: this.pid, host: this.host, acquiredAt: this.clock.now().toISOString() };
    if (!(await createExclusive(guard, `${JSON.stringify(guardHolder)}\n`))) {
      await this.clearAbandonedGuard(guard);
      await sleep(5 + Math.random() * 20);
      return;
    }
    try {
      const again = await readLockFile(this.path);
      if (again.kind === 'gone' || again.raw !== stale.raw) return;
      const aside = `${this.path}.stale-${newId()}`;
      await rename(this.path, aside);
      const moved = await readLockFile(aside);
      if (moved.kind !== 'gone' && moved.raw !== stale.raw) {
        // Only a release by the stale holder itself can get here: put back what we moved.
        await link(aside, this.path).catch(() => undefined);
      } else {
        this.logger?.warn('Took over a stale dream lock.', {
          lock: this.path,
          reason,
          holder: stale.kind === 'held' ? stale.holder : undefined,
        });
        if (stale.kind === 'held' && stale.holder.token !== undefined)
          await unlink(this.beatPath(stale.holder.token)).catch(() => undefined);
      }
      await unlink(aside).catch(() => undefined);
    } finally {
      await unlink(guard).catch(() => undefined);
    }
  }

  /** A guard whose holder crashed mid take-over would block every later one: remove it. */
  private async clearAbandonedGuard(guard: string): Promise<void> {
    const text = await readFile(guard, 'utf8').catch(() => undefined);
    if (text === undefined) return;
    const parsed = lockHolderSchema.safeParse(safeJson(text));
    // Same host: its process is gone. Otherwise: unchanged for a minute on this process's own clock.
    const abandoned =
      parsed.success && parsed.data.host === this.host
        ? !this.isProcessAlive(parsed.data.pid)
        : this.stillFor(`guard:${guard}`, text) > GUARD_STALE_MS;
    if (abandoned) await unlink(guard).catch(() => undefined);
  }

  /** The handle of a lock just taken; it renews the heartbeat until released. */
  private async handle(holder: LockHolder): Promise<DreamLockHandle> {
    let released = false;
    let beats = 0;
    const beatFile = this.beatPath(holder.token!);
    const beat = () =>
      writeFile(beatFile, `${++beats}\n`).catch((error: unknown) => {
        this.logger?.warn('Could not renew the dream lock heartbeat; another host may take the lock over if this persists.', {
          lock: this.path,
          error: String(error),
        });
      });
    await beat();
    const timer = setInterval(() => void beat(), this.heartbeatMs);
    timer.unref();
    const handle: DreamLockHandle = {
      holder,
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(handle);
        clearInterval(timer);
        await this.release(holder);
        await unlink(beatFile).catch(() => undefined);
      },
    };
    this.held.add(handle);
    return handle;
  }

  /** Moves the lock aside and deletes it if it is still ours; puts back a lock that is not. */
  private async release(holder: LockHolder): Promise<void> {
    const aside = `${this.path}.release-${holder.token}`;
    try {
      await rename(this.path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.logger?.warn('The dream lock was gone at release: another runner took it over as stale.', { lock: this.path, holder });
      return;
    }
    const moved = await readLockFile(aside);
    if (moved.kind === 'held' && moved.holder.token === holder.token) {
      await unlink(aside);
      return;
    }
    this.logger?.warn('The dream lock had been taken over by another runner; it is left to that runner.', { lock: this.path, holder });
    await link(aside, this.path).catch((error: unknown) => {
      this.logger?.error('Could not put back the dream lock of another runner.', { lock: this.path, error: String(error) });
    });
    await unlink(aside).catch(() => undefined);
  }

  private heldError(holder: LockHolder | undefined): ReverieLockHeldError {
    const who = holder
      ? `process ${holder.pid} on ${holder.host} since ${holder.acquiredAt}${holder.runId ? ` (run ${holder.runId})` : ''}`
      : 'another runner';
    return new ReverieLockHeldError(
      `Another dream run holds ${this.path}: ${who}. Wait for it to finish; the lock is taken over automatically once its holder is gone (its process ended on this host, or its heartbeat stood still for ${Math.round(this.staleMs / 60_000)} minutes).`,
      { details: { lock: this.path, ...(holder ? { holder } : {}) } },
    );
  }
}

type LockFile = { kind: 'gone' } | { kind: 'unreadable'; raw: string } | { kind: 'held'; raw: string; holder: LockHolder };

async function readLockFile(path: string): Promise<LockFile> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw error;
  }
  const parsed = lockHolderSchema.safeParse(safeJson(raw));
  return parsed.success ? { kind: 'held', raw, holder: parsed.data } : { kind: 'unreadable', raw };
}

/** Creates `path` with `content` unless it exists (`wx`); false when it exists. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
