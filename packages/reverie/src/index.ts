export type { SignalSource } from './dreaming/gates/signal-source';
export type { GateName, GateOutcome, TriggerRequest, TriggerResult } from './dreaming/gates/dream-trigger';
export type { DreamStatusFormat } from './dreaming/status/render-dream-status';
export type { DreamStatus } from './dreaming/status/dream-status';
export type { DreamLockStatus, LedgerLine } from '@reverie/dream-state';
export { createReverie, ReverieBuilder } from './builder/create-reverie';
export { ReverieScopes, type ScopeDropReport } from './builder/reverie-scopes';
export type { Reverie, ReverieDreams, WrappableModel } from './builder/reverie';
export type {
  ConversationLogOptions,
  FeedbackOptions,
  MemoryOptions,
  ReverieConfig,
  SkillOptions,
  WorkflowLogOptions,
  WorkingMemoryOptions,
} from './builder/builder-options';
export { ActivityTracker } from './activity/activity-tracker';
export { type MiddlewareOptions, middlewareOptionsSchema } from './middleware/reverie-middleware';
export { withReverie, type WithReverieOptions } from './middleware/with-reverie';
export { ConversationMemory, type RecordedTurn } from './conversation/conversation-memory';
export type { ContextOptions, ContextOptionsInput } from './context/context-options';
export { type TurnContext, TurnContextBuilder, type TurnInput, type TurnKind } from './context/turn-context-builder';
export type { MemoryTools } from './tools/memory-tools';
export type { WorkingMemoryTools } from './tools/working-memory-tools';
export { AgentTools, type NoToolFamilies, type SessionTools, type ToolFamilies, type WithToolFamily } from './tools/agent-tools';
export type { EmbeddingModelObject, LanguageModelObject } from './options/model-option';
export { ReverieMemory } from './memory/reverie-memory';
export {
  type ForgetOptions,
  forgetOptionsSchema,
  type ForgetSelector,
  forgetSelectorSchema,
  MAX_FORGET_IDS,
  selectorFrom,
} from './memory/forgetting/forget-selector';
export { FORGET_RUN, type ForgetReceipt, type SoftForgetReceipt } from './memory/forgetting/memory-forgetting';
export type { ErasureReceipt } from './memory/forgetting/memory-erasure';
export type { ErasedPlace } from './memory/forgetting/erase-in-files';
export { FORGOTTEN_CATEGORY } from './memory/forgetting/forgotten-facts';
export { EXPORT_FORMAT_VERSION } from './portability/export-format';
export { type ExportOptions, exportOptionsSchema } from './portability/export-memory';
export {
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportOptions,
  importOptionsSchema,
  type ImportProgress,
  type ImportReport,
} from './portability/import-memory';
export { type DreamingOptions, type DreamingOptionsInput, dreamingOptionsSchema } from './dreaming/dream-options';
export type { DreamPassPlan } from './dreaming/dream-pass-catalog';
export type { DreamPass, DreamPhase, PassContext, PassPlan, PassSkip } from '@reverie/dream';
export type { PassDeclaration, ServiceName } from '@reverie/dream/options';
export { parseDuration } from './options/duration';
export { DEFAULT_WORD_VECTOR_WORDS, loadWordVectorEmbedder, type WordVectorEmbedderOptions } from './recall/load-word-vector-embedder';
export { loadWordNetThesaurus, type WordNetThesaurusOptions } from './recall/load-word-net-thesaurus';
export { type CheckReverieOptions, type CheckStatus, checkReverie, type ReverieCheck, type ReverieCheckup } from './doctor/check-reverie';
export { renderDreamStatus } from './dreaming/status/render-dream-status';
export type { ApplyRequest, PlanSummary, RecordChange, RecordHistoryItem, RecordKey, RunDetails, RunSummary } from '@reverie/dream';
export { type ReverieTokenName, type ServiceOf, type Token, TOKENS } from './di/tokens';
export type { ReverieContainer } from './di/reverie-container';
export type { IClock, Thesaurus } from '@reverie/core';
export type {
  FeedbackSignal,
  LoggedTurn,
  MemoryDraft,
  MemoryEntry,
  MemoryHistory,
  MemoryHistoryStep,
  MemoryLineage,
  Skill,
  SkillDraft,
  WorkflowExecution,
} from '@reverie/core';
export type {
  CycleReport,
  PassOutcome,
  PromotionExplanation,
  RanPassOutcome,
  TierNeighbour,
  TierReport,
  UndoReport,
  ValueExplanation,
} from '@reverie/dream';
