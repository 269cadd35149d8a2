import { fileURLToPath } from 'node:url';

const root = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Tests run against the TypeScript sources of sibling packages, not their build output, so
 * `pnpm test` works on a fresh clone before anything is built. More specific entries first.
 */
export const sourceAliases = [
  { find: /^@reverie\/core\/testing$/, replacement: root('./packages/core/src/testing/index.ts') },
  { find: /^@reverie\/core\/internal$/, replacement: root('./packages/core/src/internal.ts') },
  { find: /^@reverie\/core$/, replacement: root('./packages/core/src/index.ts') },
  { find: /^@reverie\/postgres$/, replacement: root('./packages/postgres/src/index.ts') },
  { find: /^@reverie\/file-store\/internal$/, replacement: root('./packages/file-store/src/internal.ts') },
  { find: /^@reverie\/file-store$/, replacement: root('./packages/file-store/src/index.ts') },
  { find: /^@reverie\/dream-state\/testing$/, replacement: root('./packages/dream-state/src/testing/index.ts') },
  { find: /^@reverie\/dream-state$/, replacement: root('./packages/dream-state/src/index.ts') },
  { find: /^@reverie\/dream\/testing$/, replacement: root('./packages/dream/src/testing/index.ts') },
  { find: /^@reverie\/dream\/internal$/, replacement: root('./packages/dream/src/internal.ts') },
  { find: /^@reverie\/dream\/options$/, replacement: root('./packages/dream/src/options.ts') },
  { find: /^@reverie\/dream$/, replacement: root('./packages/dream/src/index.ts') },
  { find: /^reverie\/internal$/, replacement: root('./packages/reverie/src/internal.ts') },
  { find: /^reverie\/tokens$/, replacement: root('./packages/reverie/src/di/tokens.ts') },
  { find: /^reverie$/, replacement: root('./packages/reverie/src/index.ts') },
  { find: /^@reverie\/server$/, replacement: root('./packages/server/src/index.ts') },
  { find: /^@reverie\/cli$/, replacement: root('./packages/cli/src/index.ts') },
];
