import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileSystemError } from '@reverie/core';

/**
 * Writes a file so that a reader, or a process that restarts after a crash, sees either the old
 * content or the new one, never a mix: the bytes go to a temporary file in the same directory,
 * are fsynced, and the temporary file is renamed over the target. The directory is fsynced too,
 * so the rename itself survives a power cut. Temporary names start with "." and end in ".tmp";
 * stores skip and clean them up when they scan.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    await fsyncDirectory(dir);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw fileSystemError(error, 'write a file', path);
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
