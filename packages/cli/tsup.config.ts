import { defineConfig } from 'tsup';

// The `reverie` binary: one ESM file with a shebang; the workspace packages and providers stay
// dependencies (loaded from node_modules), so the CLI runs the same code the library does.
// `index` exposes the REVERIE_MODEL loader to hosts and examples.
export default defineConfig([
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    dts: false,
    clean: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    dts: true,
    clean: false,
    target: 'node20',
  },
]);
