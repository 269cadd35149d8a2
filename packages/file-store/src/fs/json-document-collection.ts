import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type IClock, type ILogger, parseRecord } from '@reverie/core';
import { fileSystemError } from '@reverie/core/internal';
import { ChangeJournal, type CollectionChangePage, JOURNAL, type JournalLine } from './change-journal';
import { CollectionRecords } from './collection-records';
import { type CollectionCapture, CollectionSnapshot, type CollectionSnapshotHooks } from './collection-snapshot';
import { type FolderTimes, reconcileWithDirectory } from './directory-reconciliation';
import { DirectoryLock } from './directory-lock';
import type { CollectionListener, DocumentLayout } from './document-layout';
import { QUARANTINE } from './quarantine';
import { RecordFiles } from './record-files';
import type { RecordReader } from './record-map';
import { SerialQueue } from './serial-queue';
import { statOrUndefined } from './stat-or-undefined';

export type { CollectionChange, CollectionChangePage } from './change-journal';
export type { CollectionSnapshotHooks } from './collection-snapshot';
export type { CollectionListener, DocumentLayout } from './document-layout';

export interface JsonDocumentCollectionOptions<T> {
  root: string;
  layout: DocumentLayout<T>;
  listener: CollectionListener<T>;
  logger: ILogger;
  clock: IClock;
  /** Rewrites the change journal once it grows past this many bytes (default 8 MiB). */
  journalCompactBytes?: number;
  /** Keeps a snapshot in `<root>/.snapshot.bin` (see `docs/file-store.md`). */
  snapshot?: CollectionSnapshotHooks<T>;
  /** Rewrites the snapshot once this many changes were made since it (default 2000). */
  snapshotEveryChanges?: number;
}

/**
 * A directory of JSON files, one per record, kept in memory once loaded, safe to share between
 * processes. It is what the memory and skill stores are built on.
 *
 * - Loading is lazy: the first call scans the directory, validates every file with the schema,
 *   quarantines the ones that do not parse, and resolves duplicates left by a crash.
 * - Every write goes through one in-process queue and a cross-process lock, is atomic on disk
 *   (temp file, fsync, rename), and is then recorded in a change journal (`.changes.jsonl`).
 * - Before answering, a collection reads the journal lines other processes appended since it
 *   last looked (one `stat` when nothing changed) and refreshes those records, so a search in
 *   one process sees what another process saved.
 *
 * The collection coordinates: when to load, sync and write. The record files (`RecordFiles`),
 * the records in memory with their listener (`CollectionRecords`), the journal (`ChangeJournal`),
 * the comparison with the directory (`reconcileWithDirectory`) and the snapshot with its
 * background check (`CollectionSnapshot`) each live in a module of their own.
 */
export class JsonDocumentCollection<T extends object> {
  private readonly root: string;
  private readonly layout: DocumentLayout<T>;
  private readonly listener: CollectionListener<T>;
  private readonly logger: ILogger;
  private readonly files: RecordFiles<T>;
  private readonly records: CollectionRecords<T>;
  private readonly journal: ChangeJournal;
  private readonly lock: DirectoryLock;
  private readonly queue = new SerialQueue();
  private readonly snapshot: CollectionSnapshot<T> | undefined;
  private loading: Promise<void> | undefined;
  private syncing: Promise<void> | undefined;

  constructor(options: JsonDocumentCollectionOptions<T>) {
    this.root = options.root;
    this.layout = options.layout;
    this.listener = options.listener;
    this.logger = options.logger;
    this.files = new RecordFiles(this.root, this.layout, this.logger, options.clock);
    this.records = new CollectionRecords(this.layout, this.listener, this.files);
    this.journal = new ChangeJournal(join(this.root, JOURNAL), options.journalCompactBytes ?? 8 * 1024 * 1024);
    this.lock = new DirectoryLock(this.root, { logger: this.logger });
    const hooks = options.snapshot;
    this.snapshot = hooks
      ? new CollectionSnapshot({
          root: this.root,
          hooks,
          every: options.snapshotEveryChanges ?? 2000,
          logger: this.logger,
          journal: this.journal,
          files: this.files,
          records: this.records,
          capture: () => this.captureForSnapshot(hooks),
        })
      : undefined;
  }

  /**
   * Every record, current with what any process has written. After an open from the snapshot,
   * a record is parsed the first time it is read.
   */
  async current(): Promise<RecordReader<T>> {
    try {
      await this.ensureLoaded();
      await this.syncFromJournal();
    } catch (error) {
      throw fileSystemError(error, `read the ${this.layout.what} files`, this.root);
    }
    return this.records.map;
  }

  /**
   * Writes a record computed from the current one (undefined when the key is new). `build`
   * runs under the lock with the latest state, so it can check write conditions; when it
   * throws, nothing is written.
   */
  put(key: string, build: (current: T | undefined) => T): Promise<T> {
    return this.mutate(async () => {
      const previous = this.records.map.get(key);
      const record = parseRecord(this.layout.schema, build(previous), this.layout.what);
      this.listener.check?.(record);
      const path = this.layout.pathOf(record);
      await this.files.write(path, record);
      if (previous !== undefined) {
        const previousPath = this.layout.pathOf(previous);
        if (previousPath !== path) await this.files.remove(previousPath);
      }
      await this.journal.append({ op: 'put', key: this.layout.keyOf(record), path, seq: this.journal.lastSeq + 1 });
      if (!(await this.records.admit(record, previous, path))) {
        throw new Error(
          `the ${this.layout.what} was written but could not be indexed; it was moved to ${QUARANTINE}/ and the store serves the others`,
        );
      }
      return record;
    });
  }

  /** Removes a record after `check` accepted the current one; false when it did not exist. */
  delete(key: string, check: (current: T | undefined) => void = () => undefined): Promise<boolean> {
    return this.mutate(async () => {
      const previous = this.records.map.get(key);
      check(previous);
      if (previous === undefined) return false;
      const path = this.layout.pathOf(previous);
      await this.files.remove(path);
      await this.journal.append({ op: 'del', key, path, seq: this.journal.lastSeq + 1 });
      this.records.forget(key, previous);
      return true;
    });
  }

  /** Resolves when every queued write has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Waits for queued writes, then brings the snapshot up to date if this process changed or
   * learnt anything since it was written. The collection must not be used afterwards.
   */
  async close(): Promise<void> {
    this.snapshot?.stop();
    await this.queue.idle();
    await this.snapshot?.settled();
    if (this.snapshot && this.loading) await this.snapshot.write();
  }

  /** Writes the snapshot now (normally it is written in the background). */
  async writeSnapshot(): Promise<void> {
    await this.snapshot?.write();
  }

  /**
   * SPEC B12: the changes after sequence number `since` of history `epoch`, oldest first, at most
   * `limit`, from the journal every process appends to. A position the journal no longer holds
   * (another history, or compacted away) is answered with `reset`.
   */
  async changesSince(since: { epoch: string; seq: number } | undefined, limit: number): Promise<CollectionChangePage> {
    for (let attempt = 0; ; attempt++) {
      await this.current();
      if (this.journal.epoch === undefined) await this.mutate(async () => undefined);
      const epoch = this.journal.epoch!;
      const head = this.journal.lastSeq;
      if (!since || since.epoch !== epoch || since.seq < this.journal.baseSeq || since.seq > head) {
        return { epoch, changes: [], through: head, more: false, reset: true };
      }
      if (since.seq === head) return { epoch, changes: [], through: head, more: false, reset: false };
      const page = await this.journal.changes(since.seq, limit);
      if (page) return { epoch, ...page, reset: false };
      // The journal was replaced under us (compacted by another process): look again.
      if (attempt > 0) return { epoch, changes: [], through: head, more: false, reset: true };
    }
  }

  /** Runs a write; a file-system failure surfaces as READ_ONLY, NO_SPACE, NOT_A_DIRECTORY… */
  private mutate<R>(operation: () => Promise<R>): Promise<R> {
    return this.queue.run(async () => {
      try {
        await this.ensureLoaded();
        return await this.lock.run(async () => {
          await this.syncFromJournal();
          await this.journal.startIfNeeded();
          const result = await operation();
          await this.journal.compactIfLarge();
          this.snapshot?.scheduleIfBehind();
          return result;
        });
      } catch (error) {
        throw fileSystemError(error, `write a ${this.layout.what}`, this.root);
      }
    });
  }

  private ensureLoaded(): Promise<void> {
    this.loading ??= this.open().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /**
   * The first load: from the snapshot when it is current, else a scan of the directory. After an
   * open from the snapshot, the journal lines after it are applied (their files re-read) and the
   * directory listing is compared with the records; what that cannot resolve means a full scan.
   */
  private async open(): Promise<void> {
    const opened = this.snapshot && (await this.snapshot.open());
    if (this.snapshot && opened) {
      await this.readJournal();
      if (!(await this.reconcile({ times: opened.folders, takenAt: opened.takenAt }))) {
        this.logger.info('The directory holds what the snapshot cannot account for; reading every file instead.', {
          file: this.snapshot.path,
        });
        await this.loadAll();
        this.snapshot.schedule();
        return;
      }
      this.snapshot.verifyInBackground(opened.stored, opened.takenAt);
      this.snapshot.scheduleIfBehind();
      return;
    }
    await this.loadAll();
    this.snapshot?.schedule();
  }

  /** Scans the whole directory; called once, and again if the journal was replaced. */
  private async loadAll(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const journal = await statOrUndefined(this.journal.path);
    await this.records.replaceAll(await this.files.readAll());
    await this.journal.followFrom(journal);
  }

  /** `reconcileWithDirectory`, with a snapshot scheduled when it changed a record. */
  private async reconcile(folders?: { times: FolderTimes; takenAt: number }): Promise<FolderTimes | undefined> {
    const result = await reconcileWithDirectory({ files: this.files, records: this.records, layout: this.layout }, folders);
    if (result?.changed) this.snapshot?.schedule();
    return result?.times;
  }

  /**
   * What the snapshot holds, captured in one tick in the write queue (so no write of this process
   * is half applied); undefined when the snapshot on disk is current or cannot be written.
   */
  private captureForSnapshot(hooks: CollectionSnapshotHooks<T>): Promise<CollectionCapture<T> | undefined> {
    return this.queue.run(async () => {
      await this.ensureLoaded();
      if (this.journal.epoch === undefined) {
        await this.lock.run(async () => {
          await this.syncFromJournal();
          await this.journal.startIfNeeded();
        });
      }
      await this.syncFromJournal();
      if (this.snapshot?.isCurrent()) return undefined;
      // The host's clock, not the injected one: it is compared with file-system times. Taken
      // before the folders are read, so a folder changed while they are is seen as racy.
      const takenAt = Date.now();
      const folders = await this.reconcile();
      if (!folders) {
        this.logger.warn(
          'Not writing a snapshot: an entry has files in two places; the next open reads every file and keeps the newer one.',
          {
            file: this.snapshot?.path,
          },
        );
        return undefined;
      }
      const { epoch, lastSeq, inode, offset } = this.journal;
      return {
        position: { epoch: epoch!, seq: lastSeq, inode, offset, takenAt },
        folders,
        records: this.records.map.serialise(),
        sections: hooks.capture(),
      };
    });
  }

  /** Applies journal lines other processes appended since the last look. */
  private async syncFromJournal(): Promise<void> {
    if (this.syncing === undefined && this.journal.unchanged()) return;
    this.syncing ??= this.readJournal().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async readJournal(): Promise<void> {
    const appended = await this.journal.readAppended();
    if (appended === 'replaced') await this.loadAll();
    else for (const line of appended) await this.refresh(line);
  }

  /** Re-reads one record after another process changed it, as its latest journal line says. */
  private async refresh(line: JournalLine): Promise<void> {
    const previous = this.records.map.get(line.key);
    const found = line.op === 'put' ? await this.files.readQuietly(this.files.absolute(line.path), line.key) : undefined;
    if (found) await this.records.admit(found, previous, line.path);
    else if (previous) this.records.forget(line.key, previous);
  }
}
