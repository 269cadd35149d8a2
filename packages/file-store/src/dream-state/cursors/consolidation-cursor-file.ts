import { open, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { newId } from '@reverie/core';
import {
  type ConsolidationCursor,
  consolidationCursorSchema,
  FINGERPRINT_RECORD_BYTES,
  PassCursor,
  SeenFingerprints,
  type SeenUpdate,
  type StoredConsolidationCursor,
} from '@reverie/dream-state';
import { fsyncDirectory, writeFileAtomic } from '../../fs/atomic-write';
import { cursorsDir } from '../dream-state-paths';
import { CursorFiles } from './cursor-files';

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
  private readonly main: PassCursor<StoredConsolidationCursor>;
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
      const [sorted, log] = await Promise.all([
        readOrEmpty(this.sortedFile(seenFiles.generation)),
        readOrEmpty(this.logFile(seenFiles.generation)),
      ]);
      const seen = SeenFingerprints.fromFiles(sorted, log.subarray(0, seenFiles.log));
      // A log shorter than the small part says was cut: what is left moves to a new generation at the next write.
      return log.length < seenFiles.log ? { ...small, seen } : { ...small, seen, seenFiles };
    }
    const stored = await readFile(this.legacySeenFile, 'utf8')
      .then(
        (text) => JSON.parse(text) as unknown,
        () => undefined,
      )
      .catch(() => undefined);
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
      if (JSON.stringify(small) !== JSON.stringify(smallBefore))
        await this.main.write({ ...small, ...(files ? { seenFiles: files } : {}) });
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
