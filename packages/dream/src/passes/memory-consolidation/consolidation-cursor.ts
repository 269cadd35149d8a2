import { createHash } from 'node:crypto';
import { open, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsyncDirectory, writeFileAtomic } from '@reverie/file-store';
import { CursorFiles } from '../../cursors/cursor-files';
import { PassCursor } from '../../cursors/pass-cursor';
import { cursorsDir } from '../../runs/run-paths';
import type { DreamCursorStore } from '../../state/dream-state-store';
import { idSchema, isValidId, type MemoryEntry, newId, ownValue, timestampMs, timestampSchema } from '@reverie/core';
import { z } from 'zod';
import { FINGERPRINT_RECORD_BYTES, type FingerprintChange, type FingerprintLookup, SeenFingerprints } from './seen-fingerprints';

const positionSchema = z.object({ at: timestampSchema, id: z.string() });

/**
 * A record of short strings keyed by entry id, checked in one plain loop: how cursors written
 * before the fingerprints had files of their own kept `seen` (read once, to migrate it), and how
 * a plan hands the fingerprints of what it considered to `commit`.
 */
export const fingerprintsSchema = z.custom<Record<string, string>>(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return Object.entries(value).every(([key, fingerprint]) => isValidId(key) && typeof fingerprint === 'string');
  },
  { message: 'seen must map entry ids to fingerprints' },
);
export type CursorPosition = z.infer<typeof positionSchema>;

/**
 * SPEC D18, B1: what the pass remembers between runs, in
 * `_system/dreams/cursors/memory-consolidation.json`, written only after a run was applied.
 */
export const consolidationCursorSchema = z.object({
  version: z.literal(1),
  /** `updatedAt` (and id, for ties) of the newest entry already considered. */
  entries: positionSchema.optional(),
  /**
   * SPEC B12: the memory store's change-feed cursor after the last change the model step
   * considered. With it, a run reads what changed instead of listing every entry.
   */
  feed: z.string().optional(),
  /** The change-feed cursor of the deterministic pre-pass when no model is configured. */
  prepass: z.string().optional(),
  /**
   * Entries the pass wrote itself after the model saw their sources, with the `updatedAt` the
   * store gave them: newer than `entries`, yet not a change to review again. An entry changed by
   * anyone since has another `updatedAt` and counts as changed.
   */
  written: z.record(idSchema, timestampSchema).default({}),
  /** Timestamp (and id) of the newest feedback signal already shown to the model. */
  feedback: positionSchema.optional(),
  /** `seen` as cursors kept it before `seenFiles`: read once, to migrate it. */
  seen: fingerprintsSchema.optional(),
  /**
   * Where the fingerprints of `seen` are (see `ConsolidationCursorFile`): the generation of the
   * sorted file and its log, and how many bytes of the log belong to applied runs.
   */
  seenFiles: z.object({ generation: idSchema, log: z.number().int().nonnegative() }).optional(),
  /**
   * Items whose merge or rewrite the guards refused for a reason the model can fix: offered to
   * the model again once `after` has passed, at most `maxRetries` times (SPEC B11).
   */
  retry: z.record(z.string(), z.object({ attempts: z.number().int().min(1), after: timestampSchema })).default({}),
});
type StoredCursor = z.output<typeof consolidationCursorSchema>;

export type ConsolidationCursor = Omit<StoredCursor, 'seen'> & {
  /**
   * The wording (content, category, tags) of every live entry already considered, as a short
   * hash. An entry rewritten by something that leaves its wording alone — the importance-decay
   * pass, a promotion — has a newer `updatedAt` but is not a change worth a model call (B1).
   */
  seen: FingerprintLookup;
};

/** The cursor before any run. */
export const EMPTY_CURSOR: ConsolidationCursor = Object.freeze({ version: 1, written: Object.freeze({}), seen: SeenFingerprints.empty(), retry: Object.freeze({}) }) as ConsolidationCursor;

/** A short hash of what the model would see of an entry: its content, category and tags. */
export function wordingFingerprint(entry: Pick<MemoryEntry, 'content' | 'category' | 'tags'>): string {
  return createHash('sha1').update(JSON.stringify([entry.content, entry.category, entry.tags])).digest('base64url').slice(0, 12);
}

/** Orders positions by time (as instants), then by id. */
export function comparePositions(a: CursorPosition, b: CursorPosition): number {
  return timestampMs(a.at) - timestampMs(b.at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function entryPosition(entry: Pick<MemoryEntry, 'id' | 'updatedAt'>): CursorPosition {
  return { at: entry.updatedAt, id: entry.id };
}

/**
 * True when the entry changed since the cursor: newer than its position (unless `byPosition` is
 * false, when a change feed already said it changed), not the pass's own write, and worded
 * differently from when the pass last considered it.
 */
export function changedSince(cursor: ConsolidationCursor, entry: MemoryEntry, byPosition = true): boolean {
  if (byPosition && cursor.entries && comparePositions(entryPosition(entry), cursor.entries) <= 0) return false;
  const written = ownValue(cursor.written, entry.id);
  if (written !== undefined && timestampMs(written) === timestampMs(entry.updatedAt)) return false;
  const seen = cursor.seen.get(entry.id);
  return seen === undefined || seen !== wordingFingerprint(entry);
}

/**
 * The cursor after a run: `entries` moved to `through` (never backwards), own writes recorded,
 * and writes the new position already covers forgotten, so `written` stays small. `seen` is
 * left as it is: its changes are written with the cursor (`ConsolidationCursorFile.write`).
 */
export function advanceCursor(
  cursor: ConsolidationCursor,
  change: {
    through?: CursorPosition | undefined;
    written: ReadonlyArray<Pick<MemoryEntry, 'id' | 'updatedAt'>>;
    feedback?: CursorPosition | undefined;
    /** The change-feed cursors after this run; unchanged when absent. */
    feed?: string | undefined;
    prepass?: string | undefined;
    /** The retry queue after this run (see `nextRetries`); unchanged when absent. */
    retry?: ConsolidationCursor['retry'];
  },
): ConsolidationCursor {
  const entries = latest(cursor.entries, change.through);
  const merged = new Map([...Object.entries(cursor.written), ...change.written.map((entry): [string, string] => [entry.id, entry.updatedAt])]);
  const written = Object.fromEntries([...merged].filter(([id, at]) => entries === undefined || comparePositions({ at, id }, entries) > 0));
  const feedback = latest(cursor.feedback, change.feedback);
  const feed = change.feed ?? cursor.feed;
  const prepass = change.prepass ?? cursor.prepass;
  return {
    version: 1,
    ...(entries ? { entries } : {}),
    ...(feed !== undefined ? { feed } : {}),
    ...(prepass !== undefined ? { prepass } : {}),
    written,
    ...(feedback ? { feedback } : {}),
    seen: cursor.seen,
    ...(cursor.seenFiles ? { seenFiles: cursor.seenFiles } : {}),
    retry: change.retry ?? cursor.retry,
  };
}

/**
 * The retry queue after a run (SPEC B11). Items refused again get one more attempt, due after
 * `retryAfterHours` × 2^(attempts − 1); past `maxRetries` attempts they are given up (listed in
 * `givenUp`). Items that were due and shown but not refused again, and items no longer live,
 * leave the queue. Pure.
 */
export function nextRetries(
  queue: ConsolidationCursor['retry'],
  run: { refused: ReadonlySet<string>; shown: ReadonlySet<string>; isLive: (id: string) => boolean; now: Date },
  options: { maxRetries: number; retryAfterHours: number },
): { retry: ConsolidationCursor['retry']; givenUp: string[] } {
  const retry = new Map<string, ConsolidationCursor['retry'][string]>();
  const givenUp: string[] = [];
  for (const [id, state] of Object.entries(queue)) {
    if (!run.isLive(id) || run.refused.has(id) || run.shown.has(id)) continue;
    retry.set(id, state);
  }
  for (const id of run.refused) {
    if (!run.isLive(id)) continue;
    const attempts = (ownValue(queue, id)?.attempts ?? 0) + 1;
    if (attempts > options.maxRetries) {
      givenUp.push(id);
      continue;
    }
    const wait = options.retryAfterHours * 3_600_000 * 2 ** (attempts - 1);
    retry.set(id, { attempts, after: new Date(run.now.getTime() + wait).toISOString() });
  }
  return { retry: Object.fromEntries(retry), givenUp };
}

/** The queued items due for another attempt at `now`, oldest due first. Pure. */
export function dueRetries(queue: ConsolidationCursor['retry'], now: Date): string[] {
  return Object.entries(queue)
    .filter(([, state]) => timestampMs(state.after) <= now.getTime())
    .sort(([a, x], [b, y]) => timestampMs(x.after) - timestampMs(y.after) || (a < b ? -1 : 1))
    .map(([id]) => id);
}

function latest(a: CursorPosition | undefined, b: CursorPosition | undefined): CursorPosition | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** What a run changes of `seen`: the changes, and the live ids when the run listed every entry (the rest are forgotten). */
export interface SeenUpdate {
  changes: readonly FingerprintChange[];
  live?: ReadonlySet<string>;
}

/** One pass's consolidation cursor in a state store's cursors (see `DreamCursorStore.readConsolidation`). */
export function consolidationCursorOf(cursors: DreamCursorStore, pass: string) {
  return {
    read: () => cursors.readConsolidation(pass),
    write: (cursor: ConsolidationCursor, before: ConsolidationCursor, update?: SeenUpdate) => cursors.writeConsolidation(pass, cursor, before, update),
  };
}

/**
 * The log is folded into a new sorted file once it holds more records than this share of the
 * sorted file (and more than `MIN_LOG_RECORDS`): reading stays one file plus a short log, and the
 * sorted file is rewritten about once every `1 / LOG_SHARE` of the memory that changed.
 */
const LOG_SHARE = 0.25;
const MIN_LOG_RECORDS = 4096;

/**
 * Where the cursor lives, in `_system/dreams/cursors/`: `memory-consolidation.json` for the small
 * part, and `seen` (one fingerprint per entry ever considered) in two files beside it, named by a
 * generation the small part records: `memory-consolidation.seen.<generation>.sorted`, fixed-width
 * records sorted by id, and `memory-consolidation.seen.<generation>.log`, the changes since,
 * appended. The small part also records how many bytes of the log belong to applied runs, and is
 * written after them:
 *
 * - a run appends its changes to the log (fsynced), then writes the small part with the log's new
 *   length. A crash in between leaves a tail the small part does not count: it is ignored when
 *   read and cut off by the next append, so a run's fingerprints apply with its cursor or not at
 *   all, never twice;
 * - when the log has grown (or a run listed every entry, or the cursor comes from an older
 *   version), the sorted file of a new generation is written, then the small part naming it, then
 *   the files of other generations are removed. A crash in between leaves the old generation in
 *   force and files that the next rewrite removes.
 *
 * Cursors from before kept `seen` in `memory-consolidation.seen.json` or in the small part; they
 * are read, and the next write moves them to the new files.
 */
export class ConsolidationCursorFile {
  private readonly main: PassCursor<StoredCursor>;
  private readonly dir: string;

  constructor(
    dataPath: string,
    private readonly pass: string,
  ) {
    this.main = new PassCursor(new CursorFiles(dataPath), pass, consolidationCursorSchema);
    this.dir = cursorsDir(dataPath);
  }

  async read(): Promise<ConsolidationCursor> {
    const { seen: legacy, seenFiles, ...small } = (await this.main.read()) ?? { version: 1 as const, written: {}, retry: {} };
    if (seenFiles) {
      const [sorted, log] = await Promise.all([readOrEmpty(this.sortedFile(seenFiles.generation)), readOrEmpty(this.logFile(seenFiles.generation))]);
      const seen = SeenFingerprints.fromFiles(sorted, log.subarray(0, seenFiles.log));
      // A log shorter than the small part says was cut: what is left moves to a new generation at the next write.
      return log.length < seenFiles.log ? { ...small, seen } : { ...small, seen, seenFiles };
    }
    const stored = await readFile(this.legacySeenFile, 'utf8').then(
      (text) => JSON.parse(text) as unknown,
      () => undefined,
    ).catch(() => undefined);
    const record = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, string>) : legacy;
    return { ...small, seen: record ? SeenFingerprints.fromRecord(record) : SeenFingerprints.empty() };
  }

  /**
   * Writes `cursor` (as advanced from `before`, the cursor as read) and the changes of `seen`:
   * appended to the log, or folded into a new sorted file (see the class). Nothing is written
   * when nothing changed.
   */
  async write(cursor: ConsolidationCursor, before: ConsolidationCursor, update: SeenUpdate = { changes: [] }): Promise<void> {
    const { seen: _, seenFiles: __, ...small } = cursor;
    const { seen: ___, seenFiles: ____, ...smallBefore } = before;
    const seen = before.seen instanceof SeenFingerprints ? before.seen : SeenFingerprints.empty();
    const files = before.seenFiles;
    // Fingerprints kept the old way (or read from a log cut short) move to a new generation.
    const rewrite = files === undefined && !seen.empty;
    if (update.changes.length === 0 && update.live === undefined && !rewrite) {
      if (JSON.stringify(small) !== JSON.stringify(smallBefore)) await this.main.write({ ...small, ...(files ? { seenFiles: files } : {}) });
      return;
    }
    const logRecords = files === undefined ? Number.POSITIVE_INFINITY : files.log / FINGERPRINT_RECORD_BYTES + update.changes.length;
    if (update.live !== undefined || logRecords > Math.max(MIN_LOG_RECORDS, LOG_SHARE * seen.sortedRecords)) {
      const generation = newId();
      await writeFileAtomic(this.sortedFile(generation), seen.compacted(update.changes, update.live));
      await this.main.write({ ...small, seenFiles: { generation, log: 0 } });
      await this.removeOtherGenerations(generation);
      return;
    }
    const log = await appendAt(this.logFile(files!.generation), files!.log, SeenFingerprints.logRecords(update.changes));
    await this.main.write({ ...small, seenFiles: { generation: files!.generation, log } });
  }

  private get legacySeenFile(): string {
    return join(this.dir, `${this.pass}.seen.json`);
  }

  private sortedFile(generation: string): string {
    return join(this.dir, `${this.pass}.seen.${generation}.sorted`);
  }

  private logFile(generation: string): string {
    return join(this.dir, `${this.pass}.seen.${generation}.log`);
  }

  /** Removes the fingerprint files of every other generation (and `seen.json`): best effort, the small part no longer names them. */
  private async removeOtherGenerations(generation: string): Promise<void> {
    const prefix = `${this.pass}.seen.`;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name.startsWith(prefix) && !name.startsWith(`${prefix}${generation}.`))
        .map((name) => rm(join(this.dir, name), { force: true }).catch(() => undefined)),
    );
  }
}

async function readOrEmpty(file: string): Promise<Buffer> {
  return readFile(file).catch(() => Buffer.alloc(0));
}

/**
 * Appends `bytes` to `file` after its first `length` bytes (a longer file held the tail of a run
 * that never committed: it is cut off), fsyncs it, and returns the new length. A new file's
 * directory is fsynced too, so the file survives a power cut.
 */
async function appendAt(file: string, length: number, bytes: Buffer): Promise<number> {
  const handle = await open(file, 'a');
  try {
    const { size } = await handle.stat();
    if (size > length) await handle.truncate(length);
    await handle.write(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (length === 0) await fsyncDirectory(dirname(file));
  return length + bytes.length;
}
