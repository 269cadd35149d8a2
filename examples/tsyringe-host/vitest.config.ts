import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: { name: 'example-tsyringe-host', environment: 'node', include: ['src/**/*.test.ts'] },
});
