import { defineConfig } from 'tsup';

// The main entry ships as ESM and CJS. The conformance kit (`./testing`) is ESM-only: it is built
// on Vitest, which cannot be loaded from CommonJS, and `exports` declares it with `import` only.
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
  },
  {
    entry: { 'testing/index': 'src/testing/index.ts' },
    format: ['esm'],
    dts: true,
    clean: false,
    sourcemap: true,
    target: 'node20',
    external: ['vitest'],
  },
]);
