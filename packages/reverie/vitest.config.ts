import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: {
    name: 'reverie',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // As in the other packages: CI runs the whole suite on two cores, where a test that takes one second alone can take several.
    testTimeout: 30_000,
    // A real PostgreSQL server for the builder's PostgreSQL suites (a throwaway cluster, or REVERIE_TEST_POSTGRES_URL).
    globalSetup: ['../postgres/test/postgres-server.global-setup.ts'],
  },
});
