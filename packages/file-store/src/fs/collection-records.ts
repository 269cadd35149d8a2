import type { CollectionListener, DocumentLayout } from './document-layout';
import { RecordMap, type SnapshotRecords } from './record-map';
import type { RecordFile, RecordFiles } from './record-files';

/**
 * A collection's records in memory and the listener told about each change to them: every piece
 * that changes the records (a write, a journal line, the directory, the check after an open from
 * the snapshot) goes through here, so the listener never misses one.
 */
export class CollectionRecords<T extends object> {
  /** The records by key; replaced whole by a full load or an open from the snapshot. */
  map: RecordMap<T>;

  constructor(
    private readonly layout: DocumentLayout<T>,
    private readonly listener: CollectionListener<T>,
    private readonly files: RecordFiles<T>,
  ) {
    this.map = new RecordMap((record) => this.layout.pathOf(record));
  }

  /** Starts over with no records, or with a snapshot's; the listener is not told (it restores its own state). */
  restart(stored?: SnapshotRecords<T>): void {
    this.map = new RecordMap((record) => this.layout.pathOf(record), stored);
  }

  /**
   * Makes the records those of a full read of the directory, telling the listener about every
   * record dropped and admitting every one read.
   */
  async replaceAll(loaded: ReadonlyMap<string, RecordFile<T>>): Promise<void> {
    const previous = this.map;
    this.restart();
    for (const key of previous.keys()) if (!loaded.has(key)) this.listener.onDelete(previous.get(key)!);
    for (const [key, { record, file }] of loaded) await this.admit(record, previous.get(key), this.files.relative(file));
  }

  /** Drops `record`, held under `key`, and tells the listener. */
  forget(key: string, record: T): void {
    this.map.delete(key);
    this.listener.onDelete(record);
  }

  /**
   * Applies a record whose file is on disk at `path`. When the listener cannot take it in (SPEC
   * M2: one record must never make the whole collection unreadable), the record is dropped, its
   * file quarantined with the reason, and false returned; the other records are served as before.
   */
  async admit(record: T, previous: T | undefined, path: string): Promise<boolean> {
    try {
      this.apply(record, previous);
      return true;
    } catch (error) {
      const key = this.layout.keyOf(record);
      if (previous !== undefined) this.forget(key, previous);
      await this.files.quarantine(
        this.files.absolute(path),
        `${this.layout.what} ${key} could not be indexed (${(error as Error).message})`,
      );
      return false;
    }
  }

  private apply(record: T, previous: T | undefined): void {
    this.listener.onPut(record, previous);
    this.map.set(this.layout.keyOf(record), record);
  }
}
