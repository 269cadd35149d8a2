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
import { RUNTIME_TOKENS } from '../di/runtime-tokens';
import { ServiceContainer } from '../di/service-container';
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

/** What the rest of an instance is built on: its container, with the stores, the model and the activity tracker resolved. */
export interface InstanceServices {
  container: ServiceContainer;
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
  memory: ILongTermMemory | undefined;
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
 * Makes the instance's container and registers its services: clock, logger, model, embedder,
 * the activity tracker, and a store per enabled concern (file or PostgreSQL) unless `.use()` or
 * the concern's `store` option gives one.
 */
export function assembleServices(
  config: BuildConfig,
  options: ParsedConcerns,
  overrides: Map<symbol, unknown>,
  postgres?: PostgresInstance,
): InstanceServices {
  const container = new ServiceContainer();
  const clock: IClock = config.clock ?? systemClock;
  const { logger } = config;
  const { dataPath } = config;
  const owned: Closable[] = [];
  const own = <T extends Closable>(store: T): T => {
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
  const provide = <T>(token: symbol, enabled: boolean, given: T | undefined, makeDefault: (c: ServiceContainer) => T & Closable) => {
    if (overrides.has(token)) container.registerValue(token, overrides.get(token));
    else if (given !== undefined) container.registerValue(token, given);
    else if (enabled) container.registerFactory(token, (c) => own(makeDefault(c)));
  };
  // SPEC M4: with an embedder, memory, skills and working memory all rank hybrid, by withMemory's
  // threshold and query timeout (one model, one threshold); a store fills in what is not given.
  const hybridRecall = (c: ServiceContainer): HybridRecallOptions => ({
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

  const forgotten = memory && new ForgottenFacts(memory);

  return {
    container,
    clock,
    logger,
    dataPath,
    decay,
    optional,
    own,
    owned,
    memory,
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
