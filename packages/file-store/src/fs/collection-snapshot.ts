import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ILogger } from '@reverie/core';
import { writeFileAtomic } from './atomic-write';
import { type ChangeJournal, readJournalEdges } from './change-journal';
import type { CollectionRecords } from './collection-records';
import { type FolderTimes, RACY_MS } from './directory-reconciliation';
import type { RecordFiles } from './record-files';
import { type SerialisedRecord, SnapshotRecords } from './record-map';
import { type DecodedSection, decodeSnapshot, encodeSnapshot, type SnapshotPosition, type SnapshotSection } from './snapshot-file';
import { statOrUndefined } from './stat-or-undefined';

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

/** What a snapshot holds, captured by the collection in one tick of its write queue. */
export interface CollectionCapture<T> {
  position: SnapshotPosition;
  folders: FolderTimes;
  records: Array<SerialisedRecord<T>>;
  /** The listener's sections (`CollectionSnapshotHooks.capture`). */
  sections: Map<string, SnapshotSection>;
}

/** An open from the snapshot: the records as it holds them, and the folder times when it was taken. */
export interface OpenedSnapshot<T> {
  stored: SnapshotRecords<T>;
  folders: FolderTimes;
  takenAt: number;
}

export interface CollectionSnapshotOptions<T extends object> {
  root: string;
  hooks: CollectionSnapshotHooks<T>;
  /** Rewrites the snapshot once this many changes were made since it. */
  every: number;
  logger: ILogger;
  journal: ChangeJournal;
  files: RecordFiles<T>;
  records: CollectionRecords<T>;
  /**
   * Captures what to write, in the collection's write queue; undefined when the snapshot on disk
   * is current, or when none can be written now.
   */
  capture: () => Promise<CollectionCapture<T> | undefined>;
}

const SNAPSHOT = '.snapshot.bin';
/** The collection's part of the snapshot format (records, folder times); prefixed to the hooks' version. */
const SNAPSHOT_FORMAT = 'collection/2';
/** A background snapshot is written this long after it became due, so a burst of work goes first. */
const SNAPSHOT_DELAY_MS = 1000;
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
 * A collection's snapshot, `<root>/.snapshot.bin` (see `docs/file-store.md`): when it is due and
 * written in the background, how an open uses it (when it still accounts for the journal), and
 * the check of the record files after such an open.
 */
export class CollectionSnapshot<T extends object> {
  readonly path: string;
  private readonly hooks: CollectionSnapshotHooks<T>;
  private readonly every: number;
  private readonly logger: ILogger;
  private readonly journal: ChangeJournal;
  private readonly files: RecordFiles<T>;
  private readonly records: CollectionRecords<T>;
  private readonly capture: () => Promise<CollectionCapture<T> | undefined>;
  /** The journal position of the snapshot on disk as far as this process knows. */
  private at: SnapshotPosition | undefined;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private closed = false;

  constructor(options: CollectionSnapshotOptions<T>) {
    this.path = join(options.root, SNAPSHOT);
    this.hooks = options.hooks;
    this.every = options.every;
    this.logger = options.logger;
    this.journal = options.journal;
    this.files = options.files;
    this.records = options.records;
    this.capture = options.capture;
  }

  /**
   * Opens from the snapshot if it accounts for the journal as it is now: same history (epoch),
   * and either the same journal file holding at least the bytes the snapshot saw, or a journal
   * compacted exactly at the snapshot's position. The records and the listener's state are then
   * the snapshot's, and the journal is followed from its position; the collection applies the
   * journal lines after it (their files re-read) and compares the directory listing with the
   * records: a file that is gone (deleted, quarantined) is dropped and a file with no journal line
   * (written by an older version, copied in by hand) is read. Anything doubtful means a full scan
   * instead (undefined).
   */
  async open(): Promise<OpenedSnapshot<T> | undefined> {
    const bytes = readSnapshotFile(this.path);
    if (!bytes) return undefined;
    const snapshot = decodeSnapshot(bytes);
    const journal = await statOrUndefined(this.journal.path);
    const refuse = (reason: string) => {
      this.logger.info('Not opening from the snapshot; reading every file instead.', { file: this.path, reason });
      return undefined;
    };
    if (!snapshot) return refuse('not a whole snapshot (torn, truncated or edited)');
    const version = `${SNAPSHOT_FORMAT} ${this.hooks.version}`;
    if (snapshot.version !== version) return refuse(`written as version ${snapshot.version}, this is ${version}`);
    if (!journal) return refuse('the change journal is gone');
    const at = snapshot.position;
    if (!at) return refuse('no journal position');
    const edges = await readJournalEdges(this.journal.path, journal.size);
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
      if (
        texts?.kind !== 'bytes' ||
        ends?.kind !== 'u32' ||
        keys?.kind !== 'json' ||
        paths?.kind !== 'bytes' ||
        pathEnds?.kind !== 'u32' ||
        folderSection?.kind !== 'json'
      ) {
        return refuse('no records');
      }
      folders = new Map(Object.entries(JSON.parse(folderSection.text) as Record<string, [number, number]>));
      const keyList = JSON.parse(keys.text) as unknown;
      if (!Array.isArray(keyList) || !keyList.every((key) => typeof key === 'string')) throw new Error('the record keys are not strings');
      stored = new SnapshotRecords<T>(keyList as string[], texts.value, ends.value, paths.value, pathEnds.value);
      this.records.restart(stored);
      this.hooks.restore(stored, snapshot.sections);
    } catch (error) {
      this.records.restart();
      return refuse(`the sections do not fit: ${(error as Error).message}`);
    }
    this.journal.resumeAt({
      epoch: at.epoch,
      baseSeq: edges.start.seq,
      lastSeq: Math.max(at.seq, edges.lastSeq ?? 0),
      inode: journal.ino,
      offset: from,
    });
    this.at = at;
    return { stored, folders, takenAt: at.takenAt };
  }

  /**
   * After an open from the snapshot: re-reads, in small slices off the hot path, the record
   * files modified since shortly before the snapshot was taken (an edit in place leaves no
   * journal line). Only records still as the snapshot holds them are checked (any other was
   * read from its file or written since); they are compared as JSON text, without parsing them.
   */
  verifyInBackground(stored: SnapshotRecords<T>, takenAt: number): void {
    const since = takenAt - RACY_MS;
    void (async () => {
      for (let i = 0; i < stored.size && !this.closed; i += VERIFY_BATCH) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, VERIFY_PAUSE_MS));
        const batch: Array<{ index: number; file: string }> = [];
        for (let index = i; index < Math.min(i + VERIFY_BATCH, stored.size); index++) {
          if (this.records.map.isAsSnapshot(stored.keys[index]!)) batch.push({ index, file: this.files.absolute(stored.pathAt(index)) });
        }
        // Promise-based stats run on the thread pool, off the event loop that answers searches.
        const times = await Promise.all(
          batch.map(({ file }) =>
            stat(file).then(
              (info) => info.mtimeMs,
              () => undefined,
            ),
          ),
        );
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
          const item = await this.files.read(file);
          if (!this.records.map.isAsSnapshot(key)) continue;
          const record = this.records.map.get(key)!;
          if (!item) this.records.forget(key, record);
          else if (JSON.stringify(item.record) !== stored.bytesAt(index).toString('utf8'))
            await this.records.admit(item.record, record, stored.pathAt(index));
        }
      }
    })().catch((error: unknown) =>
      this.logger.warn('Could not check the record files after opening from the snapshot.', { error: String(error) }),
    );
  }

  /** Whether the snapshot on disk is at the journal position this process has read to. */
  isCurrent(): boolean {
    return this.at !== undefined && this.journal.isAt(this.at);
  }

  /** Schedules a snapshot if many changes were made since the last one, or the journal was compacted. */
  scheduleIfBehind(): void {
    const at = this.at;
    if (!at || at.inode !== this.journal.inode || this.journal.lastSeq - at.seq >= this.every) this.schedule();
  }

  schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, SNAPSHOT_DELAY_MS);
    this.timer.unref();
  }

  /** Writes the snapshot now (normally it is written in the background). */
  write(): Promise<void> {
    this.writing ??= this.persist()
      .catch((error: unknown) =>
        this.logger.warn('Could not write the snapshot; the next open reads every file instead.', {
          file: this.path,
          error: String(error),
        }),
      )
      .finally(() => {
        this.writing = undefined;
      });
    return this.writing;
  }

  /** Stops scheduling snapshots and the check after an open; `write()` still works. */
  stop(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Resolves when the snapshot being written, if any, is written or has failed. */
  async settled(): Promise<void> {
    await this.writing?.catch(() => undefined);
  }

  /**
   * Captures the records, the listener's state and the journal position in one tick (in the
   * write queue, so no write of this process is half applied), then encodes in slices and
   * writes atomically. Two processes may both write one: each is whole and consistent with the
   * position it names, and the next open checks that position against the journal.
   */
  private async persist(): Promise<void> {
    const captured = await this.capture();
    if (!captured) return;
    const sections = new Map<string, SnapshotSection>([
      ...(await encodeRecords(captured.records)),
      ['folders', { kind: 'json', value: Object.fromEntries(captured.folders) }],
      ...captured.sections,
    ]);
    await writeFileAtomic(
      this.path,
      encodeSnapshot({ version: `${SNAPSHOT_FORMAT} ${this.hooks.version}`, position: captured.position, sections }),
    );
    this.at = captured.position;
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

/** The snapshot's bytes, read in one synchronous call (a promise-based read of tens of MiB goes chunk by chunk through the thread pool); undefined if absent or unreadable. */
function readSnapshotFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
