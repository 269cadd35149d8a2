import type { TelemetrySettings } from 'ai';
import { ConversationMemory } from '../conversation/conversation-memory';
import { TurnContextBuilder } from '../context/turn-context-builder';
import { TOKENS } from '../di/tokens';
import type { RecallEventLog } from '../dreaming/recall-event-log';
import type { MemoryForgetting } from '../memory/forgetting/memory-forgetting';
import { TurnFactExtractor } from '../extraction/turn-fact-extractor';
import { AgentTools, type ToolFamilies } from '../tools/agent-tools';
import type { InstanceServices } from './assemble-services';
import type { BuildConfig, ParsedConcerns } from './validate-build';

/** The longest wait between two sweeps of idle sessions. */
const IDLE_SWEEP_MS = 60_000;

/** The sessions' turns kept in process memory, registered in the instance's registry (SPEC M9). */
export function assembleConversation(
  { registry, clock, logger, conversationLog }: InstanceServices,
  config: BuildConfig,
): ConversationMemory {
  const conversation = new ConversationMemory({ clock, logger, log: conversationLog, idleMs: config.context.sessionIdleTimeout });
  registry.registerValue(TOKENS.ConversationMemory, conversation);
  return conversation;
}

/** What serves a turn: the context builder, the fact extractor, the agent's tools, and the sweep of idle sessions. */
export interface TurnRuntime<F extends ToolFamilies> {
  secondHop: boolean;
  extractor: TurnFactExtractor | undefined;
  context: TurnContextBuilder;
  idleSweep: ReturnType<typeof setInterval> | undefined;
  tools: AgentTools<F>;
}

/** Builds what serves a turn over the instance's services, its conversation and its recall recorder. */
export function assembleRuntime<F extends ToolFamilies>(
  services: InstanceServices,
  config: BuildConfig,
  options: ParsedConcerns,
  conversation: ConversationMemory,
  recall: RecallEventLog | undefined,
  forgetting: MemoryForgetting | undefined,
): TurnRuntime<F> {
  const { memory, workingMemory, model, clock, logger, decay, forgotten } = services;
  const secondHop = options.memory?.secondHop ?? false;
  const extractor =
    memory && model && options.memory?.extract !== undefined
      ? new TurnFactExtractor({
          memory,
          model,
          logger,
          conversation,
          mode: options.memory.extract,
          telemetry: services.telemetry as TelemetrySettings | undefined,
          forgotten,
        })
      : undefined;
  const context = new TurnContextBuilder({
    memory,
    workingMemory,
    conversation,
    clock,
    logger,
    options: config.context,
    recall,
    secondHop,
    decay,
    observer: extractor,
  });
  // SPEC M9: idle sessions leave memory even when no turn comes to sweep them.
  const idleSweep =
    config.context.sessionIdleTimeout > 0
      ? setInterval(() => context.expireIdle(), Math.min(config.context.sessionIdleTimeout, IDLE_SWEEP_MS))
      : undefined;
  idleSweep?.unref();
  const tools = new AgentTools<F>({
    memory,
    workingMemory,
    logger,
    recall,
    secondHop,
    forgetting,
    ...(model ? { model } : {}),
    expansion: { enabled: options.memory?.expansion.enabled ?? true },
  });
  return { secondHop, extractor, context, idleSweep, tools };
}
