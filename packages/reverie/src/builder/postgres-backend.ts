import { hasMethods } from '@reverie/core/internal';
import { z } from 'zod';
import type {
  DecayOptions,
  HybridRecallOptions,
  IClock,
  IConversationLog,
  IFeedbackStore,
  ILogger,
  ILongTermMemory,
  ISkillStore,
  ISkillUsageStore,
  IWorkflowLog,
  IWorkingMemory,
  Thesaurus,
} from '@reverie/core';
import type { DreamStateStore } from '@reverie/dream-state';
import type { PostgresClient } from '@reverie/postgres';
import { loadPostgres, type PostgresModule } from './load-postgres';

/** A value with every one of `methods`. */
const having = <T>(what: string, methods: readonly string[]) =>
  z.custom<T>((value) => hasMethods(value, methods), {
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
        : module.postgresClientFromConnectionString(
            options.connectionString,
            options.maxConnections === undefined ? {} : { max: options.maxConnections },
          );
  return { module, client, close: () => client.close() };
}

/** The PostgreSQL stores of one scope, each made when its concern asks for it. */
export interface PostgresScopeStores {
  memory(
    options: HybridRecallOptions & { synonyms: Thesaurus | undefined; decay: DecayOptions },
  ): ILongTermMemory & { close(): Promise<void> };
  workingMemory(
    options: HybridRecallOptions & {
      defaultTtlMs: number;
      maxEntriesPerNamespace: number;
      maxCharsPerNamespace?: number;
      sweepIntervalMs: number;
    },
  ): IWorkingMemory & { close(): Promise<void> };
  skills(options: HybridRecallOptions): ISkillStore & { close(): Promise<void> };
  skillUsage(): ISkillUsageStore & { close(): Promise<void> };
  conversationLog(): IConversationLog & { close(): Promise<void> };
  feedback(): IFeedbackStore & { close(): Promise<void> };
  workflowLog(): IWorkflowLog & { close(): Promise<void> };
  dreamState(): DreamStateStore;
  /** SPEC B14: the client and scope an erasure walks the tables of. */
  erasureTables: { client: PostgresClient; scope: string };
}

/** The stores of `scope` on `backend`, all over its one client. */
export function postgresScopeStores(backend: PostgresBackend, scope: string, clock: IClock, logger: ILogger): PostgresScopeStores {
  const base = { client: backend.client, scope, clock, logger };
  const stores = backend.module;
  return {
    memory: ({ synonyms, ...options }) => new stores.PostgresMemoryStore({ ...base, ...options, ...(synonyms ? { synonyms } : {}) }),
    workingMemory: (options) => new stores.PostgresWorkingMemory({ ...base, ...options }),
    skills: (options) => new stores.PostgresSkillStore({ ...base, ...options }),
    skillUsage: () => new stores.PostgresSkillUsageStore(base),
    conversationLog: () => new stores.PostgresConversationLog(base),
    feedback: () => new stores.PostgresFeedbackStore(base),
    workflowLog: () => new stores.PostgresWorkflowLog(base),
    dreamState: () => new stores.PostgresDreamStateStore(base),
    erasureTables: { client: backend.client, scope },
  };
}
