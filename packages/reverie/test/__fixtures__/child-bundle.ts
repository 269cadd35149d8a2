import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..', '..', '..');

interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/**
 * Bundles a child (`dream-child.ts` unless `entry` names another fixture) with the workspace's TypeScript sources (paths of the root
 * tsconfig, decorators included) and its dependencies into one ESM file in `outDir`, and returns
 * its path. A child then starts in about half a second instead of the seconds that loading
 * every source file through tsx's loader takes, which is what makes a hundred kill trials
 * affordable. esbuild comes with tsx, a dev dependency of @reverie/dream. `external` packages are
 * not bundled but loaded at run time, resolved from `outDir`.
 */
export async function bundleDreamChild(outDir: string, entry = 'dream-child.ts', external: readonly string[] = []): Promise<string> {
  const fromTsx = createRequire(createRequire(join(root, 'packages', 'dream', 'package.json')).resolve('tsx'));
  const esbuild = fromTsx(fromTsx.resolve('esbuild')) as Esbuild;
  const outfile = join(outDir, entry.replace(/\.ts$/, '.mjs'));
  await esbuild.build({
    entryPoints: [join(here, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
    // Packages left out are loaded at run time from where the bundle is written.
    external,
    // Bundled CommonJS dependencies call require() for Node's built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}
