import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type ILogger, ReverieError, ReverieLockHeldError } from '@reverie/core';
import { fileSystemError, loadOnce } from '@reverie/core/internal';

// proper-lockfile (and graceful-fs under it) loads with the first lock a process takes, not with
// the package (docs/architecture.md, "What loads lazily").
const loadLockfile = loadOnce(() => import('proper-lockfile'));

export interface DirectoryLockOptions {
  /** A lock whose holder has not refreshed it for this long is taken over (default 10 s). */
  staleMs?: number;
  /** How long to keep trying before giving up with LOCK_HELD (default 30 s). */
  timeoutMs?: number;
  logger?: ILogger;
}

/**
 * A lock shared by every process that opens the same directory, for the short critical
 * sections of a write (read the latest state, write, record the change). Built on
 * proper-lockfile: the lock is a `.lock` directory inside `dir`, refreshed while held, and
 * taken over when its holder died and left it stale.
 */
export class DirectoryLock {
  private readonly lockPath: string;
  private readonly staleMs: number;
  private readonly timeoutMs: number;
  private readonly logger: ILogger | undefined;

  constructor(
    private readonly dir: string,
    options: DirectoryLockOptions = {},
  ) {
    this.lockPath = join(dir, '.lock');
    this.staleMs = options.staleMs ?? 10_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.logger = options.logger;
  }

  /** Runs `critical` while holding the lock. */
  async run<T>(critical: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await critical();
    } finally {
      await release().catch((error: unknown) => {
        this.logger?.warn('Could not release a store lock; it will be taken over once stale.', {
          lock: this.lockPath,
          error: String(error),
        });
      });
    }
  }

  private async acquire(): Promise<() => Promise<void>> {
    const { default: lockfile } = await loadLockfile();
    const started = Date.now();
    let delay = 2;
    let createdFolder = false;
    for (;;) {
      try {
        return await lockfile.lock(this.dir, {
          lockfilePath: this.lockPath,
          realpath: false,
          stale: this.staleMs,
          retries: 0,
          onCompromised: (error) => {
            this.logger?.error('A store lock was compromised (another process took it over).', {
              lock: this.lockPath,
              error: String(error),
            });
          },
        });
      } catch (error) {
        // The folder is created when a lock first finds it missing, not checked before every lock.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !createdFolder) {
          createdFolder = true;
          await mkdir(this.dir, { recursive: true }).catch((failure: unknown) => {
            throw fileSystemError(failure, 'create a data folder', this.dir);
          });
          continue;
        }
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw fileSystemError(error, 'take the store lock', this.lockPath);
        await this.assertLockIsAFolder();
        if (Date.now() - started > this.timeoutMs) {
          throw new ReverieLockHeldError(
            `Another process has held ${this.lockPath} for over ${Math.round(this.timeoutMs / 1000)} s. If no other Reverie process uses this data directory, delete that folder and retry.`,
            { cause: error, details: { lock: this.lockPath } },
          );
        }
        await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
        delay = Math.min(delay * 2, 50);
      }
    }
  }

  /** A lock is a folder; a file of that name is never released by anyone, so waiting is pointless. */
  private async assertLockIsAFolder(): Promise<void> {
    const info = await lstat(this.lockPath).catch(() => undefined);
    if (info === undefined || info.isDirectory()) return;
    throw new ReverieError(
      'NOT_A_DIRECTORY',
      `${this.lockPath} is a file, but Reverie's store lock is a folder of that name. Move the file away (no Reverie process created it) and retry.`,
      { details: { path: this.lockPath } },
    );
  }
}
