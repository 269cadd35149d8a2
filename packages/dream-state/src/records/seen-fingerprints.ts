import { isValidId } from '@reverie/core';

/**
 * One fingerprint on disk: the entry id (12 hex characters), its wording fingerprint (12 base64url
 * characters, see `wordingFingerprint`) and a newline. Fixed width, so a sorted file of them is
 * searched in place, without parsing it.
 */
export const FINGERPRINT_RECORD_BYTES = 25;
const ID_CHARS = 12;
const FINGERPRINT = /^[A-Za-z0-9_-]{12}$/;
/** The fingerprint of a removal in the log: not a base64url character, so never a real fingerprint. */
const REMOVED = '~'.repeat(12);
const NEWLINE = 0x0a;

/** Looks up the fingerprint the pass last recorded for an entry. */
export interface FingerprintLookup {
  get(id: string): string | undefined;
}

/** Fingerprints to record (`put`) and to forget (`remove`), in order: a later change to an id wins. */
export type FingerprintChange = readonly [id: string, fingerprint: string | null];

/**
 * The consolidation cursor's `seen` (SPEC B1, B12): one wording fingerprint per entry ever
 * considered, held as a sorted file of fixed-width records (searched in place) plus the changes
 * logged since it was written (a map). Reading costs one file read and the log; a run records
 * what it changed by appending to the log (`logRecords`), and the sorted file is rewritten only
 * when the log grows past a share of it (`compacted`).
 */
export class SeenFingerprints implements FingerprintLookup {
  private readonly count: number;

  private constructor(
    private readonly sorted: Buffer,
    private readonly logged: ReadonlyMap<string, string | null>,
  ) {
    this.count = sorted.length / FINGERPRINT_RECORD_BYTES;
  }

  static empty(): SeenFingerprints {
    return new SeenFingerprints(Buffer.alloc(0), new Map());
  }

  /**
   * From the sorted file and the log's committed bytes. A sorted file that is not whole records
   * counts as empty, and the log is read up to its first record that does not end its line: a
   * lost or mangled fingerprint only makes an entry count as changed, never hides a change.
   */
  static fromFiles(sorted: Buffer, log: Buffer): SeenFingerprints {
    const base = sorted.length % FINGERPRINT_RECORD_BYTES === 0 ? sorted : Buffer.alloc(0);
    const logged = new Map<string, string | null>();
    for (let at = 0; at + FINGERPRINT_RECORD_BYTES <= log.length; at += FINGERPRINT_RECORD_BYTES) {
      if (log[at + FINGERPRINT_RECORD_BYTES - 1] !== NEWLINE) break;
      const fingerprint = log.toString('latin1', at + ID_CHARS, at + 2 * ID_CHARS);
      logged.set(log.toString('latin1', at, at + ID_CHARS), fingerprint === REMOVED ? null : fingerprint);
    }
    return new SeenFingerprints(base, logged);
  }

  /** From the record the cursor kept before the fingerprints had files (`seen.json`); other values are dropped. */
  static fromRecord(record: Readonly<Record<string, string>>): SeenFingerprints {
    const kept = Object.entries(record).filter(([id, fingerprint]) => isValidId(id) && FINGERPRINT.test(fingerprint));
    return new SeenFingerprints(encode(kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), new Map());
  }

  get(id: string): string | undefined {
    const logged = this.logged.get(id);
    if (logged !== undefined) return logged ?? undefined;
    if (this.count === 0 || id.length !== ID_CHARS) return undefined;
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = middle * FINGERPRINT_RECORD_BYTES;
      const order = compareId(this.sorted, at, id);
      if (order === 0) return this.sorted.toString('latin1', at + ID_CHARS, at + 2 * ID_CHARS);
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** True when no fingerprint is recorded (none sorted, none logged). */
  get empty(): boolean {
    return this.count === 0 && this.logged.size === 0;
  }

  /** Records in the sorted file. */
  get sortedRecords(): number {
    return this.count;
  }

  /** The log records that apply `changes` (the fingerprints to record or forget). */
  static logRecords(changes: readonly FingerprintChange[]): Buffer {
    return encode(changes.map(([id, fingerprint]) => [id, fingerprint ?? REMOVED]));
  }

  /**
   * The sorted file with the log and `changes` applied, keeping only the ids in `live` when it is
   * given (a run that listed every entry forgets the rest).
   */
  compacted(changes: readonly FingerprintChange[], live?: ReadonlySet<string>): Buffer {
    const over = new Map(this.logged);
    for (const [id, fingerprint] of changes) over.set(id, fingerprint);
    const overIds = [...over.keys()].sort();
    const merged = new RecordWriter(this.count + overIds.length);
    const keep = (id: string, fingerprint: string | null) => {
      if (fingerprint !== null && (live === undefined || live.has(id))) merged.put(id, fingerprint);
    };
    let next = 0;
    for (let index = 0; index < this.count; index++) {
      const at = index * FINGERPRINT_RECORD_BYTES;
      const id = this.sorted.toString('latin1', at, at + ID_CHARS);
      while (next < overIds.length && overIds[next]! < id) keep(overIds[next]!, over.get(overIds[next++]!)!);
      if (next < overIds.length && overIds[next] === id) keep(id, over.get(overIds[next++]!)!);
      else if (live === undefined || live.has(id)) merged.copy(this.sorted, at);
    }
    while (next < overIds.length) keep(overIds[next]!, over.get(overIds[next++]!)!);
    return merged.written();
  }
}

/**
 * The changes that record `fingerprints` (entry id → fingerprint) and forget the `gone` ids (a
 * fingerprint given for the same id wins), leaving out what `seen` already holds (a repeated
 * commit appends nothing). Reads the record in place: a run that considered every entry hands
 * over 100k of them. Pure.
 */
export function fingerprintChanges(
  seen: FingerprintLookup,
  change: { fingerprints: Readonly<Record<string, string>>; gone?: Iterable<string> },
): FingerprintChange[] {
  const changes: FingerprintChange[] = [];
  const consider = (id: string, fingerprint: string | null) => {
    if (!isValidId(id) || (fingerprint !== null && !FINGERPRINT.test(fingerprint))) return;
    if ((seen.get(id) ?? null) !== fingerprint) changes.push([id, fingerprint]);
  };
  const removed = new Set<string>();
  for (const id of change.gone ?? []) {
    if (Object.hasOwn(change.fingerprints, id) || removed.has(id)) continue;
    removed.add(id);
    consider(id, null);
  }
  for (const [id, fingerprint] of Object.entries(change.fingerprints)) consider(id, fingerprint);
  return changes;
}

/**
 * The order of the record id at `at` against `id` (a 12-character id), byte by byte as
 * `Buffer.compare` orders them, without its argument checks: a lookup makes about 17 of these.
 */
function compareId(sorted: Buffer, at: number, id: string): number {
  for (let i = 0; i < ID_CHARS; i++) {
    const difference = sorted[at + i]! - (id.charCodeAt(i) & 0xff);
    if (difference !== 0) return difference;
  }
  return 0;
}

function encode(records: ReadonlyArray<readonly [string, string]>): Buffer {
  const writer = new RecordWriter(records.length);
  for (const [id, fingerprint] of records) writer.put(id, fingerprint);
  return writer.written();
}

/** Fixed-width records written one after another into a buffer sized for at most `capacity` of them. */
class RecordWriter {
  private readonly buffer: Buffer;
  private end = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity * FINGERPRINT_RECORD_BYTES);
  }

  put(id: string, fingerprint: string): void {
    this.buffer.write(id, this.end, ID_CHARS, 'latin1');
    this.buffer.write(fingerprint, this.end + ID_CHARS, ID_CHARS, 'latin1');
    this.buffer[this.end + FINGERPRINT_RECORD_BYTES - 1] = NEWLINE;
    this.end += FINGERPRINT_RECORD_BYTES;
  }

  /** Copies the record at `at` of `source` as it is. */
  copy(source: Buffer, at: number): void {
    source.copy(this.buffer, this.end, at, at + FINGERPRINT_RECORD_BYTES);
    this.end += FINGERPRINT_RECORD_BYTES;
  }

  written(): Buffer {
    return this.buffer.subarray(0, this.end);
  }
}
