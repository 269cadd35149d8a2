import { defineConfig } from 'tsup';

// ESM only, like the CLI that starts it: the MCP SDK and the workspace packages stay dependencies.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
