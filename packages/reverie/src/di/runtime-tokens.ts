/**
 * Tokens of the services the `reverie` package adds to core's `TOKENS`. `Symbol.for` keeps
 * them equal across the ESM and CJS builds.
 */
export const RUNTIME_TOKENS = {
  /** The host's `LanguageModel` (optional): memory expansion and the dream passes use it. */
  LanguageModel: Symbol.for('reverie.LanguageModel'),
  ActivityTracker: Symbol.for('reverie.ActivityTracker'),
  ConversationMemory: Symbol.for('reverie.ConversationMemory'),
  ContextOptions: Symbol.for('reverie.ContextOptions'),
  MemoryToolOptions: Symbol.for('reverie.MemoryToolOptions'),
} as const;
