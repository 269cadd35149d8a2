import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = resolve(cliDir, '..');

/** The workspace packages the binary loads from node_modules, in build order. */
const WORKSPACE_DEPENDENCIES = ['core', 'file-store', 'dream', 'reverie', 'server'];

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function tsup(packageDir: string): void {
  execFileSync(join(packageDir, 'node_modules', '.bin', 'tsup'), [], { cwd: packageDir, stdio: 'pipe' });
}

/**
 * The process-level tests run the real `dist/cli.js`, which loads `reverie`, `@reverie/dream`…
 * from their `dist/`. `pnpm build` (CI) leaves them fresh; a local `pnpm test` on a fresh clone
 * or after editing a package rebuilds the ones whose `dist/` is missing or older than `src/`
 * (the same rule as core's build-output test, so the two never rebuild one package at once).
 * The CLI itself is always rebuilt: it takes a second.
 */
export default function setup(): void {
  for (const name of WORKSPACE_DEPENDENCIES) {
    const packageDir = join(packagesDir, name);
    const built = join(packageDir, 'dist', 'index.js');
    if (!existsSync(built) || statSync(built).mtimeMs < newestMtime(join(packageDir, 'src'))) tsup(packageDir);
  }
  tsup(cliDir);
}
