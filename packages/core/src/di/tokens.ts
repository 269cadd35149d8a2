/**
 * Injection tokens, one per service. `Symbol.for` keeps them equal across the ESM and CJS
 * builds of this package, so a token from either resolves the same registration.
 */
export const TOKENS = {
  LongTermMemory: Symbol.for('reverie.LongTermMemory'),
  WorkingMemory: Symbol.for('reverie.WorkingMemory'),
  SkillStore: Symbol.for('reverie.SkillStore'),
  SkillUsageStore: Symbol.for('reverie.SkillUsageStore'),
  ConversationLog: Symbol.for('reverie.ConversationLog'),
  FeedbackStore: Symbol.for('reverie.FeedbackStore'),
  WorkflowLog: Symbol.for('reverie.WorkflowLog'),
  Embedder: Symbol.for('reverie.Embedder'),
  Clock: Symbol.for('reverie.Clock'),
  Logger: Symbol.for('reverie.Logger'),
} as const;

export type TokenName = keyof typeof TOKENS;
