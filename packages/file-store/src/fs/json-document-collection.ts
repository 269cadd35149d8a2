import { readdirSync, readFileSync, statSync } from 'node:fs';
import { appendFile, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { ZodType } from 'zod';
import { type IClock, type ILogger, newId, parseRecord } from '@reverie/core';
import { fileSystemError } from '@reverie/core/internal';
import { writeFileAtomic, fsyncDirectory, isTemporaryFile } from './atomic-write';
import { DirectoryLock } from './directory-lock';
import { quarantineFile } from './quarantine';
import { RecordMap, type RecordReader, type SerialisedRecord, SnapshotRecords } from './record-map';
import { SerialQueue } from './serial-queue';
import { decodeSnapshot, type DecodedSection, encodeSnapshot, type SnapshotPosition, type SnapshotSection } from './snapshot-file';

/** How a collection names and files its records. */
export interface DocumentLayout<T> {
  /** What the records are, for messages ("memory entry", "skill"). */
  what: string;
  schema: ZodType<T>;
  keyOf(record: T): string;
  /** Path of the record's file relative to the collection root, with "/" separators. */
  pathOf(record: T): string;
  /** Orders two copies of one key found on disk (after a crash mid-move): the newer wins. */
  isNewer(a: T, b: T): boolean;
}

/** Told about every change, whether this process made it or another one did. */
export interface CollectionListener<T> {
  /**
   * Throws when the listener could not take `record` in (its text cannot be indexed). Called
   * before a record is written, so such a write fails with nothing on disk.
   */
  check?(record: T): void;
  /**
   * Takes a record in. When it throws, it must have changed nothing: a record read from disk
   * is then quarantined and the collection serves the others.
   */
  onPut(record: T, previous: T | undefined): void;
  onDelete(record: T): void;
}

/**
 * Lets a collection persist its records, with whatever the listener derives from them (an index),
 * in one snapshot file, and open from it instead of reading every record file.
 */
export interface CollectionSnapshotHooks<T> {
  /**
   * The format of the records and of the extra sections. A snapshot of another version is
   * ignored (and rewritten), so change it whenever the record schema or the sections change.
   */
  version: string;
  /** The listener's state, exactly as of the records it has been told about, as sections. */
  capture(): Map<string, SnapshotSection>;
  /**
   * Sets the listener's state for `records` from a snapshot's sections, in place of one `onPut`
   * per record; throws when the sections do not fit (the collection then scans the directory).
   * `records` keeps answering with the records as the snapshot holds them after they change.
   */
  restore(records: SnapshotRecords<T>, sections: ReadonlyMap<string, DecodedSection>): void;
}

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

interface JournalLine {
  op: 'put' | 'del';
  key: string;
  path: string;
  /** Sequence number in the journal's epoch (absent in journals written before the change feed). */
  seq?: number;
}

/** The first line of every journal this version writes: whose history it is, and where it starts. */
interface JournalStart {
  op: 'start';
  epoch: string;
  /** The sequence number of the last change before this journal (0 for a new history). */
  seq: number;
}

/** Each folder under the root ('' for the root): its modification time (ms) and how many record files it held. */
type FolderTimes = Map<string, [number, number]>;

/** One record change as the change feed reports it. */
export interface CollectionChange {
  key: string;
  op: 'put' | 'del';
  seq: number;
}

/** What `changesSince` answers: see `MemoryChangePage`. */
export interface CollectionChangePage {
  epoch: string;
  changes: CollectionChange[];
  /** Sequence number of the last change returned, or of the head when there were none. */
  through: number;
  more: boolean;
  reset: boolean;
}

const JOURNAL = '.changes.jsonl';
/** Where record files that cannot be read or indexed are moved, under the root. */
const QUARANTINE = '.quarantine';
const SNAPSHOT = '.snapshot.bin';
/** The collection's part of the snapshot format (records, folder times); prefixed to the hooks' version. */
const SNAPSHOT_FORMAT = 'collection/2';
/** A background snapshot is written this long after it became due, so a burst of work goes first. */
const SNAPSHOT_DELAY_MS = 1000;
/**
 * Record files changed this close to (or after) the moment a snapshot was taken are re-read after
 * an open from it: file-system timestamps are coarse, and an edit made in place, outside Reverie,
 * leaves no journal line.
 */
const RACY_MS = 2000;
/**
 * The background check after an open from the snapshot stats this many record files at once,
 * then pauses, so it takes a small share of the event loop (about 5 s for 100,000 entries).
 */
const VERIFY_BATCH = 128;
const VERIFY_PAUSE_MS = 5;
/** …and re-reads recently modified files for at most this long (ms) between turns of the event loop. */
const VERIFY_SLICE_MS = 1;
/** Records serialised per slice while a snapshot is encoded; the event loop runs between slices. */
const ENCODE_SLICE = 2000;
/**
 * Files read per slice during a cold load. Synchronous reads are several times faster than
 * promise-based ones for many small files; slicing and yielding between slices keeps the event
 * loop responsive while a large memory loads.
 */
const READ_SLICE = 500;

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
 */
export class JsonDocumentCollection<T extends object> {
  private readonly root: string;
  private readonly layout: DocumentLayout<T>;
  private readonly listener: CollectionListener<T>;
  private readonly logger: ILogger;
  private readonly clock: IClock;
  private readonly journalPath: string;
  private readonly compactBytes: number;
  private readonly lock: DirectoryLock;
  private readonly queue = new SerialQueue();
  private records: RecordMap<T>;
  private loading: Promise<void> | undefined;
  private journalOffset = 0;
  private journalInode = -1;
  private syncing: Promise<void> | undefined;
  /** The journal's history (from its start line) and the last sequence number seen in it. */
  private epoch: string | undefined;
  private baseSeq = 0;
  private lastSeq = 0;
  /** Where the last `changesSince` stopped reading, to resume there instead of at the start. */
  private feedHint: { inode: number; seq: number; offset: number } | undefined;
  private readonly snapshotHooks: CollectionSnapshotHooks<T> | undefined;
  private readonly snapshotPath: string;
  private readonly snapshotEvery: number;
  /** The journal position of the snapshot on disk as far as this process knows. */
  private snapshotAt: SnapshotPosition | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private snapshotWrite: Promise<void> | undefined;
  private closed = false;

  constructor(options: JsonDocumentCollectionOptions<T>) {
    this.root = options.root;
    this.layout = options.layout;
    this.records = new RecordMap((record) => this.layout.pathOf(record));
    this.listener = options.listener;
    this.logger = options.logger;
    this.clock = options.clock;
    this.journalPath = join(this.root, JOURNAL);
    this.compactBytes = options.journalCompactBytes ?? 8 * 1024 * 1024;
    this.lock = new DirectoryLock(this.root, { logger: this.logger });
    this.snapshotHooks = options.snapshot;
    this.snapshotPath = join(this.root, SNAPSHOT);
    this.snapshotEvery = options.snapshotEveryChanges ?? 2000;
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
    return this.records;
  }

  /**
   * Writes a record computed from the current one (undefined when the key is new). `build`
   * runs under the lock with the latest state, so it can check write conditions; when it
   * throws, nothing is written.
   */
  put(key: string, build: (current: T | undefined) => T): Promise<T> {
    return this.mutate(async () => {
      const previous = this.records.get(key);
      const record = parseRecord(this.layout.schema, build(previous), this.layout.what);
      this.listener.check?.(record);
      const path = this.layout.pathOf(record);
      await writeFileAtomic(this.absolute(path), `${JSON.stringify(record, null, 2)}\n`);
      if (previous !== undefined) {
        const previousPath = this.layout.pathOf(previous);
        if (previousPath !== path) await this.removeFile(previousPath);
      }
      await this.appendJournal({ op: 'put', key: this.layout.keyOf(record), path, seq: this.lastSeq + 1 });
      if (!(await this.admit(record, previous, path))) {
        throw new Error(`the ${this.layout.what} was written but could not be indexed; it was moved to ${QUARANTINE}/ and the store serves the others`);
      }
      return record;
    });
  }

  /** Removes a record after `check` accepted the current one; false when it did not exist. */
  delete(key: string, check: (current: T | undefined) => void = () => undefined): Promise<boolean> {
    return this.mutate(async () => {
      const previous = this.records.get(key);
      check(previous);
      if (previous === undefined) return false;
      const path = this.layout.pathOf(previous);
      await this.removeFile(path);
      await this.appendJournal({ op: 'del', key, path, seq: this.lastSeq + 1 });
      this.records.delete(key);
      this.listener.onDelete(previous);
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
    this.closed = true;
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    await this.queue.idle();
    await this.snapshotWrite?.catch(() => undefined);
    if (this.snapshotHooks && this.loading) await this.writeSnapshot();
  }

  /** Writes the snapshot now (normally it is written in the background). */
  writeSnapshot(): Promise<void> {
    this.snapshotWrite ??= this.persistSnapshot()
      .catch((error: unknown) => this.logger.warn('Could not write the snapshot; the next open reads every file instead.', { file: this.snapshotPath, error: String(error) }))
      .finally(() => {
        this.snapshotWrite = undefined;
      });
    return this.snapshotWrite;
  }

  /** Runs a write; a file-system failure surfaces as READ_ONLY, NO_SPACE, NOT_A_DIRECTORY… */
  private mutate<R>(operation: () => Promise<R>): Promise<R> {
    return this.queue.run(async () => {
      try {
        await this.ensureLoaded();
        return await this.lock.run(async () => {
          await this.syncFromJournal();
          await this.startJournalIfNeeded();
          const result = await operation();
          await this.compactJournalIfLarge();
          this.snapshotIfBehind();
          return result;
        });
      } catch (error) {
        throw fileSystemError(error, `write a ${this.layout.what}`, this.root);
      }
    });
  }

  private apply(record: T, previous: T | undefined): void {
    this.listener.onPut(record, previous);
    this.records.set(this.layout.keyOf(record), record);
  }

  /**
   * Applies a record whose file is on disk at `path`. When the listener cannot take it in (SPEC
   * M2: one record must never make the whole collection unreadable), the record is dropped, its
   * file quarantined with the reason, and false returned; the other records are served as before.
   */
  private async admit(record: T, previous: T | undefined, path: string): Promise<boolean> {
    try {
      this.apply(record, previous);
      return true;
    } catch (error) {
      const key = this.layout.keyOf(record);
      if (previous !== undefined) {
        this.records.delete(key);
        this.listener.onDelete(previous);
      }
      await quarantineFile(
        this.absolute(path),
        this.root,
        join(this.root, QUARANTINE),
        `${this.layout.what} ${key} could not be indexed (${(error as Error).message})`,
        this.logger,
        this.clock.now(),
      );
      return false;
    }
  }

  private absolute(path: string): string {
    return join(this.root, ...path.split('/'));
  }

  private async removeFile(path: string): Promise<void> {
    const file = this.absolute(path);
    await rm(file, { force: true });
    await fsyncDirectory(dirname(file));
  }

  private ensureLoaded(): Promise<void> {
    this.loading ??= this.open().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** The first load: from the snapshot when it is current, else a scan of the directory. */
  private async open(): Promise<void> {
    if (this.snapshotHooks && (await this.loadSnapshot(this.snapshotHooks))) return;
    await this.loadAll();
    if (this.snapshotHooks) this.scheduleSnapshot();
  }

  /**
   * Opens from the snapshot if it accounts for the journal as it is now: same history (epoch),
   * and either the same journal file holding at least the bytes the snapshot saw, or a journal
   * compacted exactly at the snapshot's position. The journal lines after it are then applied
   * (their files re-read), and the directory listing is compared with the records: a file that
   * is gone (deleted, quarantined) is dropped and a file with no journal line (written by an
   * older version, copied in by hand) is read. Anything doubtful means a full scan instead.
   */
  private async loadSnapshot(hooks: CollectionSnapshotHooks<T>): Promise<boolean> {
    const bytes = readSnapshotFile(this.snapshotPath);
    if (!bytes) return false;
    const snapshot = decodeSnapshot(bytes);
    const journal = await statOrUndefined(this.journalPath);
    const refuse = (reason: string) => {
      this.logger.info('Not opening from the snapshot; reading every file instead.', { file: this.snapshotPath, reason });
      return false;
    };
    if (!snapshot) return refuse('not a whole snapshot (torn, truncated or edited)');
    const version = `${SNAPSHOT_FORMAT} ${hooks.version}`;
    if (snapshot.version !== version) return refuse(`written as version ${snapshot.version}, this is ${version}`);
    if (!journal) return refuse('the change journal is gone');
    const at = snapshot.position;
    if (!at) return refuse('no journal position');
    const edges = await readJournalEdges(this.journalPath, journal.size);
    if (edges.start?.epoch !== at.epoch) return refuse('the change journal belongs to another history');
    let from: number;
    if (journal.ino === at.inode && journal.size >= at.offset) from = at.offset;
    else if (journal.ino !== at.inode && edges.start.seq === at.seq) from = 0;
    else return refuse('the change journal was compacted past the snapshot');
    let stored: SnapshotRecords<T>;
    let folders: FolderTimes;
    try {
      const texts = snapshot.sections.get('records');
      const ends = snapshot.sections.get('records.ends');
      const keys = snapshot.sections.get('records.keys');
      const paths = snapshot.sections.get('records.paths');
      const pathEnds = snapshot.sections.get('records.pathEnds');
      const folderSection = snapshot.sections.get('folders');
      if (texts?.kind !== 'bytes' || ends?.kind !== 'u32' || keys?.kind !== 'json' || paths?.kind !== 'bytes' || pathEnds?.kind !== 'u32' || folderSection?.kind !== 'json') {
        return refuse('no records');
      }
      folders = new Map(Object.entries(JSON.parse(folderSection.text) as Record<string, [number, number]>));
      const keyList = JSON.parse(keys.text) as unknown;
      if (!Array.isArray(keyList) || !keyList.every((key) => typeof key === 'string')) throw new Error('the record keys are not strings');
      stored = new SnapshotRecords<T>(keyList as string[], texts.value, ends.value, paths.value, pathEnds.value);
      this.records = new RecordMap((record) => this.layout.pathOf(record), stored);
      hooks.restore(stored, snapshot.sections);
    } catch (error) {
      this.records = new RecordMap((record) => this.layout.pathOf(record));
      return refuse(`the sections do not fit: ${(error as Error).message}`);
    }
    this.epoch = at.epoch;
    this.baseSeq = edges.start.seq;
    this.lastSeq = Math.max(at.seq, edges.lastSeq ?? 0);
    this.journalInode = journal.ino;
    this.journalOffset = from;
    this.snapshotAt = at;
    await this.readJournal();
    if (!(await this.reconcileWithDirectory({ times: folders, takenAt: at.takenAt }))) {
      this.logger.info('The directory holds what the snapshot cannot account for; reading every file instead.', { file: this.snapshotPath });
      await this.loadAll();
      this.scheduleSnapshot();
      return true;
    }
    this.verifyInBackground(stored, at.takenAt);
    this.snapshotIfBehind();
    return true;
  }

  /**
   * Compares the records with the files on disk: drops records whose file is gone, reads files
   * no record accounts for. Only the folders that may have changed are listed: with `folders`
   * (each folder's modification time when the snapshot was taken, and that moment), a folder
   * whose time is unchanged and was not racily close to that moment holds the same names as
   * then; every other folder, and every folder under a new one, is listed. Without `folders`,
   * everything is listed. Returns the folder times read before listing (for the next snapshot),
   * or undefined when a file holds a record that is also elsewhere (a crash mid-move), which
   * only a full scan resolves.
   */
  private async reconcileWithDirectory(folders?: { times: FolderTimes; takenAt: number }): Promise<FolderTimes | undefined> {
    const times: FolderTimes = new Map();
    const children = new Map<string, string[]>();
    if (folders) {
      for (const folder of folders.times.keys()) {
        if (folder === '') continue;
        const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
        children.set(parent, [...(children.get(parent) ?? []), folder]);
      }
    }
    /** Listed folders and the record files found in each. */
    const listed = new Map<string, Set<string>>();
    const temporary: string[] = [];
    const visit = (folder: string): void => {
      const dir = folder === '' ? this.root : this.absolute(folder);
      let mtime: number;
      try {
        mtime = statSync(dir).mtimeMs;
      } catch {
        listed.set(folder, new Set());
        return;
      }
      const known = folders?.times.get(folder)?.[0];
      times.set(folder, [mtime, folders?.times.get(folder)?.[1] ?? 0]);
      if (known !== undefined && known === mtime && known < folders!.takenAt - RACY_MS) {
        for (const child of children.get(folder) ?? []) visit(child);
        return;
      }
      const files = new Set<string>();
      listed.set(folder, files);
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.name.startsWith('.')) {
          if (entry.isFile() && isTemporaryFile(entry.name)) temporary.push(join(dir, entry.name));
          continue;
        }
        if (entry.isDirectory()) visit(folder === '' ? entry.name : `${folder}/${entry.name}`);
        else if (entry.isFile() && entry.name.endsWith('.json')) files.add(entry.name);
      }
      times.set(folder, [mtime, files.size]);
    };
    visit('');
    for (const file of temporary) await this.removeStaleTemporary(file);
    // A folder not reached is gone (with its parent listed, or an ancestor gone). Only a listed
    // or gone folder that holds record files, or held some, needs the records compared.
    const gone = (folder: string) => !times.has(folder);
    const held = (folder: string) => (folders?.times.get(folder)?.[1] ?? 0) > 0;
    if (
      folders &&
      ![...listed].some(([folder, files]) => files.size > 0 || held(folder)) &&
      ![...folders.times.keys()].some((folder) => gone(folder) && held(folder))
    ) {
      return times;
    }

    let changed = false;
    const accounted = new Set<string>();
    for (const key of [...this.records.keys()]) {
      const path = this.records.pathOf(key)!;
      const slash = path.lastIndexOf('/');
      const folder = slash < 0 ? '' : path.slice(0, slash);
      const files = listed.get(folder);
      if (!files && !gone(folder)) continue;
      if (files?.has(path.slice(slash + 1))) {
        accounted.add(path);
        continue;
      }
      const record = this.records.get(key)!;
      this.records.delete(key);
      this.listener.onDelete(record);
      changed = true;
    }
    for (const [folder, files] of listed) {
      for (const name of files) {
        const path = folder === '' ? name : `${folder}/${name}`;
        if (accounted.has(path)) continue;
        const item = await this.readRecordFile(this.absolute(path));
        if (!item) continue;
        const key = this.layout.keyOf(item.record);
        if (this.records.has(key) && this.records.pathOf(key) !== path) return undefined;
        const existing = this.records.get(key);
        await this.admit(item.record, existing, path);
        changed = true;
      }
    }
    if (changed) this.scheduleSnapshot();
    return times;
  }

  /**
   * After an open from the snapshot: re-reads, in small slices off the hot path, the record
   * files modified since shortly before the snapshot was taken (an edit in place leaves no
   * journal line). Only records still as the snapshot holds them are checked (any other was
   * read from its file or written since); they are compared as JSON text, without parsing them.
   */
  private verifyInBackground(stored: SnapshotRecords<T>, takenAt: number): void {
    const since = takenAt - RACY_MS;
    void (async () => {
      for (let i = 0; i < stored.size && !this.closed; i += VERIFY_BATCH) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, VERIFY_PAUSE_MS));
        const batch: Array<{ index: number; file: string }> = [];
        for (let index = i; index < Math.min(i + VERIFY_BATCH, stored.size); index++) {
          if (this.records.isAsSnapshot(stored.keys[index]!)) batch.push({ index, file: this.absolute(stored.pathAt(index)) });
        }
        // Promise-based stats run on the thread pool, off the event loop that answers searches.
        const times = await Promise.all(batch.map(({ file }) => stat(file).then((info) => info.mtimeMs, () => undefined)));
        let sliceStart = performance.now();
        for (let j = 0; j < batch.length; j++) {
          const { index, file } = batch[j]!;
          const key = stored.keys[index]!;
          const mtime = times[j];
          if (mtime === undefined || mtime < since) continue;
          // Re-reading is synchronous: let searches in between when many files are recent.
          if (performance.now() - sliceStart > VERIFY_SLICE_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
          }
          const item = await this.readRecordFile(file);
          if (!this.records.isAsSnapshot(key)) continue;
          const record = this.records.get(key)!;
          if (!item) {
            this.records.delete(key);
            this.listener.onDelete(record);
          } else if (JSON.stringify(item.record) !== stored.bytesAt(index).toString('utf8')) await this.admit(item.record, record, stored.pathAt(index));
        }
      }
    })().catch((error: unknown) => this.logger.warn('Could not check the record files after opening from the snapshot.', { error: String(error) }));
  }

  /** Schedules a snapshot if many changes were made since the last one, or the journal was compacted. */
  private snapshotIfBehind(): void {
    if (!this.snapshotHooks) return;
    const at = this.snapshotAt;
    if (!at || at.inode !== this.journalInode || this.lastSeq - at.seq >= this.snapshotEvery) this.scheduleSnapshot();
  }

  private scheduleSnapshot(): void {
    if (!this.snapshotHooks || this.snapshotTimer || this.closed) return;
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      void this.writeSnapshot();
    }, SNAPSHOT_DELAY_MS);
    this.snapshotTimer.unref();
  }

  /**
   * Captures the records, the listener's state and the journal position in one tick (in the
   * write queue, so no write of this process is half applied), then encodes in slices and
   * writes atomically. Two processes may both write one: each is whole and consistent with the
   * position it names, and the next open checks that position against the journal.
   */
  private async persistSnapshot(): Promise<void> {
    const hooks = this.snapshotHooks;
    if (!hooks) return;
    const captured = await this.queue.run(async () => {
      await this.ensureLoaded();
      if (this.epoch === undefined) {
        await this.lock.run(async () => {
          await this.syncFromJournal();
          await this.startJournalIfNeeded();
        });
      }
      await this.syncFromJournal();
      const at = this.snapshotAt;
      if (at && at.epoch === this.epoch && at.inode === this.journalInode && at.offset === this.journalOffset) return undefined;
      // The host's clock, not the injected one: it is compared with file-system times. Taken
      // before the folders are read, so a folder changed while they are is seen as racy.
      const takenAt = Date.now();
      const folders = await this.reconcileWithDirectory();
      if (!folders) {
        this.logger.warn('Not writing a snapshot: an entry has files in two places; the next open reads every file and keeps the newer one.', { file: this.snapshotPath });
        return undefined;
      }
      const position: SnapshotPosition = { epoch: this.epoch!, seq: this.lastSeq, inode: this.journalInode, offset: this.journalOffset, takenAt };
      return { position, folders, records: this.records.serialise(), sections: hooks.capture() };
    });
    if (!captured) return;
    const sections = new Map<string, SnapshotSection>([
      ...(await encodeRecords(captured.records)),
      ['folders', { kind: 'json', value: Object.fromEntries(captured.folders) }],
      ...captured.sections,
    ]);
    await writeFileAtomic(this.snapshotPath, encodeSnapshot({ version: `${SNAPSHOT_FORMAT} ${hooks.version}`, position: captured.position, sections }));
    this.snapshotAt = captured.position;
  }

  /** Scans the whole directory; called once, and again if the journal was replaced. */
  private async loadAll(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const journal = await statOrUndefined(this.journalPath);
    const files = await this.listRecordFiles();
    const loaded = new Map<string, { record: T; file: string }>();
    for (let i = 0; i < files.length; i += READ_SLICE) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const parsed: Array<{ record: T; file: string } | undefined> = [];
      for (const file of files.slice(i, i + READ_SLICE)) parsed.push(await this.readRecordFile(this.absolute(file)));
      for (const item of parsed) {
        if (!item) continue;
        const key = this.layout.keyOf(item.record);
        const existing = loaded.get(key);
        if (!existing) {
          loaded.set(key, item);
          continue;
        }
        const [keep, drop] = this.layout.isNewer(item.record, existing.record) ? [item, existing] : [existing, item];
        loaded.set(key, keep);
        await quarantineFile(drop.file, this.root, join(this.root, QUARANTINE), `an older copy of ${this.layout.what} ${key}`, this.logger, this.clock.now());
      }
    }
    const previous = this.records;
    this.records = new RecordMap((record) => this.layout.pathOf(record));
    for (const key of previous.keys()) if (!loaded.has(key)) this.listener.onDelete(previous.get(key)!);
    for (const [key, { record, file }] of loaded) await this.admit(record, previous.get(key), relative(this.root, file).split(sep).join('/'));
    this.journalOffset = journal?.size ?? 0;
    this.journalInode = journal?.ino ?? -1;
    const edges = journal ? await readJournalEdges(this.journalPath, journal.size) : undefined;
    this.epoch = edges?.start?.epoch;
    this.baseSeq = edges?.start?.seq ?? 0;
    this.lastSeq = Math.max(this.baseSeq, edges?.lastSeq ?? 0);
    this.feedHint = undefined;
  }

  /**
   * Every record file under the root, as paths relative to it with "/" separators. Reads each
   * folder synchronously (one call per folder, much faster than the promise-based walk for
   * folders of many thousand files); stale temporary files are removed after the walk.
   */
  private async listRecordFiles(): Promise<string[]> {
    const files: string[] = [];
    const temporary: string[] = [];
    const walk = (dir: string, prefix: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name.startsWith('.')) {
          if (entry.isFile() && isTemporaryFile(entry.name)) temporary.push(join(dir, entry.name));
          continue;
        }
        if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
        else if (entry.isFile() && entry.name.endsWith('.json')) files.push(prefix + entry.name);
      }
    };
    walk(this.root, '');
    for (const file of temporary) await this.removeStaleTemporary(file);
    return files;
  }

  /** A temp file from a process that died mid-write: old enough that nobody is writing it. */
  private async removeStaleTemporary(file: string): Promise<void> {
    const info = await statOrUndefined(file);
    if (info && this.clock.now().getTime() - info.mtimeMs > 60 * 60 * 1000) await rm(file, { force: true });
  }

  private async readRecordFile(file: string): Promise<{ record: T; file: string } | undefined> {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let reason: string;
    try {
      const result = this.layout.schema.safeParse(JSON.parse(text));
      if (result.success) {
        const expected = this.absolute(this.layout.pathOf(result.data));
        if (expected === file) return { record: result.data, file };
        reason = `${relative(this.root, file).split(sep).join('/')} is not where its content says it belongs`;
      } else {
        reason = `not a valid ${this.layout.what}: ${result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`;
      }
    } catch (error) {
      reason = `not valid JSON (${(error as Error).message})`;
    }
    await quarantineFile(file, this.root, join(this.root, QUARANTINE), reason, this.logger, this.clock.now());
    return undefined;
  }

  private async appendJournal(line: JournalLine): Promise<void> {
    // A line torn by a writer that died mid-append would swallow ours: start on a line of our own.
    const before = await statOrUndefined(this.journalPath);
    const torn = before !== undefined && before.size > this.journalOffset;
    await appendFile(this.journalPath, `${torn ? '\n' : ''}${JSON.stringify(line)}\n`);
    const info = await stat(this.journalPath);
    // Everything up to here is ours or already applied (we hold the lock).
    this.journalOffset = info.size;
    this.journalInode = info.ino;
    if (line.seq !== undefined) this.lastSeq = line.seq;
  }

  /**
   * Gives a journal without a start line (none yet, or one written before the change feed) a
   * history of its own. Under the lock. Replacing the file tells other processes to reload.
   */
  private async startJournalIfNeeded(): Promise<void> {
    if (this.epoch !== undefined) return;
    await this.writeJournalStart({ op: 'start', epoch: newId(), seq: 0 });
  }

  private async writeJournalStart(start: JournalStart): Promise<void> {
    await writeFileAtomic(this.journalPath, `${JSON.stringify(start)}\n`);
    const info = await stat(this.journalPath);
    this.journalOffset = info.size;
    this.journalInode = info.ino;
    this.epoch = start.epoch;
    this.baseSeq = start.seq;
    this.lastSeq = start.seq;
    this.feedHint = undefined;
  }

  /**
   * SPEC B12: the changes after sequence number `since` of history `epoch`, oldest first, at most
   * `limit`, from the journal every process appends to. A position the journal no longer holds
   * (another history, or compacted away) is answered with `reset`.
   */
  async changesSince(since: { epoch: string; seq: number } | undefined, limit: number): Promise<CollectionChangePage> {
    for (let attempt = 0; ; attempt++) {
      await this.current();
      if (this.epoch === undefined) await this.mutate(async () => undefined);
      const epoch = this.epoch!;
      const head = this.lastSeq;
      if (!since || since.epoch !== epoch || since.seq < this.baseSeq || since.seq > head) {
        return { epoch, changes: [], through: head, more: false, reset: true };
      }
      if (since.seq === head) return { epoch, changes: [], through: head, more: false, reset: false };
      const page = await this.readChanges(since.seq, limit);
      if (page) return { epoch, ...page, reset: false };
      // The journal was replaced under us (compacted by another process): look again.
      if (attempt > 0) return { epoch, changes: [], through: head, more: false, reset: true };
    }
  }

  /** Journal lines after `sinceSeq`, up to what this process has synced; undefined if the file was replaced. */
  private async readChanges(sinceSeq: number, limit: number): Promise<Omit<CollectionChangePage, 'epoch' | 'reset'> | undefined> {
    const hint = this.feedHint;
    const from = hint && hint.inode === this.journalInode && hint.seq <= sinceSeq ? hint.offset : 0;
    const end = this.journalOffset;
    const handle = await open(this.journalPath, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!handle) return undefined;
    let text: string;
    try {
      if ((await handle.stat()).ino !== this.journalInode) return undefined;
      const buffer = Buffer.alloc(Math.max(0, end - from));
      await handle.read(buffer, 0, buffer.length, from);
      text = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
    const changes: CollectionChange[] = [];
    let offset = from;
    let through = sinceSeq;
    let stoppedAt = from;
    for (const raw of text.split('\n')) {
      const lineEnd = offset + Buffer.byteLength(raw) + 1;
      offset = lineEnd;
      const line = parseJournalLine(raw);
      if (!line || line.seq === undefined || line.seq <= sinceSeq) continue;
      if (changes.length === limit) break;
      changes.push({ key: line.key, op: line.op, seq: line.seq });
      through = line.seq;
      stoppedAt = Math.min(lineEnd, end);
    }
    const more = through < this.lastSeq;
    if (changes.length > 0) this.feedHint = { inode: this.journalInode, seq: through, offset: stoppedAt };
    return { changes, through: more ? through : Math.max(through, this.lastSeq), more };
  }

  /** Applies journal lines other processes appended since the last look. */
  private async syncFromJournal(): Promise<void> {
    if (this.syncing === undefined && this.journalUnchanged()) return;
    this.syncing ??= this.readJournal().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /**
   * Whether the journal is the file and size last read, by a synchronous `stat`: every read asks
   * this, and a promise-based `stat` would queue on the thread pool behind whatever else is in
   * flight there (the check after an open stats many files), a wait of milliseconds.
   */
  private journalUnchanged(): boolean {
    try {
      const info = statSync(this.journalPath, { throwIfNoEntry: false });
      return info === undefined ? this.journalInode === -1 : info.ino === this.journalInode && info.size === this.journalOffset;
    } catch {
      // readJournal stats it again and reports what went wrong.
      return false;
    }
  }

  private async readJournal(): Promise<void> {
    const info = await statOrUndefined(this.journalPath);
    if (!info) {
      if (this.journalInode !== -1) await this.loadAll();
      return;
    }
    if (info.ino !== this.journalInode || info.size < this.journalOffset) {
      await this.loadAll();
      return;
    }
    if (info.size === this.journalOffset) return;
    const handle = await open(this.journalPath, 'r');
    let chunk: string;
    try {
      const buffer = Buffer.alloc(info.size - this.journalOffset);
      await handle.read(buffer, 0, buffer.length, this.journalOffset);
      chunk = buffer.toString('utf8');
    } finally {
      await handle.close();
    }
    const complete = chunk.lastIndexOf('\n') + 1;
    this.journalOffset += Buffer.byteLength(chunk.slice(0, complete));
    const latest = new Map<string, JournalLine>();
    for (const text of chunk.slice(0, complete).split('\n')) {
      // A torn journal line names nothing; the file it was about is found on the next full load.
      const line = parseJournalLine(text);
      if (!line) continue;
      latest.set(line.key, line);
      if (line.seq !== undefined && line.seq > this.lastSeq) this.lastSeq = line.seq;
    }
    for (const line of latest.values()) await this.refresh(line);
  }

  /** Re-reads one record after another process changed it, as its latest journal line says. */
  private async refresh(line: JournalLine): Promise<void> {
    const previous = this.records.get(line.key);
    const found = line.op === 'put' ? await this.readQuietly(this.absolute(line.path), line.key) : undefined;
    if (found) await this.admit(found, previous, line.path);
    else if (previous) {
      this.records.delete(line.key);
      this.listener.onDelete(previous);
    }
  }

  /** The record in `file` if it is valid and has `key`; undefined otherwise (never throws). */
  private async readQuietly(file: string, key: string): Promise<T | undefined> {
    try {
      const result = this.layout.schema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      return result.success && this.layout.keyOf(result.data) === key ? result.data : undefined;
    } catch {
      return undefined;
    }
  }

  private async compactJournalIfLarge(): Promise<void> {
    if (this.journalOffset < this.compactBytes) return;
    // Replacing the file (new inode) tells every other process to reload from the directory. The
    // history goes on from the last sequence number; cursors before it get a reset.
    await this.writeJournalStart({ op: 'start', epoch: this.epoch ?? newId(), seq: this.lastSeq });
  }
}

/** A journal line that names a change, or undefined (a start line, a torn or foreign line). */
function parseJournalLine(text: string): JournalLine | undefined {
  if (!text) return undefined;
  try {
    const line = JSON.parse(text) as Partial<JournalLine>;
    if ((line.op !== 'put' && line.op !== 'del') || typeof line.key !== 'string' || typeof line.path !== 'string') return undefined;
    return { op: line.op, key: line.key, path: line.path, ...(typeof line.seq === 'number' ? { seq: line.seq } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * The snapshot sections of the records: their JSON one after another (`records`) and where each
 * ends (`records.ends`), their keys, and their paths one after another (`records.paths`,
 * `records.pathEnds`), so an open parses a record only when it is asked for. Serialised in
 * slices, with the event loop running between them.
 */
async function encodeRecords<T>(records: ReadonlyArray<SerialisedRecord<T>>): Promise<Array<[string, SnapshotSection]>> {
  const texts: Buffer[] = [];
  const ends = new Uint32Array(records.length);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    if (i > 0 && i % ENCODE_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const item = records[i]!;
    const bytes = 'bytes' in item ? item.bytes : Buffer.from(JSON.stringify(item.record), 'utf8');
    texts.push(bytes);
    at += bytes.length;
    ends[i] = at;
  }
  const paths = records.map((item) => Buffer.from(item.path, 'utf8'));
  const pathEnds = new Uint32Array(records.length);
  paths.reduce((end, path, i) => (pathEnds[i] = end + path.length), 0);
  return [
    ['records', { kind: 'bytes', value: Buffer.concat(texts, at) }],
    ['records.ends', { kind: 'u32', value: ends }],
    ['records.keys', { kind: 'json', value: records.map((item) => item.key) }],
    ['records.paths', { kind: 'bytes', value: Buffer.concat(paths) }],
    ['records.pathEnds', { kind: 'u32', value: pathEnds }],
  ];
}

/** The journal's start line (if it has one) and the highest sequence number in its last lines. */
async function readJournalEdges(path: string, size: number): Promise<{ start?: JournalStart; lastSeq?: number }> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return {};
  try {
    const head = Buffer.alloc(Math.min(size, 512));
    await handle.read(head, 0, head.length, 0);
    const first = head.toString('utf8').split('\n')[0] ?? '';
    let start: JournalStart | undefined;
    try {
      const parsed = JSON.parse(first) as Partial<JournalStart>;
      if (parsed.op === 'start' && typeof parsed.epoch === 'string' && typeof parsed.seq === 'number') start = { op: 'start', epoch: parsed.epoch, seq: parsed.seq };
    } catch {
      // No start line: a journal from before the change feed, or a torn first write.
    }
    const tailLength = Math.min(size, 64 * 1024);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let lastSeq: number | undefined;
    for (const text of tail.toString('utf8').split('\n')) {
      const seq = parseJournalLine(text)?.seq;
      if (seq !== undefined && (lastSeq === undefined || seq > lastSeq)) lastSeq = seq;
    }
    return { ...(start ? { start } : {}), ...(lastSeq !== undefined ? { lastSeq } : {}) };
  } finally {
    await handle.close();
  }
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The snapshot's bytes, read in one synchronous call (a promise-based read of tens of MiB goes chunk by chunk through the thread pool); undefined if absent or unreadable. */
function readSnapshotFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
