import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: {
    name: 'cli',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Process-level tests run the built binary: build it (and the packages it loads) first; the
    // --postgres tests get a real PostgreSQL server (a throwaway cluster, or REVERIE_TEST_POSTGRES_URL).
    globalSetup: ['test/global-setup.ts', '../postgres/test/postgres-server.global-setup.ts'],
    testTimeout: 60_000,
  },
});
