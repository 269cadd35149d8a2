import { defineConfig } from 'vitest/config';

// Vitest 4 reads no workspace file on its own: this is the root config, run it with
// `vitest run --config vitest.workspace.ts` (what `pnpm test` does).
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*'],
  },
});
