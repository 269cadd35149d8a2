import { join, resolve } from 'node:path';
import {
  assertOpen,
  buildWorkingMemoryEntry,
  DEFAULT_MAX_ENTRIES_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_TTL_MS,
  type IClock,
  type ILogger,
  isUnderPrefix,
  type IWorkingMemory,
  namespaceOf,
  parseOptions,
  parseWorkingMemoryQuery,
  ReverieValidationError,
  silentLogger,
  systemClock,
  validateWorkingMemoryKey,
  workingMemoryDocumentText,
  type WorkingMemoryEntry,
  type WorkingMemorySearchQuery,
  type WorkingMemorySearchResult,
  type WorkingMemorySetOptions,
} from '@reverie/core';
import { fileSystemError, internalError, monotonicMs } from '@reverie/core/internal';
import { type HybridSearch, hashedFileStem, hybridSearchOf } from '../embeddings/hybrid-search';
import { DirectoryLock } from '../fs/directory-lock';
import { SerialQueue } from '../fs/serial-queue';
import { validateStoreOptions } from '../options/validate-store-options';
import { GroupFiles, groupOf } from './group-files';
import { GroupSync } from './group-sync';
import {
  DEFAULT_MAX_CHARS_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS,
  type FileWorkingMemoryOptions,
  workingMemoryOptionsSchema,
} from './working-memory-options';
import { WorkingMemoryGroups } from './working-memory-groups';

export {
  DEFAULT_MAX_CHARS_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS,
  type FileWorkingMemoryOptions,
} from './working-memory-options';

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
 *
 * The store answers calls and applies the namespace caps; the entries in memory with their index
 * and deadlines (`WorkingMemoryGroups`), the group files (`GroupFiles`) and keeping the two in step
 * across processes (`GroupSync`) live in modules of their own.
 */
export class FileWorkingMemory implements IWorkingMemory {
  private readonly dir: string;
  private readonly clock: IClock;
  private readonly logger: ILogger;
  private readonly defaultTtlMs: number;
  private readonly maxPerNamespace: number;
  private readonly maxCharsPerNamespace: number;
  private readonly lock: DirectoryLock;
  private readonly queue = new SerialQueue();
  private readonly hybrid: HybridSearch | undefined;
  private readonly groups: WorkingMemoryGroups;
  private readonly sync: GroupSync;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweepRunning = false;
  private closed = false;

  constructor(options: FileWorkingMemoryOptions) {
    const valid = validateStoreOptions(options, 'FileWorkingMemory');
    parseOptions(workingMemoryOptionsSchema, valid, 'FileWorkingMemory options');
    this.dir = join(resolve(valid.dataPath), 'working-memory');
    this.clock = valid.clock ?? systemClock;
    this.logger = valid.logger ?? silentLogger;
    this.defaultTtlMs = valid.defaultTtlMs ?? DEFAULT_WORKING_MEMORY_TTL_MS;
    this.maxPerNamespace = valid.maxEntriesPerNamespace ?? DEFAULT_MAX_ENTRIES_PER_NAMESPACE;
    this.maxCharsPerNamespace = valid.maxCharsPerNamespace ?? DEFAULT_MAX_CHARS_PER_NAMESPACE;
    this.lock = new DirectoryLock(this.dir, { logger: this.logger });
    this.hybrid = hybridSearchOf(valid, join(this.dir, '.embeddings'), this.logger, hashedFileStem);
    this.groups = new WorkingMemoryGroups(this.clock, this.hybrid);
    this.sync = new GroupSync(this.groups, new GroupFiles(this.dir, this.groups, this.logger, this.clock), this.lock, this.logger);
    const sweepIntervalMs = valid.sweepIntervalMs ?? DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS;
    if (sweepIntervalMs > 0) {
      this.sweepTimer = setInterval(() => this.periodicSweep(), sweepIntervalMs);
      this.sweepTimer.unref();
    }
  }

  async set(key: string, value: string, options: WorkingMemorySetOptions = {}): Promise<WorkingMemoryEntry> {
    this.assertOpen();
    const entry = buildWorkingMemoryEntry(key, value, options, this.clock, this.defaultTtlMs);
    const unindexable = this.groups.indexProblem(entry);
    if (unindexable !== undefined) throw internalError(new Error(unindexable), `index the working-memory entry ${key}`);
    const deadline = {
      storedAt: entry.storedAt,
      expiresAt: entry.expiresAt,
      at: monotonicMs(this.clock) + (options.ttlMs ?? this.defaultTtlMs),
    };
    await this.serial('save a working-memory entry', async () => {
      await this.sync.ensureLoaded();
      this.groups.dropExpired();
      const name = groupOf(key);
      await this.lock.run(async () => {
        await this.sync.syncGroup(name, true);
        const next = this.groups.liveCopy(name);
        next.delete(key);
        next.set(key, entry);
        this.enforceCap(next, namespaceOf(key));
        this.assertWithinSize(next, key);
        this.groups.setDeadline(key, deadline);
        await this.sync.writeGroup(name, next);
      });
    });
    return copy(entry);
  }

  async get(key: string): Promise<WorkingMemoryEntry | undefined> {
    this.assertOpen();
    validateWorkingMemoryKey(key);
    return this.read('read working memory', groupOf(key), () => {
      const entry = this.groups.entryOf(key);
      return entry && !this.groups.isExpired(entry) ? copy(entry) : undefined;
    });
  }

  async delete(key: string): Promise<boolean> {
    this.assertOpen();
    validateWorkingMemoryKey(key);
    return this.serial('delete a working-memory entry', async () => {
      await this.sync.ensureLoaded();
      const name = groupOf(key);
      return this.lock.run(async () => {
        await this.sync.syncGroup(name, true);
        const entry = this.groups.entryOf(key);
        if (entry === undefined) return false;
        const next = this.groups.liveCopy(name);
        next.delete(key);
        await this.sync.writeGroup(name, next);
        return !this.groups.isExpired(entry);
      });
    });
  }

  async list(prefix?: string): Promise<WorkingMemoryEntry[]> {
    this.assertOpen();
    const scope = scopeOf(prefix);
    return this.read('list working memory', scope, () =>
      this.groups
        .live(scope)
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
        entry !== undefined && !this.groups.isExpired(entry) && parsed.matches(entry);
      if (text !== undefined) {
        const accept = (key: string) => matches(this.groups.entryOf(key));
        const bm25 = (limit: number) => this.groups.index.search(text, { filter: accept, limit });
        const hits = this.hybrid ? this.hybrid.rank(queryVector, bm25, accept, maxResults) : bm25(maxResults);
        return hits.map((hit) => ({ entry: copy(this.groups.entryOf(hit.id)!), score: hit.score }));
      }
      return this.groups
        .live()
        .filter(matches)
        .sort((a, b) => new Date(b.storedAt).getTime() - new Date(a.storedAt).getTime())
        .slice(0, maxResults)
        .map((entry) => ({ entry: copy(entry), score: 0 }));
    });
  }

  async sweep(): Promise<number> {
    this.assertOpen();
    return this.serial('sweep working memory', () => this.sync.sweep());
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
   * before or after; a refresh never puts back a state older than one a write left (`GroupSync.syncGroup`).
   */
  private async read<T>(action: string, scope: string, answer: () => T): Promise<T> {
    try {
      await this.sync.ensureLoaded();
      this.hybrid?.loadCache(() => new Map(this.groups.live().map((entry) => [entry.key, workingMemoryDocumentText(entry)])));
      await this.sync.refresh(false, scope);
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
      .run(() => this.sync.sweep())
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
}

/** The refresh scope a listing under `prefix` needs: every group, one kind, or one group. */
function scopeOf(prefix: string | undefined): string {
  const segments = (prefix ?? '').split('/').filter((segment) => segment !== '');
  return segments.slice(0, 2).join('/').toLowerCase();
}

function copy(entry: WorkingMemoryEntry): WorkingMemoryEntry {
  return { ...entry, tags: [...entry.tags] };
}
