import { rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ILogger, WorkingMemoryEntry } from '@reverie/core';
import { isTemporaryFile } from '../fs/atomic-write';
import type { DirectoryLock } from '../fs/directory-lock';
import { type GroupFiles, groupOf, sameStamp } from './group-files';
import type { WorkingMemoryGroups } from './working-memory-groups';

/** Reads look at the files for other processes' changes at most this often. */
const REFRESH_INTERVAL_MS = 250;

/** Group files a refresh checks (one synchronous `stat` each) before it yields to the event loop. */
const STAT_SLICE = 200;

/**
 * Keeps the groups this process holds in step with their files, which several processes may
 * share: reads bring a scope up to date at most every 250 ms (a group's file is re-read when its
 * inode, size or times changed), a write replaces a group's file and state together under the
 * directory lock, files of the older per-kind layout are split on the way, and the sweep rewrites
 * the files that still hold expired or invalid entries.
 */
export class GroupSync {
  private loaded = false;
  /** Per scope ('' for every group, a kind such as `patrol`, or a group such as `session/abc`), when a read last brought it up to date. */
  private readonly refreshedAt = new Map<string, number>();
  /** Per scope, the refresh under way, which concurrent reads of that scope share. */
  private readonly refreshing = new Map<string, Promise<void>>();

  constructor(
    private readonly groups: WorkingMemoryGroups,
    private readonly files: GroupFiles,
    private readonly lock: DirectoryLock,
    private readonly logger: ILogger,
  ) {}

  async ensureLoaded(): Promise<void> {
    if (!this.loaded) await this.refresh(true);
  }

  /**
   * Brings the groups of `scope` up to date with their files: every group (''), the groups of
   * one kind (`patrol`), or one group (`session/abc`). Skipped when that scope, or one holding
   * it, was brought up to date a moment ago, unless forced; concurrent reads share one refresh.
   */
  async refresh(force = false, scope = ''): Promise<void> {
    const started = performance.now();
    if (!force && this.loaded && started - this.lastRefreshOf(scope) < REFRESH_INTERVAL_MS) return;
    const running = this.refreshing.get(scope);
    if (running) return running;
    const work = this.refreshScope(scope).then(() => {
      if (scope === '') this.loaded = true;
      this.refreshedAt.set(scope, started);
    });
    const shared = work.finally(() => this.refreshing.delete(scope));
    this.refreshing.set(scope, shared);
    return shared;
  }

  /**
   * Re-reads a group's file when it changed since this process last read or wrote it. A file
   * that cannot be read is quarantined, which is only done under the lock: without it, another
   * process's fresh file could be the one moved away. The file is `stat`ed synchronously, before
   * the first `await` (see `refreshScope`).
   */
  async syncGroup(name: string, locked: boolean): Promise<void> {
    const file = this.files.fileOf(name);
    const before = this.groups.get(name);
    if (sameStamp(this.files.stampOf(name), this.groups.get(name)?.stamp)) return;
    const read = await this.files.read(name);
    // Without the lock, a write of this process may have replaced the group while the file was
    // read: its state is at least as new as what was read, so it stays.
    if (!locked && this.groups.get(name) !== before) return;
    if (read.kind === 'read') {
      this.groups.replace(name, read.entries, read.stamp, read.stale);
      return;
    }
    if (read.kind === 'missing') {
      this.groups.replace(name, new Map(), undefined, false);
      return;
    }
    if (!locked) {
      await this.lock.run(() => this.syncGroup(name, true));
      return;
    }
    try {
      await this.files.quarantine(file, read.reason);
      this.groups.replace(name, new Map(), undefined, false);
    } catch (error) {
      // Left in place, the file is overwritten by the next write to its group.
      this.logger.error(`Could not move an unreadable working-memory file to quarantine; its group starts empty.`, {
        file,
        reason: read.reason,
        error: String(error),
      });
      this.groups.replace(name, new Map(), read.stamp, false);
    }
  }

  /** Writes a group's file (under the lock) and makes `entries` the group's state. */
  async writeGroup(name: string, entries: Map<string, WorkingMemoryEntry>): Promise<void> {
    const stamp = await this.files.write(name, entries);
    this.groups.replace(name, entries, stamp, false);
  }

  /** Drops expired entries from memory and rewrites the files that still hold any. */
  async sweep(): Promise<number> {
    await this.refresh(true);
    const dropped = this.groups.dropExpired();
    const staleGroups = this.groups.staleNames();
    const temporaryFiles = this.files.list().filter((file) => isTemporaryFile(file.slice(file.lastIndexOf('/') + 1)));
    if (staleGroups.length === 0 && temporaryFiles.length === 0) return dropped;
    await this.lock.run(async () => {
      for (const name of staleGroups) {
        await this.syncGroup(name, true);
        if (this.groups.get(name)?.stale) await this.writeGroup(name, this.groups.liveCopy(name));
      }
      // Every write in this directory happens under the lock we hold: a temporary file now is
      // left over from a process that died mid-write.
      for (const file of temporaryFiles) await rm(join(this.files.dir, ...file.split('/')), { force: true });
    });
    return dropped;
  }

  private lastRefreshOf(scope: string): number {
    const kind = scope.split('/')[0]!;
    return Math.max(
      this.refreshedAt.get('') ?? -Infinity,
      this.refreshedAt.get(kind) ?? -Infinity,
      this.refreshedAt.get(scope) ?? -Infinity,
    );
  }

  /**
   * The checks are synchronous `stat`s (and a synchronous listing of the kind's folder): a read
   * whose files did not change answers without a round trip through the thread pool, where it
   * would wait behind other stores' file work (the conversation log's fsyncs, the recall events'
   * appends) and then for a turn of a busy event loop. A large scope yields between slices.
   */
  private async refreshScope(scope: string): Promise<void> {
    const inScope = (name: string) => scope === '' || name === scope || name.startsWith(`${scope}/`);
    const names = new Set(this.groups.namesIn(scope));
    const legacy: string[] = [];
    for (const file of this.files.list(scope)) {
      if (file.startsWith('.') || file.includes('/.') || !file.endsWith('.json')) continue;
      if (file.includes('/')) {
        const name = file.slice(0, -'.json'.length);
        if (inScope(name)) names.add(name);
      } else legacy.push(file);
    }
    if (legacy.length > 0)
      await this.lock.run(async () => {
        for (const file of legacy) for (const name of await this.migrateLegacyFile(file)) if (inScope(name)) names.add(name);
      });
    const syncs: Promise<void>[] = [];
    for (const name of names) {
      if (syncs.length > 0 && syncs.length % STAT_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      syncs.push(this.syncGroup(name, false));
    }
    await Promise.all(syncs);
  }

  /**
   * Splits a file of the one-file-per-kind layout (`session.json`) into namespace files, under
   * the lock. Entries already in a namespace file win over the legacy copy. The legacy file is
   * removed only after every namespace file is written, so a crash in between migrates again.
   */
  private async migrateLegacyFile(file: string): Promise<string[]> {
    const path = join(this.files.dir, file);
    const kind = file.slice(0, -'.json'.length);
    const read = await this.files.read(kind, path, (key) => key.slice(0, key.indexOf('/')).toLowerCase() === kind);
    if (read.kind === 'missing') return [];
    if (read.kind === 'unreadable') {
      await this.files.quarantine(path, read.reason);
      return [];
    }
    const byGroup = new Map<string, WorkingMemoryEntry[]>();
    for (const entry of read.entries.values()) byGroup.set(groupOf(entry.key), [...(byGroup.get(groupOf(entry.key)) ?? []), entry]);
    for (const [name, entries] of byGroup) {
      await this.syncGroup(name, true);
      const merged = new Map<string, WorkingMemoryEntry>();
      for (const entry of entries) merged.set(entry.key, entry);
      for (const [key, entry] of this.groups.liveCopy(name)) {
        merged.delete(key);
        merged.set(key, entry);
      }
      await this.writeGroup(name, merged);
    }
    await unlink(path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
    this.logger.info('Split a working-memory file of the older layout into one file per namespace.', {
      file: path,
      namespaces: byGroup.size,
    });
    return [...byGroup.keys()];
  }
}
