/**
 * The records of a snapshot as it was written: each record's key, JSON text and file path, in
 * the byte sections the collection wrote them to. A record is parsed only when it is asked for,
 * so opening from a snapshot does not build an object for each of 100,000 records (and the
 * young generation is not left full of them for the first searches to collect). Immutable: it
 * answers for the snapshot, whatever happens to the records later.
 */
export class SnapshotRecords<T> {
  private numbers: Map<string, number> | undefined;

  /**
   * `texts` holds the records' JSON one after another, record `i` ending at byte `ends[i]`;
   * `paths` their file paths (UTF-8) likewise, path `i` ending at byte `pathEnds[i]`.
   */
  constructor(
    readonly keys: readonly string[],
    private readonly texts: Buffer,
    private readonly ends: Uint32Array,
    private readonly paths: Buffer,
    private readonly pathEnds: Uint32Array,
  ) {
    assertSlices(ends, keys.length, texts.length, 'record');
    assertSlices(pathEnds, keys.length, paths.length, 'path');
  }

  get size(): number {
    return this.keys.length;
  }

  /** Record `index` as the snapshot holds it (a new object at every call). */
  recordAt(index: number): T {
    const record = JSON.parse(this.bytesAt(index).toString('utf8')) as T;
    if (typeof record !== 'object' || record === null) throw new Error(`record ${this.keys[index]} is not an object`);
    return record;
  }

  /** The JSON bytes of record `index`, as written (a view, not a copy). */
  bytesAt(index: number): Buffer {
    return this.texts.subarray(index === 0 ? 0 : this.ends[index - 1]!, this.ends[index]!);
  }

  /** The file path of record `index`, relative to the collection root (decoded at every call: no string is held per record). */
  pathAt(index: number): string {
    return this.paths.toString('utf8', index === 0 ? 0 : this.pathEnds[index - 1]!, this.pathEnds[index]!);
  }

  has(key: string): boolean {
    return this.numberOf(key) !== undefined;
  }

  /** The record with this key as the snapshot holds it, or undefined if it holds none. */
  recordOf(key: string): T | undefined {
    const index = this.numberOf(key);
    return index === undefined ? undefined : this.recordAt(index);
  }

  private numberOf(key: string): number | undefined {
    this.numbers ??= new Map(this.keys.map((each, index) => [each, index]));
    return this.numbers.get(key);
  }
}

/** Throws unless `ends` holds `count` offsets in order, none past `length`. */
function assertSlices(ends: Uint32Array, count: number, length: number, what: string): void {
  if (ends.length !== count) throw new Error(`the ${what}s and their offsets differ in number`);
  for (let i = 0; i < count; i++)
    if (ends[i]! < (i === 0 ? 0 : ends[i - 1]!) || ends[i]! > length) throw new Error(`the ${what} offsets are not in order`);
}

/** What readers of a collection see of its records. */
export interface RecordReader<T> {
  readonly size: number;
  has(key: string): boolean;
  get(key: string): T | undefined;
  /** Every record (parsing those not parsed yet). */
  values(): IterableIterator<T>;
}

/** A record ready to be written to a snapshot: its key, its path, and its JSON as bytes or the record to serialise. */
export type SerialisedRecord<T> = { key: string; path: string } & ({ bytes: Buffer } | { record: T });

/**
 * A collection's records by key. Those opened from a snapshot stay unparsed (their number in
 * `SnapshotRecords`) until something reads them, and are then kept parsed; a record set since
 * is held as given. Records are replaced, never changed in place.
 */
export class RecordMap<T extends object> implements RecordReader<T> {
  private readonly held = new Map<string, T | number>();
  /** Keys set or deleted since the snapshot was read. */
  private readonly changed = new Set<string>();

  constructor(
    private readonly pathOfRecord: (record: T) => string,
    private readonly snapshot?: SnapshotRecords<T>,
  ) {
    if (!snapshot) return;
    snapshot.keys.forEach((key, index) => this.held.set(key, index));
    if (this.held.size !== snapshot.keys.length) throw new Error('the snapshot lists a record twice');
  }

  get size(): number {
    return this.held.size;
  }

  has(key: string): boolean {
    return this.held.has(key);
  }

  get(key: string): T | undefined {
    const value = this.held.get(key);
    return typeof value === 'number' ? this.parse(key, value) : value;
  }

  /** The record's file path relative to the collection root, without parsing the record. */
  pathOf(key: string): string | undefined {
    const value = this.held.get(key);
    if (value === undefined) return undefined;
    return typeof value === 'number' ? this.snapshot!.pathAt(value) : this.pathOfRecord(value);
  }

  /** Whether the record is the one the snapshot holds: not set nor deleted since it was read. */
  isAsSnapshot(key: string): boolean {
    return this.snapshot !== undefined && this.held.has(key) && !this.changed.has(key);
  }

  set(key: string, record: T): void {
    this.held.set(key, record);
    if (this.snapshot) this.changed.add(key);
  }

  delete(key: string): boolean {
    if (this.snapshot) this.changed.add(key);
    return this.held.delete(key);
  }

  keys(): IterableIterator<string> {
    return this.held.keys();
  }

  *values(): IterableIterator<T> {
    for (const [key, value] of this.held) yield typeof value === 'number' ? this.parse(key, value) : value;
  }

  /** Parses record `index` of the snapshot and keeps it (replacing a value in place keeps the map's order). */
  private parse(key: string, index: number): T {
    const record = this.snapshot!.recordAt(index);
    this.held.set(key, record);
    return record;
  }

  /**
   * Every record with its key and path, in one tick (for a snapshot): those still as the
   * snapshot holds them as its bytes, not parsed to be serialised again.
   */
  serialise(): Array<SerialisedRecord<T>> {
    const out: Array<SerialisedRecord<T>> = [];
    for (const [key, value] of this.held) {
      if (typeof value === 'number') out.push({ key, path: this.snapshot!.pathAt(value), bytes: this.snapshot!.bytesAt(value) });
      else out.push({ key, path: this.pathOfRecord(value), record: value });
    }
    return out;
  }
}
