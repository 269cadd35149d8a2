import { defineConfig } from 'tsup';

// The main entry and `internal` (the building blocks the monorepo's other packages share, not
// covered by semver) ship as ESM and CJS, sharing their code through chunks (`splitting`, in both
// formats, so each class and each cache exists once per format). The conformance kit
// (`./testing`) is ESM-only: it is built on Vitest, which cannot be loaded from CommonJS, and
// `exports` declares it with `import` only.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', internal: 'src/internal.ts' },
    format: ['esm', 'cjs'],
    splitting: true,
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    // require-commonjs.ts reads `import.meta.url` only where `__filename` is missing (the ESM build).
    // The CJS build with chunks keeps `import.meta` as written, which CommonJS cannot parse: there
    // it reads `__filename`.
    esbuildOptions(options, { format }) {
      if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': '__filename' };
    },
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
