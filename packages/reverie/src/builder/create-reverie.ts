import { invalidOptions, systemClock } from '@reverie/core';
import { tokenRole } from '../di/token-roles';
import { TOKENS } from '../di/tokens';
import { type DreamingOptions, type DreamingOptionsInput, dreamingOptionsSchema } from '../dreaming/dream-options';
import type { NoToolFamilies, ToolFamilies, WithToolFamily } from '../tools/agent-tools';
import { assemble } from './assemble';
import type {
  ConversationLogOptions,
  FeedbackOptions,
  MemoryOptions,
  ReverieConfig,
  SkillOptions,
  WorkflowLogOptions,
  WorkingMemoryOptions,
} from './builder-options';
import { checkUse, instanceRegistry, refuseBuiltRegistrations, scopeRegistry, withHostServices } from './host-services';
import { DEFAULT_POSTGRES_SCOPE, openPostgresBackend, type PostgresOptions, postgresScopeStores } from './postgres-backend';
import type { Reverie } from './reverie';
import { ReverieScopes } from './reverie-scopes';
import { scopeDataPath } from './scope-data-path';
import { SharedStoreCheck } from './shared-store-check';
import { type Concern, validateBuild } from './validate-build';

/**
 * Starts a Reverie instance for one agent. Chain the concerns you want and call `.build()`:
 *
 * ```ts
 * const reverie = createReverie({ dataPath: './.reverie', model })
 *   .withMemory()
 *   .withWorkingMemory()
 *   .withConversationLog()
 *   .build();
 * ```
 *
 * Nothing is validated or created until `.build()`, which checks every option at once.
 */
export function createReverie(config: ReverieConfig): ReverieBuilder<NoToolFamilies> {
  return new ReverieBuilder(config);
}

/** The builder; `F` records which tool families `.withMemory()` and `.withWorkingMemory()` added. */
export class ReverieBuilder<F extends ToolFamilies = ToolFamilies> {
  private readonly concerns = new Map<Concern, unknown>();
  private readonly overrides = new Map<symbol, unknown>();
  private postgres: unknown;

  constructor(private readonly config: ReverieConfig) {}

  /**
   * SPEC B6: keeps every concern enabled with `with…()` — and the dream engine's state — in
   * PostgreSQL, for this instance's scope (`default` when it has none): `{ pool }` (a
   * node-postgres Pool the application made and ends), `{ connectionString }` (Reverie makes the
   * pool and ends it at `close()`) or `{ pglite }` (a PGlite database). Needs the package
   * `@reverie/postgres`. A `store` option or `.use()` still replaces a concern's store.
   */
  withPostgres(options: PostgresOptions): this {
    this.postgres = options;
    return this;
  }

  /** Long-term memory (SPEC M1–M6): the file store unless `store` or `.use()` replaces it. */
  withMemory(options: MemoryOptions = {}): ReverieBuilder<WithToolFamily<F, 'memory'>> {
    return this.enable('memory', options) as ReverieBuilder<WithToolFamily<F, 'memory'>>;
  }

  /** Working memory (SPEC M7, M8) with TTLs and namespaces. */
  withWorkingMemory(options: WorkingMemoryOptions = {}): ReverieBuilder<WithToolFamily<F, 'workingMemory'>> {
    return this.enable('workingMemory', options) as ReverieBuilder<WithToolFamily<F, 'workingMemory'>>;
  }

  /** The skill store and the skill usage store (SPEC M13). */
  withSkills(options: SkillOptions = {}): this {
    return this.enable('skills', options);
  }

  /** The persistent conversation log the dream cycle reads (SPEC M10). */
  withConversationLog(options: ConversationLogOptions = {}): this {
    return this.enable('conversationLog', options);
  }

  /** Feedback signals (SPEC M12). */
  withFeedback(options: FeedbackOptions = {}): this {
    return this.enable('feedback', options);
  }

  /** Workflow execution records (SPEC D12). */
  withWorkflowLog(options: WorkflowLogOptions = {}): this {
    return this.enable('workflowLog', options);
  }

  /** The dream cycle (SPEC D1–D18). Options, or a function that edits the defaults. */
  withDreaming(options: DreamingOptionsInput | ((defaults: DreamingOptions) => DreamingOptionsInput) = {}): this {
    return this.enable('dreaming', typeof options === 'function' ? options(dreamingOptionsSchema.parse({})) : options);
  }

  /**
   * Gives the service behind a token in place of Reverie's default, e.g.
   * `.use(TOKENS.LongTermMemory, myStore)` or `.use(TOKENS.Clock, clock)`; `.use(TOKENS.DreamPass,
   * pass)` adds a dream pass (as often as you like). A token Reverie builds (`TOKENS.ReverieMemory`,
   * `TOKENS.Dreams`…) is refused with what to do instead; docs/configuration.md lists every token.
   */
  use<T>(token: symbol, implementation: T): this {
    checkUse(token);
    if (token === TOKENS.DreamPass)
      this.overrides.set(token, [...((this.overrides.get(token) as unknown[] | undefined) ?? []), implementation]);
    else this.overrides.set(token, implementation);
    return this;
  }

  /**
   * Validates every option, wires the services in a container of their own, returns the instance.
   * UNSUPPORTED_DEPENDENCY when the installed `ai` or `zod` is outside reverie's peer range.
   */
  build(): Reverie<F> {
    const registry = instanceRegistry(this.config.container);
    refuseBuiltRegistrations(registry);
    const { config, concerns, postgres } = validateBuild(
      withHostServices(this.config, this.overrides, registry),
      this.concerns,
      this.postgres,
    );
    if (!postgres) return assemble<F>(registry, config, concerns, this.overrides);
    const backend = openPostgresBackend(postgres);
    const scope = config.scope ?? DEFAULT_POSTGRES_SCOPE;
    return assemble<F>(registry, { ...config, scope }, concerns, this.overrides, {
      stores: postgresScopeStores(backend, scope, config.clock ?? systemClock, config.logger),
      owned: backend,
    });
  }

  /**
   * SPEC B8: one process serving many scopes (users, agents) over one data directory. Validates
   * the options once; `scopes.get('user:42')` builds that scope's instance at its first use and
   * returns the same one afterwards, so a request builds nothing. Stores given as instances
   * (`store` options, `withDreaming({ state })`, `.use()`) would be shared by every scope, so they are refused.
   */
  buildScopes(): ReverieScopes<F> {
    if (this.config.scope !== undefined) {
      throw invalidOptions(
        'buildScopes() serves many scopes: leave createReverie({ scope }) out and name the scope in scopes.get(scope).',
        [{ path: 'createReverie.scope', message: 'buildScopes() names the scope in scopes.get(scope)' }],
      );
    }
    const shared = [...this.concerns].filter(
      ([, raw]) => typeof raw === 'object' && raw !== null && ('store' in raw || 'usageStore' in raw || 'state' in raw),
    );
    const sharedUses = [...this.overrides.keys()].filter((token) => {
      const role = tokenRole(token)?.role;
      return role?.kind === 'service' && !role.shared;
    });
    if (sharedUses.length > 0 || shared.length > 0) {
      throw invalidOptions(
        'buildScopes() cannot share one store instance between scopes: leave out the `store` options, withDreaming({ state }) and `.use()` of a store, register the store in your container so that each scope gets its own (docs/configuration.md), or build one instance per scope with createReverie({ scope }).',
        [
          ...shared.map(([concern]) => ({ path: concern, message: 'a store instance would be shared by every scope' })),
          ...sharedUses.map((token) => ({
            path: `use(TOKENS.${tokenRole(token)!.name})`,
            message: 'a store instance would be shared by every scope',
          })),
        ],
      );
    }
    const host = instanceRegistry(this.config.container);
    refuseBuiltRegistrations(host);
    const { config, concerns, postgres } = validateBuild(withHostServices(this.config, this.overrides, host), this.concerns, this.postgres);
    const parent = host.container;
    const stores = new SharedStoreCheck();
    const build = (scope: string, postgresStores?: Parameters<typeof assemble>[4]) => {
      const registry = scopeRegistry(parent);
      const instance = assemble<F>(
        registry,
        { ...config, scope, ...(postgresStores ? {} : { dataPath: scopeDataPath(config.dataPath, scope) }) },
        concerns,
        this.overrides,
        postgresStores,
      );
      stores.check(scope, registry, instance);
      return instance;
    };
    if (!postgres) return new ReverieScopes(config.dataPath, (scope) => build(scope));
    // One client (one pool) for every scope; each scope's stores are made at its first get().
    const backend = openPostgresBackend(postgres);
    const clock = config.clock ?? systemClock;
    const { logger } = config;
    return new ReverieScopes(config.dataPath, (scope) => build(scope, { stores: postgresScopeStores(backend, scope, clock, logger) }), {
      list: () => backend.module.listPostgresScopes(backend.client),
      drop: (scope) => backend.module.dropPostgresScope(backend.client, scope),
      close: () => backend.close(),
    });
  }

  private enable(concern: Concern, options: unknown): this {
    this.concerns.set(concern, options);
    return this;
  }
}
