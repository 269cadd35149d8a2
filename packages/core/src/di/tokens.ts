import type { IClock } from '../interfaces/clock';
import type { IConversationLog } from '../interfaces/conversation-log';
import type { IEmbedder } from '../interfaces/embedder';
import type { IFeedbackStore } from '../interfaces/feedback-store';
import type { ILogger } from '../interfaces/logger';
import type { ILongTermMemory } from '../interfaces/long-term-memory';
import type { ISkillStore, ISkillUsageStore } from '../interfaces/skill-store';
import type { IWorkflowLog } from '../interfaces/workflow-log';
import type { IWorkingMemory } from '../interfaces/working-memory';

declare const service: unique symbol;

/**
 * An injection token that knows the type of its service: a symbol at run time, so it works with
 * tsyringe (`container.register(TOKENS.Clock, …)`, `@inject(TOKENS.Clock)`) and with Reverie's
 * own container alike, and `resolve(TOKENS.LongTermMemory)` is typed `ILongTermMemory`.
 */
export type Token<T> = symbol & { readonly [service]?: T };

/** The service type behind a token. */
export type ServiceOf<K> = K extends Token<infer T> ? T : never;

/** A token for one service; `Symbol.for` keeps it equal across the ESM and CJS builds and across copies of a package. */
export function token<T>(key: string): Token<T> {
  return Symbol.for(key) as Token<T>;
}

/** Injection tokens of the stores and basic services, one per service (the `reverie` package adds its own to these). */
export const TOKENS = {
  LongTermMemory: token<ILongTermMemory>('reverie.LongTermMemory'),
  WorkingMemory: token<IWorkingMemory>('reverie.WorkingMemory'),
  SkillStore: token<ISkillStore>('reverie.SkillStore'),
  SkillUsageStore: token<ISkillUsageStore>('reverie.SkillUsageStore'),
  ConversationLog: token<IConversationLog>('reverie.ConversationLog'),
  FeedbackStore: token<IFeedbackStore>('reverie.FeedbackStore'),
  WorkflowLog: token<IWorkflowLog>('reverie.WorkflowLog'),
  Embedder: token<IEmbedder>('reverie.Embedder'),
  Clock: token<IClock>('reverie.Clock'),
  Logger: token<ILogger>('reverie.Logger'),
} as const;

export type TokenName = keyof typeof TOKENS;
