import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: {
    name: 'postgres',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A real PostgreSQL server for the real-server suites (a throwaway cluster, or REVERIE_TEST_POSTGRES_URL).
    globalSetup: ['test/postgres-server.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
