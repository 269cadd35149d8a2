import { defineConfig } from 'tsup';

// Three entries that share their code through chunks (`splitting`, in the ESM and the CJS build
// alike, so each class exists once per format): `index`, the engine and its passes; `options`,
// the passes' option schemas a host validates when it is built (src/options.ts), which `reverie`
// imports statically; and `internal`, what Reverie's other packages use of the engine directly
// (not covered by semver), which `reverie` imports only with its first cycle. The conformance kit
// (`./testing`) is ESM-only, like `@reverie/core/testing`: it is built on Vitest, which cannot be
// loaded from CommonJS.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', options: 'src/options.ts', internal: 'src/internal.ts' },
    format: ['esm', 'cjs'],
    splitting: true,
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    // In the CJS build a lazy `import('x')` becomes `require('x')`, so CommonJS hosts load the CJS
    // build of a dependency, as they do for static imports, and never a second (ESM) copy of it.
    esbuildOptions(options, { format }) {
      if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
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
