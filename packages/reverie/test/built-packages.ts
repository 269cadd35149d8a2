import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (max, entry) => Math.max(max, entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs),
    0,
  );

/** A build under way in another test file holds this directory; one left by a killed run is removed after ten minutes. */
const LOCK = join(repositoryRoot, 'node_modules', '.reverie-test-build.lock');
const LOCK_STALE_MS = 10 * 60_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds each of `packages` (folder names under packages/, in dependency order) whose dist/ is
 * missing or older than its sources, one test file at a time: the tests that load what a user
 * gets (`require('@reverie/postgres')`, child processes) run against the build output.
 */
export function buildIfStale(packages: readonly string[]): void {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })!.mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      sleepSync(200);
    }
  }
  try {
    for (const name of packages) {
      const dir = join(repositoryRoot, 'packages', name);
      const built = join(dir, 'dist', 'index.js');
      if (!existsSync(built) || statSync(built).mtimeMs < newest(join(dir, 'src'))) {
        execFileSync(join(dir, 'node_modules', '.bin', 'tsup'), [], { cwd: dir, stdio: 'pipe' });
      }
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
