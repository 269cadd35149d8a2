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
export { fileSystemError, internalError, isFileSystemErrorCode, FILE_SYSTEM_ERROR_CODES } from './errors/file-system-error';

// What loads at its first use (docs/architecture.md)
export { loadOnce } from './loading/load-once';
export { lookupTable, ownValue, setOwn } from './lookup/lookup-table';
export { hasMethods } from './lookup/has-methods';

// Ids and names
export { assertValidId, ID_PATTERN, isValidId, newId } from './ids/new-id';
export {
  CATEGORY_RULES,
  caseCollision,
  isUnderPrefix,
  pathNameProblem,
  type PathNameRules,
  SKILL_NAME_RULES,
  validateCategory,
  validateSkillName,
  validateWorkingMemoryKey,
  WORKING_MEMORY_KEY_RULES,
  isSystemCategory,
  SYSTEM_CATEGORY,
} from './validation/path-name';
export { refuseSystemCategory } from './validation/refuse-system-category';
export { MAX_SCOPE_LENGTH, SCOPE_ADVICE, scopeFolderName, scopeFromFolderName, scopeProblem, validateScope } from './validation/scope';

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
  type MemorySearchQuery,
  memorySearchQuerySchema,
  type MemorySearchResult,
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
export { describeIssues, parseDraft, parseRecord, toStorableText, unstorableTextProblem } from './schemas/parse-record';

// Service interfaces and tokens
export { hasChangeFeed, type ILongTermMemory, type WriteCondition } from './interfaces/long-term-memory';
export type { IMemoryChangeFeed, MemoryChange, MemoryChangePage, MemoryChangeQuery, MemoryNeighbour, MemoryNeighbourQuery } from './interfaces/memory-change-feed';
export {
  type ChangePosition,
  DEFAULT_CHANGE_PAGE,
  DEFAULT_NEIGHBOURS,
  formatChangeCursor,
  MAX_CHANGE_PAGE,
  MAX_NEIGHBOURS,
  parseChangeCursor,
  parseChangeQuery,
  parseNeighbourQuery,
} from './changes/change-cursor';
export { ChangeLog, oldestPosition } from './changes/change-log';
export { indexNeighbourIds, indexNeighbours, NEIGHBOUR_QUERY } from './changes/index-neighbours';
export type { IWorkingMemory } from './interfaces/working-memory';
export type { ConversationLogReadOptions, IConversationLog } from './interfaces/conversation-log';
export type { FeedbackListOptions, IFeedbackStore } from './interfaces/feedback-store';
export type { ISkillStore, ISkillUsageStore, SkillUsageListOptions } from './interfaces/skill-store';
export type { IWorkflowLog, WorkflowLogReadOptions } from './interfaces/workflow-log';
export type { IEmbedder } from './interfaces/embedder';
export { type IClock, monotonicMs } from './interfaces/clock';
export type { ILogger } from './interfaces/logger';
export { TOKENS, type TokenName } from './di/tokens';
export { ManualClock, systemClock } from './time/system-clock';
export { consoleLogger, formatLogLine, RecordingLogger, silentLogger, stderrLogger } from './logging/loggers';

// Store building blocks (for custom store authors)
export { resolveMemoryDraft } from './memory/resolve-memory-draft';
export { byCreation, byImportanceThenRecency } from './memory/memory-order';
export { copyMemoryEntry } from './memory/copy-memory-entry';
export { resolveSkillDraft, skillDocumentText } from './skills/resolve-skill-draft';
export { matchesAnySkillPattern, skillNameMatches, skillNamePatternSchema } from './skills/skill-name-pattern';
export { assertOpen, checkCondition, inTimeRange, nextTimestamp } from './stores/write-condition';
export { byTimestamp, validateRange } from './stores/time-range';
export { selectFeedback, selectSkillUsages, selectTurns, selectWorkflowExecutions } from './stores/record-selectors';
export { browseMemory, type BrowseDecay, type ParsedMemoryQuery, parseMemoryQuery } from './memory/memory-query';
export { buildWorkingMemoryEntry } from './working-memory/build-working-memory-entry';
export { type ParsedWorkingMemoryQuery, parseWorkingMemoryQuery } from './working-memory/working-memory-query';

// Search
export {
  BM25_B,
  BM25_K1,
  bm25Idf,
  COMMON_TERM_FLOOR,
  PREFIX_MAX_EXPANSIONS,
  PREFIX_MIN_LENGTH,
  PREFIX_WEIGHT,
  rarestTerms,
  STEM_WEIGHT,
  SYNONYM_WEIGHT,
  termScore,
  weighQueryTerms,
} from './search/bm25-scoring';
export { type HybridRecallOptions, hybridRecallOptionsShape, type ResolvedHybridRecall, resolveHybridRecall } from './search/hybrid-recall-options';
export { embedQueryWithin, MAX_EMBEDDING_INPUT_CHARS } from './search/query-embedding';
export { BM25_INDEX_FORMAT, type Bm25Hit, Bm25Index, type Bm25IndexOptions, type Bm25IndexState, type Bm25SearchOptions } from './search/bm25-index';
export {
  cosineSimilarity,
  DEFAULT_MIN_SIMILARITY,
  DEFAULT_QUERY_EMBEDDING_TIMEOUT_MS,
  type HybridHit,
  hybridRank,
  type HybridRankOptions,
  type VectorHit,
} from './search/hybrid-rank';
export { type IndexTerms, indexTerms, type QueryWord, queryWords, STEM_MARK, type TermAnalysis } from './search/index-terms';
export { memoryDocumentText } from './search/memory-document-text';
export { namesDateWithin, notedWithin, type Period, periodOfDateKey, queryPeriods } from './search/query-periods';
export { hasCues, queryCues, type QueryCues, queryNames } from './search/query-cues';
export { MEMORY_RERANK, mergeHitLists, type RerankedEntry, rerankMemoryHits, rerankPool } from './search/rerank-memory-hits';
export { expandWithSynonyms, type Thesaurus } from './search/query-synonyms';
export { bridgeNames, mergeSecondHop, SECOND_HOP, searchWithSecondHop } from './search/second-hop';
export { IRREGULAR_FORMS } from './text/stem-word';
export { normaliseTerm, STOP_WORDS, tokenize } from './search/stop-words';

// Temporal arithmetic (SPEC D4, D7)
export {
  describeSubjectTime,
  mergeSubjectTimeMetadata,
  parsePartialDate,
  SUBJECT_END_KEY,
  SUBJECT_POINT_KEY,
  SUBJECT_START_KEY,
  SUBJECT_TIME_KEYS,
} from './temporal/subject-time';
export { mergeTemporalFields, type TemporalFields, timestampMs } from './temporal/merge-temporal';
export { DAY_MS } from './temporal/importance-decay';
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
  MAX_LINEAGE_TURN_RANGES,
  type MemoryLineage,
  type MemoryLineageDraft,
  memoryLineageSchema,
} from './schemas/memory-lineage';
export { ancestorRecord, contentExcerpt, contentFingerprint, lineageTurnRanges, type LineageStep, mergedLineage, supersedingLineage } from './lineage/memory-lineage';
export { type MemoryHistory, memoryHistory, type MemoryHistoryStep } from './lineage/memory-history';
export { hasValidityBounds, heldAt, holdsNow, type ValidityFields, validityProblem, validityTest, type ValidityView } from './temporal/validity';
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

// Model replies
export { type ExtractionStats, extractJsonObject } from './json/extract-json-object';

// Fact preservation: what a text means, normalised, and whether a merge keeps it (issue 13)
export { ABBREVIATIONS, type Abbreviation } from './text/abbreviations';
export { analyseText, NEGATION_SCOPE, normaliseTerms, type Term, type TermKind, type TextAnalysis } from './text/analyse-text';
export { detectInjection, INJECTION_PATTERNS } from './text/detect-injection';
export {
  BAG_MAX_FUNCTION_SHARE,
  BAG_MIN_TERMS,
  BAG_ORDER_MAX_COVERAGE,
  BAG_SOURCE_MIN_FUNCTION_SHARE,
  type FactGroups,
  type FactJudgement,
  judgeFactPreservation,
  type JudgeOptions,
  MAX_NOVELTY,
  MIN_ORDER_AGREEMENT,
  MIN_SOURCE_COVERAGE,
  MIN_WORD_COVERAGE,
  ORDER_WINDOW,
  STRICT_MAX_NOVELTY,
  STRICT_MIN_SOURCE_COVERAGE,
  STRICT_MIN_WORD_COVERAGE,
} from './text/judge-fact-preservation';
export { directiveExamples, FACT_RULES, type FactRewrite, type FactRule, renderFactRules } from './text/fact-rules';
export { RELATIVE_DATE_TOLERANCE_DAYS } from './text/relative-dates';
export { estimateTokens } from './text/estimate-tokens';
