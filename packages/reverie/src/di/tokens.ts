// `reverie/tokens`: every injection token of Reverie, typed (`Token<ILongTermMemory>`…), in a
// small entry a host's service classes can import for `@inject(TOKENS.Clock)` without loading the
// builder. The store tokens are `@reverie/core`'s; this adds the ones the `reverie` package reads
// or builds. What each token does with a host's registration: `token-roles.ts` and
// docs/configuration.md, "Using your tsyringe container".
import { token, TOKENS as STORE_TOKENS } from '@reverie/core';
import type { DreamPass } from '@reverie/dream';
import type { ActivityTracker } from '../activity/activity-tracker';
import type { Reverie, ReverieDreams } from '../builder/reverie';
import type { ConversationMemory } from '../conversation/conversation-memory';
import type { ReverieMemory } from '../memory/reverie-memory';
import type { LanguageModelObject } from '../options/model-option';
import type { AgentTools } from '../tools/agent-tools';

export const TOKENS = {
  ...STORE_TOKENS,
  /** The host's language model: memory expansion, the dream passes and fact extraction use it. */
  LanguageModel: token<LanguageModelObject>('reverie.LanguageModel'),
  /** A dream pass of the host's (docs/dream-passes.md); register as many as you like. */
  DreamPass: token<DreamPass>('reverie.DreamPass'),
  /** The scope of the instance (`scopes.get(scope)`, `createReverie({ scope })`), for a store class that keeps scopes apart. */
  Scope: token<string>('reverie.Scope'),
  /** Built by Reverie: the instance. */
  Reverie: token<Reverie>('reverie.Reverie'),
  /** Built by Reverie: `reverie.memory`. */
  ReverieMemory: token<ReverieMemory>('reverie.ReverieMemory'),
  /** Built by Reverie: `reverie.dreams`. */
  Dreams: token<ReverieDreams>('reverie.Dreams'),
  /** Built by Reverie: `reverie.tools`. */
  AgentTools: token<AgentTools>('reverie.AgentTools'),
  /** Built by Reverie: what tells the dream cycle that the user is active. */
  ActivityTracker: token<ActivityTracker>('reverie.ActivityTracker'),
  /** Built by Reverie: the sessions' turns kept in process memory. */
  ConversationMemory: token<ConversationMemory>('reverie.ConversationMemory'),
} as const;

export type { ServiceOf, Token } from '@reverie/core';
export type ReverieTokenName = keyof typeof TOKENS;
/** Any of Reverie's tokens. */
export type ReverieToken = (typeof TOKENS)[ReverieTokenName];
