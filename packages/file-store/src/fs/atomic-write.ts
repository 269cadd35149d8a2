import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileSystemError } from '@reverie/core/internal';

/**
 * Writes a file so that a reader, or a process that restarts after a crash, sees either the old
 * content or the new one, never a mix: the bytes go to a temporary file in the same directory,
 * are fsynced, and the temporary file is renamed over the target. The directory is fsynced too,
 * so the rename itself survives a power cut. Temporary names start with "." and end in ".tmp";
 * stores skip and clean them up when they scan.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeAndRename(path, data, true);
  await fsyncDirectory(dirname(path));
}

/**
 * Replaces a file as `writeFileAtomic` does (readers and a restarted process see the old content
 * or the new, never a mix) but without waiting for the disk: a power cut may lose it until
 * `syncFiles` has flushed it. For files that many small writes produce and one later moment must
 * find on disk (a run's prompts and replies, flushed together before the run records its plan).
 */
export async function writeFileAtomicUnsynced(path: string, data: string | Uint8Array): Promise<void> {
  await writeAndRename(path, data, false);
}

/** Flushes files (`parallelism` at a time) and then each of their directories once. */
export async function syncFiles(paths: readonly string[], parallelism = 16): Promise<void> {
  for (let start = 0; start < paths.length; start += parallelism) {
    await Promise.all(
      paths.slice(start, start + parallelism).map(async (path) => {
        try {
          const handle = await open(path, 'r+');
          try {
            await handle.sync();
          } finally {
            await handle.close();
          }
        } catch (error) {
          throw fileSystemError(error, 'flush a file', path);
        }
      }),
    );
  }
  await Promise.all([...new Set(paths.map((path) => dirname(path)))].map((dir) => fsyncDirectory(dir)));
}

async function writeAndRename(path: string, data: string | Uint8Array, sync: boolean): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await openCreatingDirectory(temp, dir);
    try {
      await handle.writeFile(data);
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw fileSystemError(error, 'write a file', path);
  }
}

/**
 * Opens `temp` for writing, creating `dir` (and its parents) first only when it is missing: most
 * writes go to a directory that exists (a run folder gets dozens of artifacts), and asking for it
 * each time cost a system call per write.
 */
async function openCreatingDirectory(temp: string, dir: string) {
  try {
    return await open(temp, 'w');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    return open(temp, 'w');
  }
}

/** Flushes a directory's entries (renames, unlinks) to disk. A no-op where unsupported. */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** True for the temporary files `writeFileAtomic` leaves behind when a process dies mid-write. */
export function isTemporaryFile(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
