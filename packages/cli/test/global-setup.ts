import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = resolve(cliDir, '..');

/** The workspace packages the binary loads from node_modules, in build order. */
const WORKSPACE_DEPENDENCIES = ['core', 'dream-state', 'file-store', 'dream', 'postgres', 'reverie', 'server'];

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Runs a package's own `build` script (tsup; for the server, the inspector page's Vite build too). */
function build(packageDir: string): void {
  const { scripts } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { scripts: { build: string } };
  const env = { ...process.env, PATH: `${join(packageDir, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };
  execFileSync('sh', ['-c', scripts.build], { cwd: packageDir, env, stdio: 'pipe' });
}

/** What a package's build writes, each beside the sources it is built from. */
function outputsOf(name: string): Array<{ output: string; sources: string }> {
  const outputs = [{ output: join('dist', 'index.js'), sources: 'src' }];
  if (name === 'server') outputs.push({ output: join('dist', 'inspector', 'index.html'), sources: 'inspector' });
  return outputs;
}

/**
 * The process-level tests run the real `dist/cli.js`, which loads `reverie`, `@reverie/dream`…
 * from their `dist/` (and `reverie serve` the inspector page from `@reverie/server`'s). `pnpm
 * build` (CI) leaves them fresh; a local `pnpm test` on a fresh clone or after editing a package
 * rebuilds the ones whose output is missing or older than its sources (the same rule as core's
 * build-output test, so the two never rebuild one package at once). The CLI itself is always
 * rebuilt: it takes a second.
 */
export default function setup(): void {
  for (const name of WORKSPACE_DEPENDENCIES) {
    const packageDir = join(packagesDir, name);
    const stale = outputsOf(name).some(({ output, sources }) => {
      const built = join(packageDir, output);
      return !existsSync(built) || statSync(built).mtimeMs < newestMtime(join(packageDir, sources));
    });
    if (stale) build(packageDir);
  }
  build(cliDir);
}
