import { type IClock, type ILogger, invalidOptions, parseOptions, silentLogger, systemClock, validateScope } from '@reverie/core';
import type { z } from 'zod';
import type { PostgresClient } from '../client/postgres-client';

/** What every PostgreSQL store is opened with. */
export interface PostgresStoreOptions {
  /** The connection (`postgresClientFromPool`, `…FromConnectionString`, `…FromPglite`); the caller closes it. */
  client: PostgresClient;
  /** Whose memory this is (`user:42`): the store reads and writes this scope only (see `validateScope`). */
  scope: string;
  clock?: IClock;
  logger?: ILogger;
}

export interface ResolvedStoreOptions {
  client: PostgresClient;
  scope: string;
  clock: IClock;
  logger: ILogger;
}

function isClient(value: unknown): value is PostgresClient {
  const client = value as Partial<PostgresClient> | null;
  return typeof client === 'object' && client !== null && typeof client.query === 'function' && typeof client.transaction === 'function';
}

/**
 * Checks the options every PostgreSQL store shares: INVALID_OPTIONS without a client,
 * INVALID_SCOPE for a bad scope. Fills in the system clock and a silent logger.
 */
export function resolveStoreOptions(options: PostgresStoreOptions, store: string): ResolvedStoreOptions {
  if (options === null || typeof options !== 'object') {
    throw invalidOptions(`${store} needs an options object with a client and a scope.`, [
      { path: '', message: 'an options object is required' },
    ]);
  }
  if (!isClient(options.client)) {
    throw invalidOptions(
      `${store} needs a client: pass postgresClientFromPool(pool), postgresClientFromConnectionString(url) or postgresClientFromPglite(db).`,
      [{ path: 'client', message: 'a PostgresClient is required' }],
    );
  }
  return {
    client: options.client,
    scope: validateScope(options.scope),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
  };
}

/** `options` checked against a store's own `schema`: INVALID_OPTIONS naming the field that is wrong. */
export function parseStoreOptions<S extends z.ZodType>(schema: S, options: unknown, store: string): z.output<S> {
  return parseOptions(schema, options, `${store} options`);
}
