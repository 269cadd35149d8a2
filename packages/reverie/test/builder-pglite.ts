import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import { createPglite } from '../../postgres/test/test-databases';
import { buildIfStale } from './built-packages';

/**
 * A PGlite database for `.withPostgres({ pglite })` in the calling describe block, closed after it.
 * `.withPostgres()` loads @reverie/postgres through its CommonJS build, as an application does, so
 * the packages are built first when stale.
 */
export function useBuilderPglite(): () => PGlite {
  let db: PGlite | undefined;
  beforeAll(async () => {
    buildIfStale(['core', 'dream-state', 'file-store', 'dream', 'postgres']);
    db = await createPglite();
  }, 600_000);
  afterAll(async () => db?.close());
  return () => db!;
}
