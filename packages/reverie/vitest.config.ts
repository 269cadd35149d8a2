import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: {
    name: 'reverie',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A real PostgreSQL server for the builder's PostgreSQL suites (a throwaway cluster, or REVERIE_TEST_POSTGRES_URL).
    globalSetup: ['../postgres/test/postgres-server.global-setup.ts'],
  },
});
