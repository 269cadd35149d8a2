import {
  type DecayOptions,
  DEFAULT_DECAY_OPTIONS,
  type HybridRecallOptions,
  type IClock,
  type IConversationLog,
  type IEmbedder,
  type IFeedbackStore,
  type ILogger,
  type ILongTermMemory,
  type ISkillStore,
  type ISkillUsageStore,
  type IWorkflowLog,
  type IWorkingMemory,
  systemClock,
  TOKENS,
} from '@reverie/core';
import {
  aiSdkEmbedder,
  FileConversationLog,
  FileFeedbackStore,
  FileMemoryStore,
  FileSkillStore,
  FileSkillUsageStore,
  FileWorkflowLog,
  FileWorkingMemory,
} from '@reverie/file-store';
import { ActivityTracker } from '../activity/activity-tracker';
import { backgroundCallMiddleware } from '../activity/background-calls';
import type { ServiceRegistry } from '../di/service-registry';
import { createTracing, type ReverieTracing } from '../telemetry/reverie-tracing';
import type { TelemetryOptions } from '../telemetry/telemetry-options';
import { TracedMemory } from '../telemetry/traced-memory';
import { TOKENS as REVERIE_TOKENS } from '../di/tokens';
import { wrapLanguageModelLazily } from '../middleware/wrap-language-model-lazily';
import type { PostgresBackend, PostgresScopeStores } from './postgres-backend';
import type { WrappableModel } from './reverie';
import { ForgottenFacts } from '../memory/forgetting/forgotten-facts';
import type { BuildConfig, ParsedConcerns } from './validate-build';

/** The PostgreSQL stores of an instance's scope, and the backend it owns (closed with it) when `build()` made one for it alone. */
export interface PostgresInstance {
  stores: PostgresScopeStores;
  owned?: PostgresBackend;
}

/** Something an instance made and closes with it. */
export interface Closable {
  close(): Promise<void>;
}

/** What the rest of an instance is built on: its registry, with the stores, the model and the activity tracker resolved. */
export interface InstanceServices {
  /** Where the instance's services are registered: Reverie's own container, or a child of the host's. */
  registry: ServiceRegistry;
  clock: IClock;
  logger: ILogger;
  dataPath: string;
  /** SPEC D7: one curve for the store's browsing, the passes and whoever shows importance. */
  decay: DecayOptions;
  /** The service behind `token` when one is registered. */
  optional: <T>(token: symbol) => T | undefined;
  /** Remembers a store the instance made, to close it with the instance. */
  own: <T extends Closable>(store: T) => T;
  /** The stores the instance made, closed by `close()`. */
  owned: Closable[];
  /** Long-term memory as Reverie's parts call it: the registered store, with spans around its calls when telemetry is on. */
  memory: ILongTermMemory | undefined;
  /** The long-term memory store as registered (`reverie.memory.store`). */
  memoryStore: ILongTermMemory | undefined;
  /** SPEC E3: Reverie's spans, when `createReverie({ telemetry })` turned them on. */
  tracing: ReverieTracing | undefined;
  /** SPEC E3: the host's telemetry settings, passed on to the AI SDK calls Reverie makes. */
  telemetry: TelemetryOptions | undefined;
  workingMemory: IWorkingMemory | undefined;
  conversationLog: IConversationLog | undefined;
  /**
   * The host's model as Reverie's own calls use it (background calls), or undefined; typed
   * `never` so that each consumer takes it as the model type it declares.
   */
  model: never;
  activity: ActivityTracker;
  /** SPEC B14: the facts forgotten in `memory`, which the dream engine and fact extraction refuse to learn again. */
  forgotten: ForgottenFacts | undefined;
}

/**
 * Registers the instance's services: clock, logger, model, embedder, the activity tracker, and a
 * store per enabled concern (file or PostgreSQL) unless `.use()`, the concern's `store` option
 * or the host's container gives one, in that order. A store the host's container gives is
 * resolved once and registered as it is, so the host and Reverie hold the same instance.
 */
export function assembleServices(
  registry: ServiceRegistry,
  config: BuildConfig,
  options: ParsedConcerns,
  overrides: Map<symbol, unknown>,
  postgres?: PostgresInstance,
): InstanceServices {
  const clock: IClock = config.clock ?? systemClock;
  const { logger } = config;
  const { dataPath } = config;
  const owned: Closable[] = [];
  const own = <T extends Closable>(store: T): T => {
    owned.push(store);
    return store;
  };

  if (config.scope !== undefined) registry.registerValue(REVERIE_TOKENS.Scope, config.scope);
  registry.registerValue(TOKENS.Clock, clock);
  registry.registerValue(TOKENS.Logger, logger);
  if (config.model !== undefined) registry.registerValue(REVERIE_TOKENS.LanguageModel, config.model);
  if (config.embedder !== undefined) registry.registerValue(TOKENS.Embedder, config.embedder);
  else if (config.embeddingModel !== undefined) registry.registerValue(TOKENS.Embedder, aiSdkEmbedder(config.embeddingModel));
  registry.registerValue(REVERIE_TOKENS.ActivityTracker, new ActivityTracker(clock));

  // A store comes from `.use()` first, then the concern's `store` option, then the file default.
  const provide = <T>(token: symbol, enabled: boolean, given: T | undefined, makeDefault: (c: ServiceRegistry) => T & Closable) => {
    if (overrides.has(token)) registry.registerValue(token, overrides.get(token));
    else if (given !== undefined) registry.registerValue(token, given);
    else if (registry.hostProvides(token)) registry.registerValue(token, registry.resolve(token));
    else if (enabled) registry.registerFactory(token, (c) => own(makeDefault(c)));
  };
  // SPEC M4: with an embedder, memory, skills and working memory all rank hybrid, by withMemory's
  // threshold and query timeout (one model, one threshold); a store fills in what is not given.
  const hybridRecall = (c: ServiceRegistry): HybridRecallOptions => ({
    ...(c.isRegistered(TOKENS.Embedder) ? { embedder: c.resolve<IEmbedder>(TOKENS.Embedder) } : {}),
    ...(options.memory
      ? { minSimilarity: options.memory.minSimilarity, queryEmbeddingTimeoutMs: options.memory.queryEmbeddingTimeout }
      : {}),
  });
  // SPEC D7: one curve for the store's browsing, the passes and whoever shows importance.
  const decay: DecayOptions = options.memory?.decay ?? DEFAULT_DECAY_OPTIONS;

  provide<ILongTermMemory>(TOKENS.LongTermMemory, !!options.memory, options.memory?.store, (c) => {
    if (postgres) return postgres.stores.memory({ ...hybridRecall(c), synonyms: options.memory!.synonyms, decay });
    return new FileMemoryStore({
      dataPath,
      clock,
      logger,
      ...hybridRecall(c),
      ...(options.memory!.synonyms ? { synonyms: options.memory!.synonyms } : {}),
      decay,
    });
  });
  provide<IWorkingMemory>(TOKENS.WorkingMemory, !!options.workingMemory, options.workingMemory?.store, (c) => {
    const settings = {
      defaultTtlMs: options.workingMemory!.defaultTtl,
      maxEntriesPerNamespace: options.workingMemory!.maxEntriesPerNamespace,
      ...(options.workingMemory!.maxCharsPerNamespace === undefined
        ? {}
        : { maxCharsPerNamespace: options.workingMemory!.maxCharsPerNamespace }),
      sweepIntervalMs: options.workingMemory!.sweepInterval,
    };
    return postgres
      ? postgres.stores.workingMemory({ ...settings, ...hybridRecall(c) })
      : new FileWorkingMemory({ dataPath, clock, logger, ...settings, ...hybridRecall(c) });
  });
  const files = { dataPath, clock, logger };
  provide<ISkillStore>(
    TOKENS.SkillStore,
    !!options.skills,
    options.skills?.store,
    (c) => postgres?.stores.skills(hybridRecall(c)) ?? new FileSkillStore({ ...files, ...hybridRecall(c) }),
  );
  provide<ISkillUsageStore>(
    TOKENS.SkillUsageStore,
    !!options.skills,
    options.skills?.usageStore,
    () => postgres?.stores.skillUsage() ?? new FileSkillUsageStore(files),
  );
  provide<IConversationLog>(
    TOKENS.ConversationLog,
    !!options.conversationLog,
    options.conversationLog?.store,
    () => postgres?.stores.conversationLog() ?? new FileConversationLog(files),
  );
  provide<IFeedbackStore>(
    TOKENS.FeedbackStore,
    !!options.feedback,
    options.feedback?.store,
    () => postgres?.stores.feedback() ?? new FileFeedbackStore(files),
  );
  provide<IWorkflowLog>(
    TOKENS.WorkflowLog,
    !!options.workflowLog,
    options.workflowLog?.store,
    () => postgres?.stores.workflowLog() ?? new FileWorkflowLog(files),
  );

  const optional = <T>(token: symbol): T | undefined => (registry.isRegistered(token) ? registry.resolve<T>(token) : undefined);
  const memoryStore = optional<ILongTermMemory>(TOKENS.LongTermMemory);
  const tracing = createTracing(config.telemetry);
  const memory = memoryStore && tracing ? new TracedMemory(memoryStore, tracing, config.scope ?? 'default') : memoryStore;
  const workingMemory = optional<IWorkingMemory>(TOKENS.WorkingMemory);
  const conversationLog = optional<IConversationLog>(TOKENS.ConversationLog);
  // Reverie's own calls (dream passes, note expansion) are background calls: a host that passed
  // a model wrapped with Reverie's middleware does not get them recorded as user turns.
  const model = asBackgroundModel(optional<WrappableModel>(REVERIE_TOKENS.LanguageModel)) as never;
  const activity = registry.resolve<ActivityTracker>(REVERIE_TOKENS.ActivityTracker);

  const forgotten = memory && new ForgottenFacts(memory);

  return {
    registry,
    clock,
    logger,
    dataPath,
    decay,
    optional,
    own,
    owned,
    memory,
    memoryStore,
    tracing,
    telemetry: config.telemetry,
    workingMemory,
    conversationLog,
    model,
    activity,
    forgotten,
  };
}

/** The model wrapped so that its calls run as background calls. */
function asBackgroundModel(model: WrappableModel | undefined): WrappableModel | undefined {
  return model === undefined ? undefined : wrapLanguageModelLazily(model, backgroundCallMiddleware());
}
