import { defineConfig } from 'tsup';

// Two entries that share their code through chunks (`splitting`, in the ESM and the CJS build
// alike, so each class exists once per format): `index`, the stores, and `internal`, the building
// blocks the monorepo's other packages share (not covered by semver).
export default defineConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts' },
  format: ['esm', 'cjs'],
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // In the CJS build a lazy `import('x')` becomes `require('x')`, so CommonJS hosts load the CJS
  // build of a dependency, as they do for static imports, and never a second (ESM) copy of it.
  // load-usearch.ts reads `import.meta.url` only where `__filename` is missing (the ESM build); the
  // CJS build with chunks keeps `import.meta` as written, which CommonJS cannot parse: there it
  // reads `__filename`.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') {
      options.supported = { ...options.supported, 'dynamic-import': false };
      options.define = { ...options.define, 'import.meta.url': '__filename' };
    }
  },
});
