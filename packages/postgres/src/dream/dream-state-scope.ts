import type { PostgresClient } from '../client/postgres-client';

/** What each part of `PostgresDreamStateStore` works with: its scope, and the client once the schema is migrated. */
export interface DreamStateScope {
  readonly scope: string;
  /** The client, after the migrations ran (once per client and process). */
  ready(): Promise<PostgresClient>;
}

/** The JSON text of a record for a `jsonb` parameter (`undefined` is stored as JSON null). */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value ?? null);
}
