import { describe } from 'vitest';
import type { PostgresClient } from '../src/client/postgres-client';
import { realServer, usePgliteClient, useRealClient } from './test-databases';

/**
 * Runs `body` twice: against a PGlite database of the test file's own, and against a database of
 * its own on the real server (skipped, with the reason the global setup printed, when there is none).
 */
export function describeOnEachDatabase(body: (database: string, client: () => PostgresClient) => void): void {
  describe('on PGlite', () => body('PGlite', usePgliteClient()));
  describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => body('PostgreSQL', useRealClient()));
}
