import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: {
    name: 'cli',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Process-level tests run the built binary: build it (and the packages it loads) first.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
  },
});
