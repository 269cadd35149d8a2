import { readdirSync, type Stats, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { type IClock, type ILogger, namespaceOf, type WorkingMemoryEntry, workingMemoryEntrySchema } from '@reverie/core';
import { describeIssues, fileSystemError } from '@reverie/core/internal';
import { writeFileAtomic } from '../fs/atomic-write';
import { QuarantineFolder } from '../fs/quarantine';

const GROUP_FILE_VERSION = 1;

/** One group file: the live entries whose key starts with the group's segment, oldest first. */
const groupFileSchema = z.object({
  schemaVersion: z.literal(GROUP_FILE_VERSION),
  entries: z.array(z.unknown()),
});

/** What a group file looked like when this process last read or wrote it. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export type GroupFileRead =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string; stamp: FileStamp }
  | { kind: 'read'; entries: Map<string, WorkingMemoryEntry>; stamp: FileStamp; stale: boolean };

/** What a read asks of the entries it finds: whether their time is up, and why the index cannot take one in. */
export interface EntryChecks {
  isExpired(entry: WorkingMemoryEntry): boolean;
  indexProblem(entry: WorkingMemoryEntry): string | undefined;
}

/**
 * Working memory's files on disk: one group file per namespace, `<dir>/<kind>/<id>.json`
 * (`{ schemaVersion, entries }`), written atomically; files of the older one-file-per-kind layout
 * (`<dir>/<kind>.json`) are read with the same format. What cannot be read goes to `.quarantine/`.
 */
export class GroupFiles {
  private readonly quarantineFolder: QuarantineFolder;

  constructor(
    readonly dir: string,
    private readonly checks: EntryChecks,
    private readonly logger: ILogger,
    clock: IClock,
  ) {
    this.quarantineFolder = new QuarantineFolder(dir, logger, clock);
  }

  fileOf(name: string): string {
    return join(this.dir, ...name.split('/')) + '.json';
  }

  /** The group file's stamp as it is now, by a synchronous `stat` (see `GroupSync.refreshScope`); undefined when there is none. */
  stampOf(name: string): FileStamp | undefined {
    const current = statOrUndefined(this.fileOf(name));
    return current && stampOf(current);
  }

  /** Writes a group's file (under the lock) and returns its stamp as written. */
  async write(name: string, entries: Map<string, WorkingMemoryEntry>): Promise<FileStamp | undefined> {
    const file = this.fileOf(name);
    const body = { schemaVersion: GROUP_FILE_VERSION, entries: [...entries.values()] };
    await writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
    const written = statOrUndefined(file);
    return written && stampOf(written);
  }

  /** Moves a file that is not a readable group file to `.quarantine/` (under the lock). */
  async quarantine(file: string, reason: string): Promise<void> {
    await this.quarantineFolder.file(file, `${file} is ${reason}`);
  }

  async read(
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
        this.logger.warn(`Skipped an invalid working-memory entry: ${problem}`, {
          file,
          position,
          key: (raw as { key?: unknown } | null)?.key,
        });
        return;
      }
      if (this.checks.isExpired(entry)) {
        stale = true;
        return;
      }
      const unindexable = this.checks.indexProblem(entry);
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
      await this.quarantineFolder.records(
        setAside,
        file,
        setAside.map(({ position, problem }) => `entry ${position}: ${problem}`).join('; '),
      );
    }
    return { kind: 'read', entries, stamp, stale };
  }

  /**
   * Files of the directory and of its kind folders, as relative paths (`session/abc.json`,
   * `session.json`). For a kind, only that kind's folder; for a group, only its file. Files of
   * the older layout are found by the full listing: on load, by sweeps, and by reads of every
   * group (`list()`, `search`).
   */
  list(scope = ''): string[] {
    if (scope !== '') {
      const kind = scope.split('/')[0]!;
      if (scope !== kind) return [`${scope}.json`];
      const files: string[] = [];
      try {
        for (const entry of readdirSync(join(this.dir, kind), { withFileTypes: true }))
          if (entry.isFile()) files.push(`${kind}/${entry.name}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR')
          throw ioError(`list ${this.dir}`, error, this.dir);
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
export function groupOf(key: string): string {
  return namespaceOf(key).toLowerCase();
}

export function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function stampOf(info: Stats): FileStamp {
  return { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
}

/** A synchronous `stat` (see `GroupSync.refreshScope`); undefined when the file does not exist. */
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
