import {
  effectiveImportance,
  type IEmbedder,
  type IFeedbackStore,
  type ISkillStore,
  type ISkillUsageStore,
  type IWorkflowLog,
  ReverieValidationError,
  TOKENS,
} from '@reverie/core';
import { dreamingOptionsSchema } from '../dreaming/dream-options';
import { createReverieMiddleware } from '../middleware/reverie-middleware';
import { wrapLanguageModelLazily } from '../middleware/wrap-language-model-lazily';
import { exportLines } from '../portability/export-memory';
import { importMemory } from '../portability/import-memory';
import { MemoryErasure } from '../memory/forgetting/memory-erasure';
import { MemoryForgetting } from '../memory/forgetting/memory-forgetting';
import { ReverieMemory } from '../memory/reverie-memory';
import type { ServiceRegistry } from '../di/service-registry';
import { TOKENS as REVERIE_TOKENS } from '../di/tokens';
import { checkHostPasses } from '../dreaming/host-passes';
import type { ToolFamilies } from '../tools/agent-tools';
import { usedPasses } from './host-services';
import { assembleDreamCycle, assembleDreamState } from './assemble-dreaming';
import { assembleConversation, assembleRuntime } from './assemble-runtime';
import { assembleServices, type PostgresInstance } from './assemble-services';
import type { Reverie, WrappableModel } from './reverie';
import { createReverieDreams } from './reverie-dreams';
import type { BuildConfig, Concern, ParsedConcerns } from './validate-build';

/**
 * Builds one instance from validated options, step by step: the container with its stores
 * (`assembleServices`), the sessions' turns, the dream state and the recall recorder
 * (`assembleDreamState`), what serves a turn (`assembleRuntime`), the dream cycle
 * (`assembleDreamCycle`), and the `Reverie` with its `dreams` (`createReverieDreams`) and `close()`.
 */
export function assemble<F extends ToolFamilies>(
  registry: ServiceRegistry,
  config: BuildConfig,
  concerns: Map<Concern, never>,
  overrides: Map<symbol, unknown>,
  postgres?: PostgresInstance,
): Reverie<F> {
  const options = Object.fromEntries(concerns) as ParsedConcerns;
  const services = assembleServices(registry, config, options, overrides, postgres);
  const { optional, clock, logger, dataPath, decay, memory, memoryStore, workingMemory, conversationLog, activity, owned } = services;
  const conversation = assembleConversation(services, config);
  const parsedDreaming = options.dreaming ?? dreamingOptionsSchema.parse({});
  // SPEC E4: the host's passes, from withDreaming({ passes }), .use(TOKENS.DreamPass) and its container, checked together.
  const passes = checkHostPasses([...parsedDreaming.passes, ...usedPasses(overrides), ...registry.hostPasses()], 'passes');
  const dreamingOptions = { ...parsedDreaming, passes };
  const state = assembleDreamState(services, options, dreamingOptions, conversation, postgres);
  const { recall } = state;
  const cycle = assembleDreamCycle(services, options, dreamingOptions, state);
  const erasure =
    memory &&
    new MemoryErasure({
      memory,
      now: () => clock.now(),
      dataPath,
      files: !postgres,
      rootScope: config.scope === undefined,
      tables: postgres?.stores.erasureTables,
      lock: state.dreamState.lock,
    });
  const forgetting =
    memory &&
    erasure &&
    new MemoryForgetting({
      memory,
      engine: cycle.engine,
      clock,
      erasure,
      tracing: services.tracing && { spans: services.tracing, storeId: config.scope ?? 'default' },
    });
  const { secondHop, extractor, context, idleSweep, tools } = assembleRuntime<F>(
    services,
    config,
    options,
    conversation,
    recall,
    forgetting,
  );
  const { dreamTrigger, scheduler } = cycle;
  let closed = false;

  const reverie: Reverie<F> = {
    container: registry.container,
    memory:
      memoryStore && new ReverieMemory(memoryStore, { secondHop, forgetting, ...(memory === memoryStore ? {} : { through: memory }) }),
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
        throw new ReverieValidationError(
          'INVALID_INPUT',
          'endSession(sessionId) needs the id of the session that ended (a non-empty string).',
        );
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
    dreams: createReverieDreams(services, options, dreamingOptions, state, cycle, erasure),
    export: (exportOptions) =>
      exportLines(
        {
          memory,
          skills: optional<ISkillStore>(TOKENS.SkillStore),
          embedder: optional<IEmbedder>(TOKENS.Embedder),
          scope: config.scope,
          now: clock.now(),
        },
        exportOptions,
      ),
    import: (text, importOptions) =>
      importMemory(
        { memory, skills: optional<ISkillStore>(TOKENS.SkillStore), engine: cycle.engine, now: () => clock.now() },
        text,
        importOptions,
      ),
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
  // SPEC E2: what Reverie built, for the host to resolve from `reverie.container`.
  registry.registerValue(REVERIE_TOKENS.Reverie, reverie);
  registry.registerValue(REVERIE_TOKENS.AgentTools, tools);
  registry.registerValue(REVERIE_TOKENS.Dreams, reverie.dreams);
  if (reverie.memory) registry.registerValue(REVERIE_TOKENS.ReverieMemory, reverie.memory);
  return reverie;
}
