import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  // Two users' full dream cycles on PGlite: ~3 s on a quiet machine, 20 s on a shared one (vitest's 5 s default is too short).
  test: { name: 'example-multi-user', environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 60_000 },
});
