import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // In the CJS build a lazy `import('x')` becomes `require('x')`, so CommonJS hosts load the CJS
  // build of a dependency, as they do for static imports, and never a second (ESM) copy of it.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
  },
});
