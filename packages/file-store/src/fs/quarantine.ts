import { randomBytes } from 'node:crypto';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { type IClock, type ILogger } from '@reverie/core';
import { fileSystemError } from '@reverie/core/internal';
import { fsyncDirectory } from './atomic-write';

/** The name of a store's quarantine folder, under the store's directory. */
export const QUARANTINE = '.quarantine';

/**
 * A store's quarantine folder, `<root>/.quarantine`: `quarantineFile` and `quarantineRecords` for
 * the files under `root`, said through the store's logger at its clock's time. The document
 * collections' record files and working memory's group files share it.
 */
export class QuarantineFolder {
  readonly dir: string;

  constructor(
    private readonly root: string,
    private readonly logger: ILogger,
    private readonly clock: IClock,
  ) {
    this.dir = join(root, QUARANTINE);
  }

  /** Moves `file` (under the root) into the folder; see `quarantineFile`. */
  file(file: string, reason: string): Promise<string> {
    return quarantineFile(file, this.root, this.dir, reason, this.logger, this.clock.now());
  }

  /** Keeps `records` taken out of `file` (under the root) in the folder; see `quarantineRecords`. */
  records(records: readonly unknown[], file: string, reason: string): Promise<string> {
    return quarantineRecords(records, file, this.root, this.dir, reason, this.logger, this.clock.now());
  }
}

/**
 * Moves a file that cannot be read as a valid record out of the way, into `quarantineDir`, and
 * says so through the logger. Nothing is deleted or overwritten: a person can inspect and restore it.
 *
 * The copy keeps the file's relative path as folders (`a/b/x.json` → `.quarantine/a/b/x.json.<time>.<random>`),
 * so two different files never map to one name, and the time plus random suffix keeps repeated
 * quarantines of one path apart. The move is `link` then `unlink`: `link` fails instead of
 * replacing an existing file, so even a clash of suffixes cannot overwrite an earlier copy, and a
 * crash between the two steps leaves the file in both places, never in neither.
 */
export async function quarantineFile(
  file: string,
  root: string,
  quarantineDir: string,
  reason: string,
  logger: ILogger,
  now: Date,
): Promise<string> {
  const relativePath = relative(root, file).split(/[\\/]/);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let attempt = 0; ; attempt++) {
    const target = join(quarantineDir, ...relativePath.slice(0, -1), `${relativePath.at(-1)}.${stamp}.${randomBytes(4).toString('hex')}`);
    try {
      await mkdir(dirname(target), { recursive: true });
      await link(file, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw fileSystemError(error, 'quarantine an unreadable file', file);
    }
    await fsyncDirectory(dirname(target));
    await unlink(file).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw fileSystemError(error, 'remove a quarantined file from its folder', file);
    });
    logger.warn(`Moved an unreadable file to quarantine: ${reason}`, { file, quarantinedAs: target });
    return target;
  }
}

/**
 * Keeps records taken out of a file that holds others too (a working-memory group file) in a file
 * of their own under `quarantineDir` — `<relative path>.<time>.<random>.records.json`, holding
 * `{ file, reason, records }` — and says so through the logger. The records are never lost, and
 * the file they came from can be rewritten without them.
 */
export async function quarantineRecords(
  records: readonly unknown[],
  file: string,
  root: string,
  quarantineDir: string,
  reason: string,
  logger: ILogger,
  now: Date,
): Promise<string> {
  const relativePath = relative(root, file).split(/[\\/]/);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const target = join(
    quarantineDir,
    ...relativePath.slice(0, -1),
    `${relativePath.at(-1)}.${stamp}.${randomBytes(4).toString('hex')}.records.json`,
  );
  try {
    await mkdir(dirname(target), { recursive: true });
    // 'wx': never replaces an earlier copy.
    await writeFile(target, `${JSON.stringify({ file: relativePath.join('/'), reason, records }, null, 2)}\n`, { flag: 'wx' });
    await fsyncDirectory(dirname(target));
  } catch (error) {
    throw fileSystemError(error, 'quarantine unreadable records', target);
  }
  logger.warn(`Moved ${records.length} unreadable record(s) to quarantine: ${reason}`, { file, quarantinedAs: target });
  return target;
}
