import { mkdir, rename } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ILogger } from '@reverie/core';

/**
 * Moves a file that cannot be read as a valid record out of the way, into `quarantineDir`,
 * under a name that keeps its original relative path (`a/b/x.json` → `a__b__x.json.<time>`),
 * and says so through the logger. Nothing is deleted: a person can inspect and restore it.
 */
export async function quarantineFile(
  file: string,
  root: string,
  quarantineDir: string,
  reason: string,
  logger: ILogger,
  now: Date,
): Promise<string> {
  const flatName = `${relative(root, file).split(/[\\/]/).join('__')}.${now.toISOString().replace(/[:.]/g, '-')}`;
  const target = join(quarantineDir, flatName);
  await mkdir(quarantineDir, { recursive: true });
  await rename(file, target);
  logger.warn(`Moved an unreadable file to quarantine: ${reason}`, { file, quarantinedAs: target });
  return target;
}
