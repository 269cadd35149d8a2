import { createRequire } from 'node:module';
import { invalidOptions } from '@reverie/core';
import type * as PostgresPackage from '@reverie/postgres';

/** `@reverie/postgres` as `.withPostgres()` uses it. */
export type PostgresModule = typeof PostgresPackage;

/**
 * `require` from this package, in both builds: the CJS build reads `import.meta.url` as
 * `__filename` (tsup.config.ts). Never a global `__filename`: `node -e` and the REPL define one
 * (`[eval]`) where the ESM build runs.
 */
const requireFromReverie = createRequire(import.meta.url);

/**
 * Loads `@reverie/postgres` (an optional peer dependency: applications without PostgreSQL never
 * install it or `pg`) synchronously, through its CommonJS build, when `.build()` needs it.
 * INVALID_OPTIONS saying what to install when it is not there.
 */
export function loadPostgres(load: (specifier: string) => unknown = requireFromReverie): PostgresModule {
  try {
    return load('@reverie/postgres') as PostgresModule;
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes('@reverie/postgres');
    if (!missing) throw error;
    throw invalidOptions(
      'withPostgres() needs the package @reverie/postgres, which is not installed: add it beside reverie (npm install @reverie/postgres; with { pglite }, @electric-sql/pglite too).',
      [{ path: 'withPostgres', message: '@reverie/postgres is not installed' }],
      { cause: error },
    );
  }
}
