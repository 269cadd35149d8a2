import type { TestProject } from 'vitest/node';
import { findRealServer } from './throwaway-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser connection string of the real PostgreSQL server, or null when there is none. */
    postgresAdminUrl: string | null;
    /** Why there is no real server (the real-server suites skip), or null. */
    postgresSkipReason: string | null;
  }
}

/**
 * Gives the postgres project's tests a real PostgreSQL server: `REVERIE_TEST_POSTGRES_URL` when
 * set (a superuser, or a role that may create databases), else a throwaway cluster of the
 * PostgreSQL 15+ installed under /usr/lib/postgresql (Debian's `postgresql` package, which
 * `.ci/run` installs), stopped in teardown. When neither works the real-server suites skip and
 * this says why, on one line; the PGlite suites run regardless.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const server = await findRealServer('REVERIE_TEST_POSTGRES_URL');
  if (server.reason) console.warn(`postgres: the real-server suites are skipped: ${server.reason}`);
  project.provide('postgresAdminUrl', server.url);
  project.provide('postgresSkipReason', server.reason);
  return server.stop;
}
