import { assertOpen } from '@reverie/core';
import type { PostgresClient } from '../client/postgres-client';
import { ensureMigrated } from '../migrations/migrate-postgres';

/**
 * What every PostgreSQL store does before its statements: refuse once closed (STORE_CLOSED) and
 * bring the schema up to date, once per client and process.
 */
export class StoreGate {
  private closed = false;

  constructor(
    private readonly client: PostgresClient,
    private readonly what: string,
  ) {}

  /** The client, once the store is known to be open and the database migrated. */
  async ready(): Promise<PostgresClient> {
    assertOpen(this.closed, this.what);
    await ensureMigrated(this.client);
    return this.client;
  }

  /** Throws STORE_CLOSED once closed; for the checks that come before any statement. */
  assertOpen(): void {
    assertOpen(this.closed, this.what);
  }

  close(): void {
    this.closed = true;
  }
}
