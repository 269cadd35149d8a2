import { readdirSync, type Stats, statSync } from 'node:fs';
import { open, rm, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import {
  assertOpen,
  Bm25Index,
  DEFAULT_MAX_ENTRIES_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_TTL_MS,
  describeIssues,
  type IClock,
  type ILogger,
  isUnderPrefix,
  type IWorkingMemory,
  MAX_WORKING_MEMORY_TTL_MS,
  MAX_WORKING_MEMORY_VALUE_LENGTH,
  monotonicMs,
  namespaceOf,
  parseRecord,
  fileSystemError,
  internalError,
  ReverieValidationError,
  silentLogger,
  systemClock,
  validateWorkingMemoryKey,
  type WorkingMemoryEntry,
  workingMemoryDocumentText,
  workingMemoryEntrySchema,
  type WorkingMemorySearchQuery,
  type WorkingMemorySearchResult,
  parseWorkingMemoryQuery,
  type WorkingMemorySetOptions,
  buildWorkingMemoryEntry,
  type HybridRecallOptions,
} from '@reverie/core';
import type { VectorSearchOptions } from '../embeddings/vector-search-options';
import { type HybridSearch, hashedFileStem, hybridSearchOf } from '../embeddings/hybrid-search';
import { isTemporaryFile, writeFileAtomic } from '../fs/atomic-write';
import { DirectoryLock } from '../fs/directory-lock';
import { quarantineFile, quarantineRecords } from '../fs/quarantine';
import { SerialQueue } from '../fs/serial-queue';
import { validateStoreOptions } from '../options/validate-store-options';

export interface FileWorkingMemoryOptions extends HybridRecallOptions, VectorSearchOptions {
  /** The agent's data directory; entries live in `<dataPath>/working-memory/<kind>/<id>.json`, one file per namespace. */
  dataPath: string;
  clock?: IClock;
  logger?: ILogger;
  /** TTL of an entry saved without one, in ms (default 5 minutes). */
  defaultTtlMs?: number;
  /** Most entries one namespace holds; saving past it evicts the oldest (default 50). */
  maxEntriesPerNamespace?: number;
  /** How often expired entries are dropped from the files, in ms (default 1 hour; 0 turns it off). */
  sweepIntervalMs?: number;
  /** Most characters of values one namespace holds; a save past it is INVALID_INPUT (default 8,000,000). */
  maxCharsPerNamespace?: number;
}

export const DEFAULT_MAX_CHARS_PER_NAMESPACE = 8_000_000;

export const DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The longest delay `setInterval` accepts; anything longer silently becomes 1 ms. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

/** Reads look at the files for other processes' changes at most this often. */
const REFRESH_INTERVAL_MS = 250;

/** Group files a refresh checks (one synchronous `stat` each) before it yields to the event loop. */
const STAT_SLICE = 200;

const GROUP_FILE_VERSION = 1;

const workingMemoryOptionsSchema = z
  .object({
    clock: z.custom<IClock>((value) => typeof (value as IClock | null)?.now === 'function', 'must be an IClock with a now() method').optional(),
    logger: z
      .custom<ILogger>((value) => typeof (value as ILogger | null)?.warn === 'function', 'must be an ILogger with debug/info/warn/error methods')
      .optional(),
    defaultTtlMs: z.number().int().positive().max(MAX_WORKING_MEMORY_TTL_MS).optional(),
    maxEntriesPerNamespace: z.number().int().positive().max(100_000).optional(),
    maxCharsPerNamespace: z.number().int().min(MAX_WORKING_MEMORY_VALUE_LENGTH).max(1_000_000_000).optional(),
    sweepIntervalMs: z.number().int().min(0).max(MAX_TIMER_DELAY_MS).optional(),
  })
  .loose();

/** One group file: the live entries whose key starts with the group's segment, oldest first. */
const groupFileSchema = z.object({
  schemaVersion: z.literal(GROUP_FILE_VERSION),
  entries: z.array(z.unknown()),
});

/** What a group file looked like when this process last read or wrote it. */
interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

interface Group {
  /** Entries in the order they were stored (ties in storedAt evict the first stored). */
  entries: Map<string, WorkingMemoryEntry>;
  stamp: FileStamp | undefined;
  /** The file still holds records this process dropped (expired or invalid): the next sweep rewrites it. */
  stale: boolean;
}

type GroupFileRead =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string; stamp: FileStamp }
  | { kind: 'read'; entries: Map<string, WorkingMemoryEntry>; stamp: FileStamp; stale: boolean };

/**
 * The default `IWorkingMemory` (SPEC M7), with the reference store's behaviour and files on disk:
 * one file per namespace (the first two segments of a key), `<dataPath>/working-memory/<kind>/<id>.json`
 * (`session/abc123.json`, `patrol/inbox.json`), rewritten atomically on every change and holding
 * only its live entries, so one session's large entries never slow another's writes. Files of
 * the older one-file-per-kind layout (`session.json`) are split into namespace files on load.
 *
 * - Time to live and the per-namespace cap survive wall-clock steps: an entry's expiry is counted
 *   on the clock's monotonic basis from when this process saved or first read it, and the cap
 *   evicts in the order entries were stored, never by comparing timestamps.
 *
 * - Loading is lazy. Expired entries are dropped on load; a file that is not a readable group
 *   file is moved to `working-memory/.quarantine/` with a warning; an invalid entry is skipped
 *   with a warning.
 * - A timer (unref'd, hourly by default) drops expired entries and rewrites the files they were in.
 * - Several processes may share a data directory: a write takes the directory lock and re-reads
 *   the group file first when another process changed it; reads look for changed files at most
 *   every 250 ms.
 * - With an `embedder`, search is hybrid as the memory store's (SPEC M4); vectors are cached in
 *   `working-memory/.embeddings/`, named by a hash of the key, and dropped with their entry.
 */
export class FileWorkingMemory implements IWorkingMemory {
  private readonly dir: string;
  private readonly quarantineDir: string;
  private readonly clock: IClock;
  private readonly logger: ILogger;
  private readonly defaultTtlMs: number;
  private readonly maxPerNamespace: number;
  private readonly maxCharsPerNamespace: number;
  /** Per key, the monotonic time its entry expires, for the entry (storedAt, expiresAt) it was computed for. */
  private readonly deadlines = new Map<string, { storedAt: string; expiresAt: string; at: number }>();
  private readonly lock: DirectoryLock;
  private readonly queue = new SerialQueue();
  private readonly groups = new Map<string, Group>();
  /** Per kind (`session`, `patrol`…), the names of its groups in `groups`. */
  private readonly groupsOfKind = new Map<string, Set<string>>();
  private readonly index = new Bm25Index();
  private readonly hybrid: HybridSearch | undefined;
  private loaded = false;
  /** Per scope ('' for every group, a kind such as `patrol`, or a group such as `session/abc`), when a read last brought it up to date. */
  private readonly refreshedAt = new Map<string, number>();
  /** Per scope, the refresh under way, which concurrent reads of that scope share. */
  private readonly refreshing = new Map<string, Promise<void>>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweepRunning = false;
  private closed = false;

  constructor(options: FileWorkingMemoryOptions) {
    const valid = validateStoreOptions(options, 'FileWorkingMemory');
    try {
      parseRecord(workingMemoryOptionsSchema, valid, 'FileWorkingMemory options');
    } catch (error) {
      throw new ReverieValidationError('INVALID_OPTIONS', (error as Error).message, { cause: error });
    }
    this.dir = join(resolve(valid.dataPath), 'working-memory');
    this.quarantineDir = join(this.dir, '.quarantine');
    this.clock = valid.clock ?? systemClock;
    this.logger = valid.logger ?? silentLogger;
    this.defaultTtlMs = valid.defaultTtlMs ?? DEFAULT_WORKING_MEMORY_TTL_MS;
    this.maxPerNamespace = valid.maxEntriesPerNamespace ?? DEFAULT_MAX_ENTRIES_PER_NAMESPACE;
    this.maxCharsPerNamespace = valid.maxCharsPerNamespace ?? DEFAULT_MAX_CHARS_PER_NAMESPACE;
    this.lock = new DirectoryLock(this.dir, { logger: this.logger });
    this.hybrid = hybridSearchOf(valid, join(this.dir, '.embeddings'), this.logger, hashedFileStem);
    const sweepIntervalMs = valid.sweepIntervalMs ?? DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS;
    if (sweepIntervalMs > 0) {
      this.sweepTimer = setInterval(() => this.periodicSweep(), sweepIntervalMs);
      this.sweepTimer.unref();
    }
  }

  async set(key: string, value: string, options: WorkingMemorySetOptions = {}): Promise<WorkingMemoryEntry> {
    this.assertOpen();
    const entry = buildWorkingMemoryEntry(key, value, options, this.clock, this.defaultTtlMs);
    const unindexable = this.indexProblem(entry);
    if (unindexable !== undefined) throw internalError(new Error(unindexable), `index the working-memory entry ${key}`);
    const deadline = { storedAt: entry.storedAt, expiresAt: entry.expiresAt, at: monotonicMs(this.clock) + (options.ttlMs ?? this.defaultTtlMs) };
    await this.serial('save a working-memory entry', async () => {
      await this.ensureLoaded();
      this.dropExpired();
      const name = groupOf(key);
      await this.lock.run(async () => {
        await this.syncGroup(name, true);
        const next = this.liveCopy(name);
        next.delete(key);
        next.set(key, entry);
        this.enforceCap(next, namespaceOf(key));
        this.assertWithinSize(next, key);
        this.deadlines.set(key, deadline);
        await this.writeGroup(name, next);
      });
    });
    return copy(entry);
  }

  async get(key: string): Promise<WorkingMemoryEntry | undefined> {
    this.assertOpen();
    validateWorkingMemoryKey(key);
    return this.read('read working memory', groupOf(key), () => {
      const entry = this.entryOf(key);
      return entry && !this.isExpired(entry) ? copy(entry) : undefined;
    });
  }

  async delete(key: string): Promise<boolean> {
    this.assertOpen();
    validateWorkingMemoryKey(key);
    return this.serial('delete a working-memory entry', async () => {
      await this.ensureLoaded();
      const name = groupOf(key);
      return this.lock.run(async () => {
        await this.syncGroup(name, true);
        const entry = this.entryOf(key);
        if (entry === undefined) return false;
        const next = this.liveCopy(name);
        next.delete(key);
        await this.writeGroup(name, next);
        return !this.isExpired(entry);
      });
    });
  }

  async list(prefix?: string): Promise<WorkingMemoryEntry[]> {
    this.assertOpen();
    const scope = scopeOf(prefix);
    return this.read('list working memory', scope, () =>
      this.live(scope)
        .filter((entry) => prefix === undefined || isUnderPrefix(entry.key, prefix))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map(copy),
    );
  }

  async search(query: WorkingMemorySearchQuery): Promise<WorkingMemorySearchResult[]> {
    this.assertOpen();
    const parsed = parseWorkingMemoryQuery(query);
    const { text, maxResults } = parsed;
    const queryVector = text === undefined ? undefined : await this.hybrid?.queryVector(text);
    return this.read('search working memory', '', () => {
      const matches = (entry: WorkingMemoryEntry | undefined): entry is WorkingMemoryEntry =>
        entry !== undefined && !this.isExpired(entry) && parsed.matches(entry);
      if (text !== undefined) {
        const accept = (key: string) => matches(this.entryOf(key));
        const bm25 = (limit: number) => this.index.search(text, { filter: accept, limit });
        const hits = this.hybrid ? this.hybrid.rank(queryVector, bm25, accept, maxResults) : bm25(maxResults);
        return hits.map((hit) => ({ entry: copy(this.entryOf(hit.id)!), score: hit.score }));
      }
      return this.live()
        .filter(matches)
        .sort((a, b) => new Date(b.storedAt).getTime() - new Date(a.storedAt).getTime())
        .slice(0, maxResults)
        .map((entry) => ({ entry: copy(entry), score: 0 }));
    });
  }

  async sweep(): Promise<number> {
    this.assertOpen();
    return this.serial('sweep working memory', () => this.sweepFiles());
  }

  /** Stops the periodic sweep; `sweep()` still works. */
  stopSweep(): void {
    if (this.sweepTimer !== undefined) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /**
   * Waits until every document saved so far has its vector (for tests and tools); with `index:
   * true`, also until the vector index holds them (see docs/file-store.md, "The vector index").
   */
  async flushEmbeddings(options: { index?: boolean } = {}): Promise<void> {
    await this.read('read working memory', '', () => undefined);
    await (options.index ? this.hybrid?.settleIndex() : this.hybrid?.flush());
  }

  /** Stops the sweep, lets queued writes finish and stops background embedding, then refuses every call with STORE_CLOSED. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopSweep();
    await this.queue.idle();
    await this.hybrid?.close();
  }

  /**
   * Answers a read from memory once `scope` is up to date with the files. Reads do not wait in
   * the write queue: a write replaces a group's state in one step, so a read sees it whole,
   * before or after; a refresh never puts back a state older than one a write left (syncGroup).
   */
  private async read<T>(action: string, scope: string, answer: () => T): Promise<T> {
    try {
      await this.ensureLoaded();
      this.hybrid?.loadCache(() => new Map(this.live().map((entry) => [entry.key, workingMemoryDocumentText(entry)])));
      await this.refresh(false, scope);
      return answer();
    } catch (error) {
      throw fileSystemError(error, action, this.dir);
    }
  }

  /** Runs `work` in this store's queue; a file-system failure surfaces as READ_ONLY, NO_SPACE… */
  private serial<T>(action: string, work: () => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      try {
        return await work();
      } catch (error) {
        throw fileSystemError(error, action, this.dir);
      }
    });
  }

  private assertOpen(): void {
    assertOpen(this.closed, 'working memory');
  }

  private periodicSweep(): void {
    if (this.closed || this.sweepRunning) return;
    this.sweepRunning = true;
    this.queue
      .run(() => this.sweepFiles())
      .catch((error: unknown) => {
        this.logger.warn('The periodic working-memory sweep failed; it runs again at the next interval.', {
          dir: this.dir,
          error: String(error),
        });
      })
      .finally(() => {
        this.sweepRunning = false;
      });
  }

  /** Drops expired entries from memory and rewrites the files that still hold any. */
  private async sweepFiles(): Promise<number> {
    await this.refresh(true);
    const dropped = this.dropExpired();
    const staleGroups = [...this.groups].filter(([, group]) => group.stale).map(([name]) => name);
    const temporaryFiles = this.listDirectory().filter((file) => isTemporaryFile(file.slice(file.lastIndexOf('/') + 1)));
    if (staleGroups.length === 0 && temporaryFiles.length === 0) return dropped;
    await this.lock.run(async () => {
      for (const name of staleGroups) {
        await this.syncGroup(name, true);
        if (this.groups.get(name)?.stale) await this.writeGroup(name, this.liveCopy(name));
      }
      // Every write in this directory happens under the lock we hold: a temporary file now is
      // left over from a process that died mid-write.
      for (const file of temporaryFiles) await rm(join(this.dir, ...file.split('/')), { force: true });
    });
    return dropped;
  }

  private async ensureLoaded(): Promise<void> {
    if (!this.loaded) await this.refresh(true);
  }

  /**
   * Brings the groups of `scope` up to date with their files: every group (''), the groups of
   * one kind (`patrol`), or one group (`session/abc`). Skipped when that scope, or one holding
   * it, was brought up to date a moment ago, unless forced; concurrent reads share one refresh.
   */
  private async refresh(force = false, scope = ''): Promise<void> {
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

  private lastRefreshOf(scope: string): number {
    const kind = scope.split('/')[0]!;
    return Math.max(this.refreshedAt.get('') ?? -Infinity, this.refreshedAt.get(kind) ?? -Infinity, this.refreshedAt.get(scope) ?? -Infinity);
  }

  /**
   * The checks are synchronous `stat`s (and a synchronous listing of the kind's folder): a read
   * whose files did not change answers without a round trip through the thread pool, where it
   * would wait behind other stores' file work (the conversation log's fsyncs, the recall events'
   * appends) and then for a turn of a busy event loop. A large scope yields between slices.
   */
  private async refreshScope(scope: string): Promise<void> {
    const inScope = (name: string) => scope === '' || name === scope || name.startsWith(`${scope}/`);
    const names = new Set(this.groupNamesIn(scope));
    const legacy: string[] = [];
    for (const file of this.listDirectory(scope)) {
      if (file.startsWith('.') || file.includes('/.') || !file.endsWith('.json')) continue;
      if (file.includes('/')) {
        const name = file.slice(0, -'.json'.length);
        if (inScope(name)) names.add(name);
      } else legacy.push(file);
    }
    if (legacy.length > 0) await this.lock.run(async () => {
      for (const file of legacy) for (const name of await this.migrateLegacyFile(file)) if (inScope(name)) names.add(name);
    });
    const syncs: Promise<void>[] = [];
    for (const name of names) {
      if (syncs.length > 0 && syncs.length % STAT_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      syncs.push(this.syncGroup(name, false));
    }
    await Promise.all(syncs);
  }

  /** The names of the groups this process holds in `scope`: every group, one kind's or one. */
  private groupNamesIn(scope: string): Iterable<string> {
    if (scope === '') return this.groups.keys();
    if (!scope.includes('/')) return this.groupsOfKind.get(scope) ?? [];
    return this.groups.has(scope) ? [scope] : [];
  }

  /**
   * Re-reads a group's file when it changed since this process last read or wrote it. A file
   * that cannot be read is quarantined, which is only done under the lock: without it, another
   * process's fresh file could be the one moved away. The file is `stat`ed synchronously, before
   * the first `await` (see `refreshScope`).
   */
  private async syncGroup(name: string, locked: boolean): Promise<void> {
    const file = this.fileOf(name);
    const before = this.groups.get(name);
    const current = statOrUndefined(file);
    if (sameStamp(current && stampOf(current), this.groups.get(name)?.stamp)) return;
    const read = await this.readGroupFile(name);
    // Without the lock, a write of this process may have replaced the group while the file was
    // read: its state is at least as new as what was read, so it stays.
    if (!locked && this.groups.get(name) !== before) return;
    if (read.kind === 'read') {
      this.replaceGroup(name, read.entries, read.stamp, read.stale);
      return;
    }
    if (read.kind === 'missing') {
      this.replaceGroup(name, new Map(), undefined, false);
      return;
    }
    if (!locked) {
      await this.lock.run(() => this.syncGroup(name, true));
      return;
    }
    try {
      await quarantineFile(file, this.dir, this.quarantineDir, `${file} is ${read.reason}`, this.logger, this.clock.now());
      this.replaceGroup(name, new Map(), undefined, false);
    } catch (error) {
      // Left in place, the file is overwritten by the next write to its group.
      this.logger.error(`Could not move an unreadable working-memory file to quarantine; its group starts empty.`, {
        file,
        reason: read.reason,
        error: String(error),
      });
      this.replaceGroup(name, new Map(), read.stamp, false);
    }
  }

  private async readGroupFile(
    name: string,
    file = this.fileOf(name),
    belongs: (key: string) => boolean = (key) => groupOf(key) === name,
  ): Promise<GroupFileRead> {
    let text: string;
    let stamp: FileStamp;
    try {
      const handle = await open(file, 'r');
      try {
        stamp = stampOf(await handle.stat());
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw ioError(`read ${file}`, error, file);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { kind: 'unreadable', reason: `not valid JSON (${(error as Error).message})`, stamp };
    }
    const envelope = groupFileSchema.safeParse(json);
    if (!envelope.success) {
      return { kind: 'unreadable', reason: `not a working-memory group file (${describeIssues(envelope.error)})`, stamp };
    }
    const entries = new Map<string, WorkingMemoryEntry>();
    const setAside: Array<{ position: number; problem: string; entry: unknown }> = [];
    let stale = false;
    envelope.data.entries.forEach((raw, position) => {
      const parsed = workingMemoryEntrySchema.safeParse(raw);
      const entry = parsed.success && belongs(parsed.data.key) ? parsed.data : undefined;
      if (entry === undefined) {
        stale = true;
        const problem = parsed.success ? `its key belongs in ${groupOf(parsed.data.key)}.json` : describeIssues(parsed.error);
        this.logger.warn(`Skipped an invalid working-memory entry: ${problem}`, { file, position, key: (raw as { key?: unknown } | null)?.key });
        return;
      }
      if (this.isExpired(entry)) {
        stale = true;
        return;
      }
      const unindexable = this.indexProblem(entry);
      if (unindexable !== undefined) {
        // SPEC M2: one entry never makes its namespace unreadable; it is kept aside, not lost.
        stale = true;
        setAside.push({ position, problem: `it could not be indexed (${unindexable})`, entry: raw });
        return;
      }
      entries.delete(entry.key);
      entries.set(entry.key, entry);
    });
    if (setAside.length > 0) {
      await quarantineRecords(setAside, file, this.dir, this.quarantineDir, setAside.map(({ position, problem }) => `entry ${position}: ${problem}`).join('; '), this.logger, this.clock.now());
    }
    return { kind: 'read', entries, stamp, stale };
  }

  /**
   * Splits a file of the one-file-per-kind layout (`session.json`) into namespace files, under
   * the lock. Entries already in a namespace file win over the legacy copy. The legacy file is
   * removed only after every namespace file is written, so a crash in between migrates again.
   */
  private async migrateLegacyFile(file: string): Promise<string[]> {
    const path = join(this.dir, file);
    const read = await this.readGroupFile(file.slice(0, -'.json'.length), path, (key) => key.slice(0, key.indexOf('/')).toLowerCase() === file.slice(0, -'.json'.length));
    if (read.kind === 'missing') return [];
    if (read.kind === 'unreadable') {
      await quarantineFile(path, this.dir, this.quarantineDir, `${path} is ${read.reason}`, this.logger, this.clock.now());
      return [];
    }
    const byGroup = new Map<string, WorkingMemoryEntry[]>();
    for (const entry of read.entries.values()) byGroup.set(groupOf(entry.key), [...(byGroup.get(groupOf(entry.key)) ?? []), entry]);
    for (const [name, entries] of byGroup) {
      await this.syncGroup(name, true);
      const merged = new Map<string, WorkingMemoryEntry>();
      for (const entry of entries) merged.set(entry.key, entry);
      for (const [key, entry] of this.liveCopy(name)) {
        merged.delete(key);
        merged.set(key, entry);
      }
      await this.writeGroup(name, merged);
    }
    await unlink(path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
    this.logger.info('Split a working-memory file of the older layout into one file per namespace.', { file: path, namespaces: byGroup.size });
    return [...byGroup.keys()];
  }

  /** Writes a group's file (under the lock) and makes `entries` the group's state. */
  private async writeGroup(name: string, entries: Map<string, WorkingMemoryEntry>): Promise<void> {
    const file = this.fileOf(name);
    const body = { schemaVersion: GROUP_FILE_VERSION, entries: [...entries.values()] };
    await writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
    const written = statOrUndefined(file);
    this.replaceGroup(name, entries, written && stampOf(written), false);
  }

  private replaceGroup(name: string, entries: Map<string, WorkingMemoryEntry>, stamp: FileStamp | undefined, stale: boolean): void {
    const previous = this.groups.get(name)?.entries ?? new Map<string, WorkingMemoryEntry>();
    for (const key of previous.keys()) {
      if (entries.has(key)) continue;
      this.unindex(key);
      this.deadlines.delete(key);
    }
    for (const [key, entry] of entries) {
      if (previous.get(key) === entry) continue;
      const text = workingMemoryDocumentText(entry);
      this.index.set(key, text);
      this.hybrid?.want(key, text);
    }
    const kind = name.slice(0, name.indexOf('/'));
    if (entries.size === 0 && stamp === undefined) {
      this.groups.delete(name);
      this.groupsOfKind.get(kind)?.delete(name);
      return;
    }
    this.groups.set(name, { entries, stamp, stale });
    let names = this.groupsOfKind.get(kind);
    if (names === undefined) this.groupsOfKind.set(kind, (names = new Set()));
    names.add(name);
  }

  /** Why the index cannot take `entry` in, or undefined when it can. */
  private indexProblem(entry: WorkingMemoryEntry): string | undefined {
    try {
      this.index.check(workingMemoryDocumentText(entry));
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Takes a removed or expired entry out of the BM25 index and its vector out of the hybrid side. */
  private unindex(key: string): void {
    this.index.delete(key);
    this.hybrid?.forget(key);
  }

  /** Forgets expired entries in memory (their files are rewritten by the next write or sweep). */
  private dropExpired(): number {
    let dropped = 0;
    for (const group of this.groups.values()) {
      for (const entry of [...group.entries.values()]) {
        if (!this.isExpired(entry)) continue;
        group.entries.delete(entry.key);
        this.unindex(entry.key);
        this.deadlines.delete(entry.key);
        group.stale = true;
        dropped++;
      }
    }
    return dropped;
  }

  private enforceCap(entries: Map<string, WorkingMemoryEntry>, namespace: string): void {
    // A Map keeps insertion order, and a save re-inserts its key: the first ones are the oldest
    // stored, whatever the wall clock said when they were (it may have stepped back).
    const inNamespace = [...entries.values()].filter((entry) => namespaceOf(entry.key) === namespace);
    for (const entry of inNamespace.slice(0, Math.max(0, inNamespace.length - this.maxPerNamespace))) entries.delete(entry.key);
  }

  /** Refuses a save that would make its namespace hold more than `maxCharsPerNamespace` characters of values. */
  private assertWithinSize(entries: Map<string, WorkingMemoryEntry>, key: string): void {
    const namespace = namespaceOf(key);
    let total = 0;
    for (const entry of entries.values()) if (namespaceOf(entry.key) === namespace) total += entry.value.length;
    if (total <= this.maxCharsPerNamespace) return;
    throw new ReverieValidationError(
      'INVALID_INPUT',
      `Cannot save ${key}: the namespace ${namespace} would hold ${total} characters of values, over its cap of ${this.maxCharsPerNamespace} (maxCharsPerNamespace). Delete entries you no longer need, or keep large data elsewhere and save a reference.`,
      { details: { key, namespace, total, cap: this.maxCharsPerNamespace } },
    );
  }

  private liveCopy(name: string): Map<string, WorkingMemoryEntry> {
    const live = new Map<string, WorkingMemoryEntry>();
    for (const [key, entry] of this.groups.get(name)?.entries ?? []) if (!this.isExpired(entry)) live.set(key, entry);
    return live;
  }

  /** The live entries of the groups in `scope` (every group by default). */
  private live(scope = ''): WorkingMemoryEntry[] {
    const live: WorkingMemoryEntry[] = [];
    for (const name of this.groupNamesIn(scope)) {
      for (const entry of this.groups.get(name)!.entries.values()) if (!this.isExpired(entry)) live.push(entry);
    }
    return live;
  }

  private entryOf(key: string): WorkingMemoryEntry | undefined {
    return this.groups.get(groupOf(key))?.entries.get(key);
  }

  /**
   * Whether an entry's time is up, on the monotonic clock: its deadline is fixed when this
   * process saves the entry (now + TTL) or first reads it (now + what wall time says is left),
   * so a later wall-clock step neither expires it early nor keeps it alive.
   */
  private isExpired(entry: WorkingMemoryEntry): boolean {
    const now = monotonicMs(this.clock);
    let deadline = this.deadlines.get(entry.key);
    if (deadline === undefined || deadline.storedAt !== entry.storedAt || deadline.expiresAt !== entry.expiresAt) {
      deadline = { storedAt: entry.storedAt, expiresAt: entry.expiresAt, at: now + (new Date(entry.expiresAt).getTime() - this.clock.now().getTime()) };
      this.deadlines.set(entry.key, deadline);
    }
    return deadline.at <= now;
  }

  private fileOf(name: string): string {
    return join(this.dir, ...name.split('/')) + '.json';
  }

  /**
   * Files of the directory and of its kind folders, as relative paths (`session/abc.json`,
   * `session.json`). For a kind, only that kind's folder; for a group, only its file. Files of
   * the older layout are found by the full listing: on load, by sweeps, and by reads of every
   * group (`list()`, `search`).
   */
  private listDirectory(scope = ''): string[] {
    if (scope !== '') {
      const kind = scope.split('/')[0]!;
      if (scope !== kind) return [`${scope}.json`];
      const files: string[] = [];
      try {
        for (const entry of readdirSync(join(this.dir, kind), { withFileTypes: true })) if (entry.isFile()) files.push(`${kind}/${entry.name}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw ioError(`list ${this.dir}`, error, this.dir);
      }
      return files;
    }
    try {
      const files: string[] = [];
      for (const entry of readdirSync(this.dir, { withFileTypes: true })) {
        if (entry.isFile()) files.push(entry.name);
        else if (entry.isDirectory() && !entry.name.startsWith('.')) {
          for (const inner of readdirSync(join(this.dir, entry.name), { withFileTypes: true })) {
            if (inner.isFile()) files.push(`${entry.name}/${inner.name}`);
          }
        }
      }
      return files;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw ioError(`list ${this.dir}`, error, this.dir);
    }
  }
}

/**
 * The group (and file path) of a key: its namespace, the first two segments, lower-cased so that
 * keys differing only in case share one file on case-insensitive file systems instead of
 * overwriting each other.
 */
function groupOf(key: string): string {
  return namespaceOf(key).toLowerCase();
}

/** The refresh scope a listing under `prefix` needs: every group, one kind, or one group. */
function scopeOf(prefix: string | undefined): string {
  const segments = (prefix ?? '').split('/').filter((segment) => segment !== '');
  return segments.slice(0, 2).join('/').toLowerCase();
}

function copy(entry: WorkingMemoryEntry): WorkingMemoryEntry {
  return { ...entry, tags: [...entry.tags] };
}

function stampOf(info: Stats): FileStamp {
  return { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
}

function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** A synchronous `stat` (see `refreshScope`); undefined when the file does not exist. */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    throw ioError(`inspect ${path}`, error, path);
  }
}

function ioError(what: string, error: unknown, path: string) {
  return fileSystemError(error, what, path);
}
