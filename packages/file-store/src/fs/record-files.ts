import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { IClock, ILogger } from '@reverie/core';
import { fsyncDirectory, isTemporaryFile, writeFileAtomic } from './atomic-write';
import type { DocumentLayout } from './document-layout';
import { QuarantineFolder } from './quarantine';
import { statOrUndefined } from './stat-or-undefined';

/**
 * Files read per slice during a cold load. Synchronous reads are several times faster than
 * promise-based ones for many small files; slicing and yielding between slices keeps the event
 * loop responsive while a large memory loads.
 */
const READ_SLICE = 500;

/** A record read from its file, with the file's absolute path. */
export interface RecordFile<T> {
  record: T;
  file: string;
}

/**
 * A collection's record files on disk, one JSON file per record under `root`: written atomically,
 * read and validated with the layout's schema, and moved to `.quarantine/` when they cannot be
 * read as a record that belongs where it is.
 */
export class RecordFiles<T> {
  /** Where record files that cannot be read or indexed are moved. */
  private readonly quarantineFolder: QuarantineFolder;

  constructor(
    readonly root: string,
    private readonly layout: DocumentLayout<T>,
    logger: ILogger,
    private readonly clock: IClock,
  ) {
    this.quarantineFolder = new QuarantineFolder(root, logger, clock);
  }

  /** The absolute path of a record file from its path relative to the root. */
  absolute(path: string): string {
    return join(this.root, ...path.split('/'));
  }

  /** The path of `file` relative to the root, with "/" separators. */
  relative(file: string): string {
    return relative(this.root, file).split(sep).join('/');
  }

  /** Writes `record` to `path` (relative to the root) atomically. */
  async write(path: string, record: T): Promise<void> {
    await writeFileAtomic(this.absolute(path), `${JSON.stringify(record, null, 2)}\n`);
  }

  async remove(path: string): Promise<void> {
    const file = this.absolute(path);
    await rm(file, { force: true });
    await fsyncDirectory(dirname(file));
  }

  /** Moves `file` to the quarantine folder, saying why through the logger. */
  async quarantine(file: string, reason: string): Promise<void> {
    await this.quarantineFolder.file(file, reason);
  }

  /**
   * Reads every record file under the root, in slices. Of two files holding one key (after a
   * crash mid-move), the newer record is kept and the other file quarantined.
   */
  async readAll(): Promise<Map<string, RecordFile<T>>> {
    const files = await this.list();
    const loaded = new Map<string, RecordFile<T>>();
    for (let i = 0; i < files.length; i += READ_SLICE) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const parsed: Array<RecordFile<T> | undefined> = [];
      for (const file of files.slice(i, i + READ_SLICE)) parsed.push(await this.read(this.absolute(file)));
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
        await this.quarantine(drop.file, `an older copy of ${this.layout.what} ${key}`);
      }
    }
    return loaded;
  }

  /**
   * Every record file under the root, as paths relative to it with "/" separators. Reads each
   * folder synchronously (one call per folder, much faster than the promise-based walk for
   * folders of many thousand files); stale temporary files are removed after the walk.
   */
  async list(): Promise<string[]> {
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
  async removeStaleTemporary(file: string): Promise<void> {
    const info = await statOrUndefined(file);
    if (info && this.clock.now().getTime() - info.mtimeMs > 60 * 60 * 1000) await rm(file, { force: true });
  }

  /**
   * The record in `file`, or undefined when the file is gone. A file that is not valid JSON, not
   * a valid record, or not where its content says it belongs is quarantined (undefined too).
   */
  async read(file: string): Promise<RecordFile<T> | undefined> {
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
        reason = `${this.relative(file)} is not where its content says it belongs`;
      } else {
        reason = `not a valid ${this.layout.what}: ${result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`;
      }
    } catch (error) {
      reason = `not valid JSON (${(error as Error).message})`;
    }
    await this.quarantine(file, reason);
    return undefined;
  }

  /** The record in `file` if it is valid and has `key`; undefined otherwise (never throws). */
  async readQuietly(file: string, key: string): Promise<T | undefined> {
    try {
      const result = this.layout.schema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      return result.success && this.layout.keyOf(result.data) === key ? result.data : undefined;
    } catch {
      return undefined;
    }
  }
}
