import { defineConfig } from 'tsup';

// Three entries that share their code through chunks (`splitting`, in the ESM and the CJS build
// alike, so each class exists once per format): `index`, what a host imports; `tokens`, the typed
// injection tokens alone, for a host's service classes (`@inject(TOKENS.Clock)`); and `internal`,
// what Reverie's other packages share with the runtime (not covered by semver).
export default defineConfig({
  entry: { index: 'src/index.ts', tokens: 'src/di/tokens.ts', internal: 'src/internal.ts' },
  format: ['esm', 'cjs'],
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  esbuildOptions(options, { format }) {
    if (format !== 'cjs') return;
    // In the CJS build a lazy `import('x')` becomes `require('x')`, so CommonJS hosts load the CJS
    // build of a dependency, as they do for static imports, and never a second (ESM) copy of it.
    options.supported = { ...options.supported, 'dynamic-import': false };
    // The modules that `require` from this package read `import.meta.url` only where `__filename`
    // is missing (the ESM build). The CJS build with chunks keeps `import.meta` as written, which
    // CommonJS cannot parse: there it reads `__filename`.
    options.define = { ...options.define, 'import.meta.url': '__filename' };
  },
});
