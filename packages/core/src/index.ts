// `@reverie/core`: what a user of Reverie or the author of a store needs: the record schemas and
// types, the store interfaces and their tokens, errors, the record rules every store applies, the
// in-memory reference stores. The building blocks Reverie's own packages share are at
// `@reverie/core/internal` (unstable).

// Errors
export {
  isReverieError,
  ReverieConflictError,
  ReverieError,
  type ReverieErrorCode,
  type ReverieErrorOptions,
  ReverieLockHeldError,
  ReverieModelReplyError,
  ReverieStoreCorruptError,
  ReverieValidationError,
} from './errors/reverie-error';

// Ids and names
export { assertValidId, ID_PATTERN, isValidId, newId } from './ids/new-id';
export { isUnderPrefix, validateCategory, validateSkillName, validateWorkingMemoryKey } from './validation/path-name';
export { MAX_SCOPE_LENGTH, validateScope } from './validation/scope';

// Record schemas and types
export {
  categorySchema,
  idSchema,
  MAX_SEARCH_RESULTS,
  MAX_SEARCH_TEXT_LENGTH,
  metadataSchema,
  skillNameSchema,
  tagSchema,
  tagsSchema,
  type TimeInput,
  timestampSchema,
  workingMemoryKeySchema,
} from './schemas/common';
export {
  type CategoryCount,
  DEFAULT_CATEGORY,
  DEFAULT_IMPORTANCE,
  DEFAULT_SEARCH_RESULTS,
  MAX_MEMORY_CONTENT_LENGTH,
  type MemoryDraft,
  memoryDraftSchema,
  type MemoryEntry,
  memoryEntrySchema,
  type MemoryListOptions,
  type MemorySearchQuery,
  memorySearchQuerySchema,
  type MemorySearchResult,
  type MemorySearchTiers,
  memorySearchTiersSchema,
  type MemoryTier,
  memoryTierSchema,
} from './schemas/memory-entry';
export {
  DEFAULT_MAX_ENTRIES_PER_NAMESPACE,
  DEFAULT_WORKING_MEMORY_TTL_MS,
  MAX_WORKING_MEMORY_TTL_MS,
  MAX_WORKING_MEMORY_VALUE_LENGTH,
  namespaceOf,
  type WorkingMemoryEntry,
  workingMemoryEntrySchema,
  type WorkingMemorySearchQuery,
  workingMemorySearchQuerySchema,
  type WorkingMemorySearchResult,
  type WorkingMemorySetOptions,
  workingMemorySetOptionsSchema,
} from './schemas/working-memory-entry';
export {
  type ConversationTurn,
  type ConversationTurnDraft,
  conversationTurnDraftSchema,
  conversationTurnSchema,
  type LoggedTurn,
  loggedTurnSchema,
  sessionIdSchema,
  type TurnRole,
  turnRoleSchema,
} from './schemas/conversation-turn';
export {
  type FeedbackDraft,
  feedbackDraftSchema,
  type FeedbackKind,
  feedbackKindSchema,
  type FeedbackSignal,
  feedbackSignalSchema,
  type SessionRating,
  sessionRatingSchema,
} from './schemas/feedback-signal';
export {
  type Skill,
  type SkillDraft,
  skillDraftSchema,
  skillSchema,
  type SkillSearchQuery,
  skillSearchQuerySchema,
  type SkillSearchResult,
  type SkillUsage,
  type SkillUsageDraft,
  skillUsageDraftSchema,
  skillUsageSchema,
} from './schemas/skill';
export {
  type WorkflowExecution,
  type WorkflowExecutionDraft,
  workflowExecutionDraftSchema,
  workflowExecutionSchema,
} from './schemas/workflow-execution';
export { parseRecord } from './schemas/parse-record';
export { invalidOptions, type OptionIssue, optionIssues, parseOptions } from './options/invalid-options';

// Service interfaces and tokens
export { hasChangeFeed, hasTiers, type ILongTermMemory, type WriteCondition } from './interfaces/long-term-memory';
export type {
  IMemoryChangeFeed,
  MemoryChange,
  MemoryChangePage,
  MemoryChangeQuery,
  MemoryNeighbour,
  MemoryNeighbourQuery,
} from './interfaces/memory-change-feed';
export { ChangeLog } from './changes/change-log';
export { indexNeighbourIds, indexNeighbours } from './changes/index-neighbours';
export type { IWorkingMemory } from './interfaces/working-memory';
export type { ConversationLogReadOptions, IConversationLog } from './interfaces/conversation-log';
export type { FeedbackListOptions, IFeedbackStore } from './interfaces/feedback-store';
export type { ISkillStore, ISkillUsageStore, SkillUsageListOptions } from './interfaces/skill-store';
export type { IWorkflowLog, WorkflowLogReadOptions } from './interfaces/workflow-log';
export type { IEmbedder } from './interfaces/embedder';
export type { IClock } from './interfaces/clock';
export type { ILogger } from './interfaces/logger';
export { type ServiceOf, type Token, TOKENS, type TokenName, token } from './di/tokens';
export { ManualClock, systemClock } from './time/system-clock';
export { consoleLogger, RecordingLogger, silentLogger, stderrLogger } from './logging/loggers';

// Store building blocks (for custom store authors)
export { resolveMemoryDraft } from './memory/resolve-memory-draft';
export { byCreation, byImportanceThenRecency } from './memory/memory-order';
export { copyMemoryEntry } from './memory/copy-memory-entry';
export { EPISODE_TAG } from './memory/episode-tag';
export { COLD_FALLBACK, hotResultsAreWeak, inTier, parseListTier, searchTiers, tierOf } from './memory/memory-tiers';
export { resolveSkillDraft, skillDocumentText } from './skills/resolve-skill-draft';
export { assertOpen, checkCondition, inTimeRange, nextTimestamp } from './stores/write-condition';
export { byTimestamp, validateRange } from './stores/time-range';
export { selectFeedback, selectSkillUsages, selectTurns, selectWorkflowExecutions } from './stores/record-selectors';
export { browseMemory, type BrowseDecay, type ParsedMemoryQuery, parseMemoryQuery } from './memory/memory-query';
export { buildWorkingMemoryEntry } from './working-memory/build-working-memory-entry';
export { type ParsedWorkingMemoryQuery, parseWorkingMemoryQuery } from './working-memory/working-memory-query';

// Search
export type { HybridRecallOptions } from './search/hybrid-recall-options';
export { type Bm25Hit, Bm25Index, type Bm25IndexOptions, type Bm25IndexState, type Bm25SearchOptions } from './search/bm25-index';
export {
  cosineSimilarity,
  DEFAULT_MIN_SIMILARITY,
  DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS,
  type HybridHit,
  hybridRank,
  type HybridRankOptions,
  type VectorHit,
} from './search/hybrid-rank';
export { indexMemoryEntry, memoryDocumentText, memoryLabelWords, memoryPassageTexts } from './search/memory-document-text';
export type { Thesaurus } from './search/query-synonyms';
export { searchWithSecondHop } from './search/second-hop';

// Temporal arithmetic (SPEC D4, D7)
export {
  describeSubjectTime,
  mergeSubjectTimeMetadata,
  SUBJECT_END_KEY,
  SUBJECT_POINT_KEY,
  SUBJECT_START_KEY,
  SUBJECT_TIME_KEYS,
} from './temporal/subject-time';
export { mergeTemporalFields, type TemporalFields } from './temporal/merge-temporal';
export { type ChangeInstant, changeInstant, type ChangeRule, supersede } from './temporal/supersession';
export {
  LINEAGE_ORIGIN_KINDS,
  type LineageAncestor,
  lineageAncestorSchema,
  type LineageOrigin,
  type LineageOriginKind,
  lineageOriginSchema,
  type LineageTurns,
  MAX_LINEAGE_ANCESTORS,
  MAX_LINEAGE_EXCERPT,
  MAX_LINEAGE_PASSAGES,
  MAX_LINEAGE_TURN_RANGES,
  type MemoryLineage,
  type MemoryLineageDraft,
  memoryLineageSchema,
} from './schemas/memory-lineage';
export { absorbedLineage, mergedLineage, mergedPassages, supersedingLineage } from './lineage/memory-lineage';
export { type MemoryHistory, memoryHistory, type MemoryHistoryStep } from './lineage/memory-history';
export {
  hasValidityBounds,
  heldAt,
  holdsNow,
  type ValidityFields,
  validityProblem,
  validityTest,
  type ValidityView,
} from './temporal/validity';
export {
  DEFAULT_DECAY_OPTIONS,
  decayImportance,
  type DecayOptions,
  decayOptionsSchema,
  type DecayingImportance,
  effectiveImportance,
  resolveDecayOptions,
  withEffectiveImportance,
  withEffectiveImportanceAt,
} from './temporal/importance-decay';

// In-memory reference stores
export type { InMemoryStoreOptions } from './in-memory/in-memory-store-options';
export { InMemoryLongTermMemory, type InMemoryLongTermMemoryOptions } from './in-memory/in-memory-long-term-memory';
export { InMemorySkillStore } from './in-memory/in-memory-skill-store';
export { InMemorySkillUsageStore } from './in-memory/in-memory-skill-usage-store';
export { InMemoryFeedbackStore } from './in-memory/in-memory-feedback-store';
export { InMemoryConversationLog } from './in-memory/in-memory-conversation-log';
export { InMemoryWorkflowLog } from './in-memory/in-memory-workflow-log';
export {
  InMemoryWorkingMemory,
  type InMemoryWorkingMemoryOptions,
  workingMemoryDocumentText,
} from './in-memory/in-memory-working-memory';

// Stored text that reads like instructions (what the server's saves warn about)
export { detectInjection } from './text/detect-injection';
