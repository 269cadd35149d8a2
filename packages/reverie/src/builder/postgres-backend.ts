import { z } from 'zod';
import { type DecayOptions, type IClock, type IEmbedder, type ILogger, type ILongTermMemory, TOKENS } from '@reverie/core';
import type { DreamStateStore } from '@reverie/dream';
import type { PostgresClient } from '@reverie/postgres';
import { loadPostgres, type PostgresModule } from './load-postgres';

/** A value with every one of `methods`. */
const having = <T>(what: string, methods: readonly string[]) =>
  z.custom<T>((value) => typeof value === 'object' && value !== null && methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'), {
    message: `must be ${what}`,
  });

/** The part of a node-postgres `Pool` Reverie uses (declared here so `reverie` needs no `pg` types). */
export interface PostgresPoolLike {
  query(...args: never[]): unknown;
  connect(...args: never[]): unknown;
}

/** The part of a PGlite database Reverie uses. */
export interface PgliteDatabaseLike {
  query(...args: never[]): unknown;
  transaction(...args: never[]): unknown;
}

/**
 * `.withPostgres(…)`: where the stores and the dream state live — a node-postgres `Pool` the
 * application made (and ends), a connection string (Reverie makes the pool and ends it at
 * `close()`), or a PGlite database (in-process; the application closes it).
 */
export const postgresOptionsSchema = z.union([
  z.object({ pool: having<PostgresPoolLike>('a node-postgres Pool (new pg.Pool(…))', ['query', 'connect']) }).strict(),
  z
    .object({
      connectionString: z.string().min(1, 'connectionString must be a postgres:// URL'),
      /** Connections of the pool Reverie makes (default 10): one per dream cycle running, and the rest for the stores. */
      maxConnections: z.number().int().min(2).max(1000).optional(),
    })
    .strict(),
  z.object({ pglite: having<PgliteDatabaseLike>('a PGlite database (await PGlite.create(…))', ['query', 'transaction']) }).strict(),
]);

export type PostgresOptions = z.input<typeof postgresOptionsSchema>;

/** The scope of an instance built without one, on PostgreSQL (where every row has a scope). */
export const DEFAULT_POSTGRES_SCOPE = 'default';

/** The package and one client, shared by every store (and every scope of `.buildScopes()`). */
export interface PostgresBackend {
  readonly module: PostgresModule;
  readonly client: PostgresClient;
  /** Ends what the backend made (the pool of a connection string); a pool or PGlite passed in is the caller's. */
  close(): Promise<void>;
}

/** Loads `@reverie/postgres` and makes the client of `options`. */
export function openPostgresBackend(options: z.output<typeof postgresOptionsSchema>): PostgresBackend {
  const module = loadPostgres();
  const client =
    'pool' in options
      ? module.postgresClientFromPool(options.pool as never)
      : 'pglite' in options
        ? module.postgresClientFromPglite(options.pglite as never)
        : module.postgresClientFromConnectionString(options.connectionString, options.maxConnections === undefined ? {} : { max: options.maxConnections });
  return { module, client, close: () => client.close() };
}

/** What one scope's PostgreSQL stores are made with. */
export interface PostgresScopeStores {
  memory(options: { embedder: IEmbedder | undefined; minSimilarity: number; queryEmbeddingTimeoutMs: number; decay: DecayOptions }): ILongTermMemory & { close(): Promise<void> };
  dreamState(): DreamStateStore;
}

/** The stores of `scope` on `backend`. */
export function postgresScopeStores(backend: PostgresBackend, scope: string, clock: IClock, logger: ILogger): PostgresScopeStores {
  const base = { client: backend.client, scope, clock, logger };
  return {
    memory: ({ embedder, ...options }) => new backend.module.PostgresMemoryStore({ ...base, ...options, ...(embedder ? { embedder } : {}) }),
    dreamState: () => new backend.module.PostgresDreamStateStore(base),
  };
}

/**
 * The concerns whose stores are not on PostgreSQL in this release, with the option and token of
 * each store: with `.withPostgres()` such a concern needs its store given (`store` or `.use()`),
 * or it would silently keep its data in files.
 */
export const CONCERNS_WITHOUT_POSTGRES_STORE: ReadonlyArray<{ concern: string; method: string; stores: ReadonlyArray<{ option: string; token: symbol }> }> = [
  { concern: 'workingMemory', method: 'withWorkingMemory', stores: [{ option: 'store', token: TOKENS.WorkingMemory }] },
  {
    concern: 'skills',
    method: 'withSkills',
    stores: [
      { option: 'store', token: TOKENS.SkillStore },
      { option: 'usageStore', token: TOKENS.SkillUsageStore },
    ],
  },
  { concern: 'conversationLog', method: 'withConversationLog', stores: [{ option: 'store', token: TOKENS.ConversationLog }] },
  { concern: 'feedback', method: 'withFeedback', stores: [{ option: 'store', token: TOKENS.FeedbackStore }] },
  { concern: 'workflowLog', method: 'withWorkflowLog', stores: [{ option: 'store', token: TOKENS.WorkflowLog }] },
];

/** The problems of concerns enabled with `.withPostgres()` whose stores would stay in files. */
export function concernsLeftInFiles(concerns: ReadonlyMap<string, unknown>, overrides: ReadonlyMap<symbol, unknown>): string[] {
  const problems: string[] = [];
  for (const { concern, method, stores } of CONCERNS_WITHOUT_POSTGRES_STORE) {
    if (!concerns.has(concern)) continue;
    const raw = (concerns.get(concern) ?? {}) as Record<string, unknown>;
    const missing = stores.filter(({ option, token }) => raw[option] === undefined && !overrides.has(token)).map(({ option }) => option);
    if (missing.length > 0) {
      problems.push(
        `${method}: no PostgreSQL store for it in this release of @reverie/postgres, and withPostgres() will not keep it in files: pass ${missing.map((option) => `{ ${option} }`).join(' and ')}, or leave ${method}() out`,
      );
    }
  }
  return problems;
}
