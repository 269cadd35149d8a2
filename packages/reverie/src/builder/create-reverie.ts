import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import {
  type DecayOptions,
  DEFAULT_DECAY_OPTIONS,
  effectiveImportance,
  type HybridRecallOptions,
  type IClock,
  type IConversationLog,
  type IEmbedder,
  type IFeedbackStore,
  type ILongTermMemory,
  invalidOptions,
  type ISkillStore,
  type ISkillUsageStore,
  type IWorkflowLog,
  type IWorkingMemory,
  type OptionIssue,
  optionIssues,
  ReverieValidationError,
  systemClock,
  TOKENS,
} from '@reverie/core';
import { fileSystemError, scopeFolderName } from '@reverie/core/internal';
import {
  aiSdkEmbedder,
  FileConversationLog,
  FileDreamStateStore,
  FileFeedbackStore,
  FileMemoryStore,
  FileSkillStore,
  FileSkillUsageStore,
  FileWorkflowLog,
  FileWorkingMemory,
} from '@reverie/file-store';
import { DreamScheduler } from '../dreaming/scheduling/dream-scheduler';
import type { RecallSignalStore } from '@reverie/dream';
import { ActivityTracker } from '../activity/activity-tracker';
import { backgroundCallMiddleware } from '../activity/background-calls';
import { createReverieMiddleware } from '../middleware/reverie-middleware';
import { wrapLanguageModelLazily } from '../middleware/wrap-language-model-lazily';
import { ConversationMemory } from '../conversation/conversation-memory';
import { ReverieMemory } from '../memory/reverie-memory';
import { TurnContextBuilder } from '../context/turn-context-builder';
import { RUNTIME_TOKENS } from '../di/runtime-tokens';
import { ServiceContainer } from '../di/service-container';
import { type DreamingOptions, type DreamingOptionsInput, dreamingOptionsSchema } from '../dreaming/dream-options';
import { DeferredDreamEngine } from '../dreaming/deferred-dream-engine';
import { planDreamPasses } from '../dreaming/dream-pass-catalog';
import { assertSupportedPeers } from '../options/supported-peers';
import { TurnFactExtractor } from '../extraction/turn-fact-extractor';
import { AgentTools, type NoToolFamilies, type ToolFamilies, type WithToolFamily } from '../tools/agent-tools';
import {
  type ConversationLogOptions,
  conversationLogOptionsSchema,
  type FeedbackOptions,
  feedbackOptionsSchema,
  type MemoryOptions,
  memoryOptionsSchema,
  type ReverieConfig,
  reverieConfigSchema,
  type SkillOptions,
  skillOptionsSchema,
  type WorkflowLogOptions,
  workflowLogOptionsSchema,
  type WorkingMemoryOptions,
  workingMemoryOptionsSchema,
} from './builder-options';
import {
  DEFAULT_POSTGRES_SCOPE,
  openPostgresBackend,
  type PostgresBackend,
  type PostgresOptions,
  postgresOptionsSchema,
  type PostgresScopeStores,
  postgresScopeStores,
} from './postgres-backend';
import type { Reverie, WrappableModel } from './reverie';
import { ReverieScopes } from './reverie-scopes';
import { type DreamStateStore } from '@reverie/dream-state';
import { DreamTrigger } from '../dreaming/gates/dream-trigger';
import { RecallEventLog } from '../dreaming/recall-event-log';
import { readDreamStatus } from '../dreaming/status/read-dream-status';
import { type SignalSource } from '../dreaming/gates/signal-source';

type Concern = 'memory' | 'workingMemory' | 'skills' | 'conversationLog' | 'feedback' | 'workflowLog' | 'dreaming';

const CONCERN_SCHEMAS = {
  memory: ['withMemory', memoryOptionsSchema],
  workingMemory: ['withWorkingMemory', workingMemoryOptionsSchema],
  skills: ['withSkills', skillOptionsSchema],
  conversationLog: ['withConversationLog', conversationLogOptionsSchema],
  feedback: ['withFeedback', feedbackOptionsSchema],
  workflowLog: ['withWorkflowLog', workflowLogOptionsSchema],
  dreaming: ['withDreaming', dreamingOptionsSchema],
} as const satisfies Record<Concern, readonly [string, z.ZodType]>;

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

  /** Replaces the implementation behind a token, e.g. `.use(TOKENS.LongTermMemory, myStore)`. */
  use<T>(token: symbol, implementation: T): this {
    if (typeof token !== 'symbol') {
      throw invalidOptions('use(token, implementation) needs a token from TOKENS, such as TOKENS.LongTermMemory.', [{ path: 'token', message: 'a token from TOKENS' }]);
    }
    this.overrides.set(token, implementation);
    return this;
  }

  /**
   * Validates every option, wires the services in a container of their own, returns the instance.
   * UNSUPPORTED_DEPENDENCY when the installed `ai` or `zod` is outside reverie's peer range.
   */
  build(): Reverie<F> {
    const { config, concerns, postgres } = this.validate();
    if (!postgres) return assemble<F>(config, concerns, this.overrides);
    const backend = openPostgresBackend(postgres);
    const scope = config.scope ?? DEFAULT_POSTGRES_SCOPE;
    return assemble<F>({ ...config, scope }, concerns, this.overrides, { stores: postgresScopeStores(backend, scope, config.clock ?? systemClock, config.logger), owned: backend });
  }

  /**
   * SPEC B8: one process serving many scopes (users, agents) over one data directory. Validates
   * the options once; `scopes.get('user:42')` builds that scope's instance at its first use and
   * returns the same one afterwards, so a request builds nothing. Stores given as instances
   * (`store` options, `withDreaming({ state })`, `.use()`) would be shared by every scope, so they are refused.
   */
  buildScopes(): ReverieScopes<F> {
    if (this.config.scope !== undefined) {
      throw invalidOptions('buildScopes() serves many scopes: leave createReverie({ scope }) out and name the scope in scopes.get(scope).', [
        { path: 'createReverie.scope', message: 'buildScopes() names the scope in scopes.get(scope)' },
      ]);
    }
    const shared = [...this.concerns].filter(([, raw]) => typeof raw === 'object' && raw !== null && ('store' in raw || 'usageStore' in raw || 'state' in raw));
    if (this.overrides.size > 0 || shared.length > 0) {
      throw invalidOptions(
        'buildScopes() cannot share one store instance between scopes: leave out the `store` options, withDreaming({ state }) and `.use()`, or build one instance per scope with createReverie({ scope }).',
        [
          ...shared.map(([concern]) => ({ path: concern, message: 'a store instance would be shared by every scope' })),
          ...(this.overrides.size > 0 ? [{ path: 'use', message: 'an implementation would be shared by every scope' }] : []),
        ],
      );
    }
    const { config, concerns, postgres } = this.validate();
    if (!postgres) {
      return new ReverieScopes(config.dataPath, (scope) => assemble<F>({ ...config, scope, dataPath: scopeDataPath(config.dataPath, scope) }, concerns, this.overrides));
    }
    // One client (one pool) for every scope; each scope's stores are made at its first get().
    const backend = openPostgresBackend(postgres);
    const clock = config.clock ?? systemClock;
    const { logger } = config;
    return new ReverieScopes(config.dataPath, (scope) => assemble<F>({ ...config, scope }, concerns, this.overrides, { stores: postgresScopeStores(backend, scope, clock, logger) }), {
      list: () => backend.module.listPostgresScopes(backend.client),
      close: () => backend.close(),
    });
  }

  /** Every option checked at once: INVALID_OPTIONS listing each problem. `dataPath` comes back absolute, and a scope's own when one is set. */
  private validate(): { config: z.output<typeof reverieConfigSchema>; concerns: Map<Concern, never>; postgres: z.output<typeof postgresOptionsSchema> | undefined } {
    assertSupportedPeers();
    const problems: OptionIssue[] = [];
    const parse = <S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> | undefined => {
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      problems.push(...optionIssues(result.error).map(({ path, message }) => ({ path: [where, path].filter(Boolean).join('.'), message })));
      return undefined;
    };
    const config = parse(reverieConfigSchema, this.config, 'createReverie');
    const parsed = new Map<Concern, unknown>();
    for (const [concern, raw] of this.concerns) {
      const [method, schema] = CONCERN_SCHEMAS[concern];
      parsed.set(concern, parse(schema as z.ZodType, raw, method));
    }
    const postgres = this.postgres === undefined ? undefined : parse(postgresOptionsSchema, this.postgres, 'withPostgres');
    if (config) checkDataPath(config.dataPath, problems);
    const memoryOptions = parsed.get('memory') as z.output<typeof memoryOptionsSchema> | undefined;
    if (config && memoryOptions?.extract !== undefined && config.model === undefined) {
      problems.push({
        path: 'withMemory.extract',
        message: `taking facts from turns ('${memoryOptions.extract}') needs a language model: createReverie({ dataPath, model: openai('gpt-4.1-mini') })`,
      });
    }
    if (!config || problems.length > 0) {
      throw invalidOptions(`Invalid Reverie options — ${problems.map(({ path, message }) => `${path}: ${message}`).join('; ')}`, problems);
    }
    const root = resolve(config.dataPath);
    return {
      // On PostgreSQL a scope has no folder: the data directory keeps only what all scopes share (directives).
      config: { ...config, dataPath: config.scope === undefined || postgres ? root : scopeDataPath(root, config.scope) },
      concerns: parsed as Map<Concern, never>,
      postgres,
    };
  }

  private enable(concern: Concern, options: unknown): this {
    this.concerns.set(concern, options);
    return this;
  }
}

/** Where the file stores keep a scope's data: `<dataPath>/scopes/<scopeFolderName(scope)>`. */
export function scopeDataPath(dataPath: string, scope: string): string {
  return join(dataPath, 'scopes', scopeFolderName(scope));
}

function checkDataPath(dataPath: string, problems: OptionIssue[]): void {
  try {
    if (!statSync(dataPath).isDirectory()) problems.push({ path: 'createReverie.dataPath', message: `${dataPath} exists and is not a directory` });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push({ path: 'createReverie.dataPath', message: `cannot use ${dataPath} (${(error as Error).message})` });
    }
  }
}

interface ParsedConcerns {
  memory?: z.output<typeof memoryOptionsSchema>;
  workingMemory?: z.output<typeof workingMemoryOptionsSchema>;
  skills?: z.output<typeof skillOptionsSchema>;
  conversationLog?: z.output<typeof conversationLogOptionsSchema>;
  feedback?: z.output<typeof feedbackOptionsSchema>;
  workflowLog?: z.output<typeof workflowLogOptionsSchema>;
  dreaming?: DreamingOptions;
}

/** The PostgreSQL stores of an instance's scope, and the backend it owns (closed with it) when `build()` made one for it alone. */
interface PostgresInstance {
  stores: PostgresScopeStores;
  owned?: PostgresBackend;
}

function assemble<F extends ToolFamilies>(config: z.output<typeof reverieConfigSchema>, concerns: Map<Concern, never>, overrides: Map<symbol, unknown>, postgres?: PostgresInstance): Reverie<F> {
  const options = Object.fromEntries(concerns) as ParsedConcerns;
  const container = new ServiceContainer();
  const clock: IClock = config.clock ?? systemClock;
  const { logger } = config;
  const { dataPath } = config;
  /** Dream work touches many files under `_system/`; a failed one surfaces as READ_ONLY, NO_SPACE… */
  const onDisk = async <T>(action: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw fileSystemError(error, action, dataPath);
    }
  };
  const owned: Array<{ close(): Promise<void> }> = [];
  const own = <T extends { close(): Promise<void> }>(store: T): T => {
    owned.push(store);
    return store;
  };

  container.registerValue(TOKENS.Clock, clock);
  container.registerValue(TOKENS.Logger, logger);
  if (config.model !== undefined) container.registerValue(RUNTIME_TOKENS.LanguageModel, config.model);
  if (config.embedder !== undefined) container.registerValue(TOKENS.Embedder, config.embedder);
  else if (config.embeddingModel !== undefined) container.registerValue(TOKENS.Embedder, aiSdkEmbedder(config.embeddingModel));
  container.registerValue(RUNTIME_TOKENS.ActivityTracker, new ActivityTracker(clock));

  // A store comes from `.use()` first, then the concern's `store` option, then the file default.
  const provide = <T>(token: symbol, enabled: boolean, given: T | undefined, makeDefault: (c: ServiceContainer) => T & { close(): Promise<void> }) => {
    if (overrides.has(token)) container.registerValue(token, overrides.get(token));
    else if (given !== undefined) container.registerValue(token, given);
    else if (enabled) container.registerFactory(token, (c) => own(makeDefault(c)));
  };
  // SPEC M4: with an embedder, memory, skills and working memory all rank hybrid, by withMemory's
  // threshold and query timeout (one model, one threshold); a store fills in what is not given.
  const hybridRecall = (c: ServiceContainer): HybridRecallOptions => ({
    ...(c.isRegistered(TOKENS.Embedder) ? { embedder: c.resolve<IEmbedder>(TOKENS.Embedder) } : {}),
    ...(options.memory ? { minSimilarity: options.memory.minSimilarity, queryEmbeddingTimeoutMs: options.memory.queryEmbeddingTimeout } : {}),
  });
  // SPEC D7: one curve for the store's browsing, the passes and whoever shows importance.
  const decay: DecayOptions = options.memory?.decay ?? DEFAULT_DECAY_OPTIONS;

  provide<ILongTermMemory>(TOKENS.LongTermMemory, !!options.memory, options.memory?.store, (c) => {
    if (postgres) return postgres.stores.memory({ ...hybridRecall(c), synonyms: options.memory!.synonyms, decay });
    return new FileMemoryStore({ dataPath, clock, logger, ...hybridRecall(c), ...(options.memory!.synonyms ? { synonyms: options.memory!.synonyms } : {}), decay });
  });
  provide<IWorkingMemory>(TOKENS.WorkingMemory, !!options.workingMemory, options.workingMemory?.store, (c) => {
    const settings = {
      defaultTtlMs: options.workingMemory!.defaultTtl,
      maxEntriesPerNamespace: options.workingMemory!.maxEntriesPerNamespace,
      ...(options.workingMemory!.maxCharsPerNamespace === undefined ? {} : { maxCharsPerNamespace: options.workingMemory!.maxCharsPerNamespace }),
      sweepIntervalMs: options.workingMemory!.sweepInterval,
    };
    return postgres ? postgres.stores.workingMemory({ ...settings, ...hybridRecall(c) }) : new FileWorkingMemory({ dataPath, clock, logger, ...settings, ...hybridRecall(c) });
  });
  const files = { dataPath, clock, logger };
  provide<ISkillStore>(TOKENS.SkillStore, !!options.skills, options.skills?.store, (c) => postgres?.stores.skills(hybridRecall(c)) ?? new FileSkillStore({ ...files, ...hybridRecall(c) }));
  provide<ISkillUsageStore>(TOKENS.SkillUsageStore, !!options.skills, options.skills?.usageStore, () => postgres?.stores.skillUsage() ?? new FileSkillUsageStore(files));
  provide<IConversationLog>(TOKENS.ConversationLog, !!options.conversationLog, options.conversationLog?.store, () => postgres?.stores.conversationLog() ?? new FileConversationLog(files));
  provide<IFeedbackStore>(TOKENS.FeedbackStore, !!options.feedback, options.feedback?.store, () => postgres?.stores.feedback() ?? new FileFeedbackStore(files));
  provide<IWorkflowLog>(TOKENS.WorkflowLog, !!options.workflowLog, options.workflowLog?.store, () => postgres?.stores.workflowLog() ?? new FileWorkflowLog(files));
  for (const [token, implementation] of overrides) {
    if (!container.isRegistered(token)) container.registerValue(token, implementation);
  }

  const optional = <T>(token: symbol): T | undefined => (container.isRegistered(token) ? container.resolve<T>(token) : undefined);
  const memory = optional<ILongTermMemory>(TOKENS.LongTermMemory);
  const workingMemory = optional<IWorkingMemory>(TOKENS.WorkingMemory);
  const conversationLog = optional<IConversationLog>(TOKENS.ConversationLog);
  // Reverie's own calls (dream passes, note expansion) are background calls: a host that passed
  // a model wrapped with Reverie's middleware does not get them recorded as user turns.
  const model = asBackgroundModel(optional<WrappableModel>(RUNTIME_TOKENS.LanguageModel)) as never;
  const activity = container.resolve<ActivityTracker>(RUNTIME_TOKENS.ActivityTracker);

  const conversation = new ConversationMemory({ clock, logger, log: conversationLog, idleMs: config.context.sessionIdleTimeout });
  container.registerValue(RUNTIME_TOKENS.ConversationMemory, conversation);
  const dreamingOptions = options.dreaming ?? dreamingOptionsSchema.parse({});
  const dreamState: DreamStateStore =
    dreamingOptions.state ??
    own(postgres ? postgres.stores.dreamState() : new FileDreamStateStore({ dataPath, clock, logger, staleLockMinutes: dreamingOptions.staleLockMinutes }));
  // Recall events feed the recall-signals pass, so they are recorded only when a cycle can read them.
  const recall = memory && options.dreaming !== undefined ? new RecallEventLog({ events: dreamState.recall, clock, logger }) : undefined;
  /** What the runtime buffers is written before a cycle reads it: recall events and the turns being appended. */
  const beforeCycle = async () => {
    await recall?.flush();
    await conversation.settled();
  };
  const secondHop = options.memory?.secondHop ?? false;
  const extractor =
    memory && model && options.memory?.extract !== undefined ? new TurnFactExtractor({ memory, model, logger, conversation, mode: options.memory.extract }) : undefined;
  const context = new TurnContextBuilder({ memory, workingMemory, conversation, clock, logger, options: config.context, recall, secondHop, decay, observer: extractor });
  // SPEC M9: idle sessions leave memory even when no turn comes to sweep them.
  const idleSweep =
    config.context.sessionIdleTimeout > 0 ? setInterval(() => context.expireIdle(), Math.min(config.context.sessionIdleTimeout, IDLE_SWEEP_MS)) : undefined;
  idleSweep?.unref();
  const tools = new AgentTools<F>({
    memory,
    workingMemory,
    logger,
    recall,
    secondHop,
    ...(model ? { model } : {}),
    expansion: { enabled: options.memory?.expansion.enabled ?? true },
  });
  const engine = new DeferredDreamEngine(
    {
      state: dreamState,
      dataPath,
      clock,
      logger,
      memory,
      skills: optional<ISkillStore>(TOKENS.SkillStore),
      skillUsage: optional<ISkillUsageStore>(TOKENS.SkillUsageStore),
      conversationLog,
      feedback: optional<IFeedbackStore>(TOKENS.FeedbackStore),
      workflowLog: optional<IWorkflowLog>(TOKENS.WorkflowLog),
      model,
      embedder: optional<IEmbedder>(TOKENS.Embedder),
      activity,
      decay,
    },
    dreamingOptions,
    options.skills?.protected ?? [],
    { planMaxAgeMs: dreamingOptions.planMaxAge, maxReplyChars: dreamingOptions.maxReplyChars },
  );
  const dreamsEnabled = dreamingOptions.enabled && options.dreaming !== undefined;
  const { gates } = dreamingOptions;
  const dreamTrigger = new DreamTrigger({
    engine,
    state: dreamState,
    clock,
    logger,
    enabled: dreamsEnabled,
    gates,
    signalSource: dreamingOptions.signalSource ?? (memory ? recallSignalSource(dreamState, memory, dreamingOptions, clock) : undefined),
  });
  const hasGates = gates.minHours !== undefined || gates.minSessions !== undefined || gates.signal !== undefined;
  const scheduler = new DreamScheduler({
    runCycle: async (signal, trigger) => {
      await beforeCycle();
      return dreamTrigger.trigger({ reason: trigger, signal });
    },
    initialDelayMs: dreamingOptions.initialDelay,
    intervalMs: dreamingOptions.interval,
    enabled: dreamsEnabled,
    activity,
    logger,
    // Without a gate the ticker would only repeat the interval's job: it runs only when a gate is set.
    checkIntervalMs: hasGates ? dreamingOptions.checkInterval : undefined,
    sessionEndDebounceMs: dreamingOptions.sessionEndDebounce,
  });
  let closed = false;

  return {
    memory: memory && new ReverieMemory(memory, { secondHop }),
    workingMemory,
    skills: optional<ISkillStore>(TOKENS.SkillStore),
    skillUsage: optional<ISkillUsageStore>(TOKENS.SkillUsageStore),
    conversationLog,
    feedback: optional<IFeedbackStore>(TOKENS.FeedbackStore),
    workflowLog: optional<IWorkflowLog>(TOKENS.WorkflowLog),
    dataPath,
    scope: config.scope,
    decay,
    importanceOf: (entry) => effectiveImportance(entry, clock.now(), decay),
    context,
    conversation,
    async idle() {
      await Promise.all([tools.idle(), extractor?.idle()]);
      await conversation.settled();
    },
    async endSession(sessionId) {
      if (typeof sessionId !== 'string' || sessionId.trim() === '') {
        throw new ReverieValidationError('INVALID_INPUT', 'endSession(sessionId) needs the id of the session that ended (a non-empty string).');
      }
      context.endSession(sessionId);
      if (options.dreaming === undefined) return;
      await dreamTrigger.recordSessionEnd(sessionId);
      scheduler.sessionEnded();
    },
    tools,
    activity,
    trackActivity: (wrapped: WrappableModel) => wrapLanguageModelLazily(wrapped, activity.middleware()),
    middleware: (middlewareOptions) => createReverieMiddleware({ context, activity, logger }, middlewareOptions),
    dreams: {
      configured: options.dreaming !== undefined,
      options: dreamingOptions,
      plan: () => planDreamPasses((token) => container.isRegistered(token), model !== undefined, dreamingOptions, engine.passNames),
      run: (request = {}) =>
        onDisk('run a dream cycle', async () => {
          await beforeCycle();
          return engine.run({ trigger: 'manual', ...request });
        }),
      trigger: (request = {}) =>
        onDisk('trigger a dream cycle', async () => {
          await beforeCycle();
          return dreamTrigger.trigger({ reason: 'manual', ...request });
        }),
      async onSessionEnd(sessionId) {
        if (typeof sessionId !== 'string' || sessionId.trim() === '') {
          throw new ReverieValidationError('INVALID_INPUT', 'onSessionEnd(sessionId) needs the id of the session that ended (a non-empty string).');
        }
        if (options.dreaming === undefined) return;
        await dreamTrigger.recordSessionEnd(sessionId);
        scheduler.sessionEnded();
      },
      status: async ({ windowHours } = {}) =>
        readDreamStatus({ ledger: dreamState.ledger, now: clock.now(), lock: await engine.lockState(), ...(windowHours === undefined ? {} : { windowHours }) }),
      async ledger({ windowHours } = {}) {
        if (windowHours !== undefined && !(Number.isFinite(windowHours) && windowHours > 0)) {
          throw new ReverieValidationError('INVALID_INPUT', `ledger({ windowHours }) takes a positive number of hours, not ${windowHours}.`);
        }
        const { lines } = await dreamState.ledger.read();
        if (windowHours === undefined) return lines;
        const since = clock.now().getTime() - windowHours * 3_600_000;
        return lines.filter((line) => Date.parse(line.completedAt) >= since);
      },
      lockState: () => engine.lockState(),
      listRuns: () => engine.listRuns(),
      show: (runId) => engine.show(runId),
      changes: (runId) => engine.changes(runId),
      async history(record) {
        if (!['memory', 'skill', 'conversation-log'].includes(record?.kind) || typeof record.key !== 'string' || record.key === '') {
          throw new ReverieValidationError('INVALID_INPUT', "history(record) takes { kind: 'memory' | 'skill', key }: an entry's id or a skill's name.");
        }
        return engine.history(record);
      },
      retry: (runId) => onDisk('retry a dream run', () => engine.retry(runId)),
      apply: (planId, request = {}) => onDisk('apply a dream plan', () => engine.apply(planId, request)),
      plans: () => engine.pendingPlans(),
      async explain(entryId) {
        if (!memory) throw invalidOptions('explain(entryId) needs long-term memory: call .withMemory() on the builder.', [{ path: 'withMemory', message: 'not configured' }]);
        await recall?.flush();
        const { explainPromotion } = await import('@reverie/dream');
        return explainPromotion(entryId, { recall: dreamState.recall, memory, now: clock.now(), decay }, { signals: dreamingOptions.recallSignals, promotion: dreamingOptions.promotion });
      },
      undo: (runId) => onDisk('undo a dream run', () => engine.undo(runId)),
      recover: () => onDisk('recover interrupted dream runs', () => engine.recover()),
      async start() {
        if (options.dreaming === undefined) {
          throw invalidOptions(
            'dreams.start() has no dream cycle to schedule: call .withDreaming() on the builder (createReverie(…).withMemory().withDreaming().build()), or leave start() out.',
            [{ path: 'withDreaming', message: 'not configured' }],
          );
        }
        await onDisk('start dreaming', async () => {
          await engine.recover();
          scheduler.start();
        });
      },
      stop: () => scheduler.stop(),
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(idleSweep);
      await scheduler.stop();
      await tools.idle();
      await extractor?.idle();
      await recall?.close();
      await conversation.settled();
      await Promise.all(owned.map((store) => store.close()));
      await postgres?.owned?.close();
    },
  };
}

/** The longest wait between two sweeps of idle sessions. */
const IDLE_SWEEP_MS = 60_000;

/** The model wrapped so that its calls run as background calls. */
function asBackgroundModel(model: WrappableModel | undefined): WrappableModel | undefined {
  return model === undefined ? undefined : wrapLanguageModelLazily(model, backgroundCallMiddleware());
}

/** The signal gate's default source: the recall signals the recall-signals pass folded (SPEC O3, O4). */
function recallSignalSource(state: DreamStateStore, memory: ILongTermMemory, options: DreamingOptions, clock: IClock): SignalSource {
  let store: RecallSignalStore | undefined;
  return {
    async unpromotedCandidates(query) {
      // The store belongs to the dream engine's package, loaded with the first cycle (docs/architecture.md).
      store ??= new (await import('@reverie/dream')).RecallSignalStore(state.recall, options.recallSignals);
      return (await store.candidates(memory, query, clock.now())).length;
    },
  };
}
