// `@reverie/core/internal`: the building blocks Reverie's own packages share — tuning constants,
// text analysis, the ranking steps every store runs after BM25, option and path helpers, the fact
// check. Unstable: not covered by semver, and may change in any release. Applications and store
// authors use the main entry (`@reverie/core`), which exports everything they need.
export { fileSystemError, internalError, isFileSystemErrorCode, FILE_SYSTEM_ERROR_CODES } from './errors/file-system-error';
export { loadOnce } from './loading/load-once';
export { lookupTable, ownValue, setOwn } from './lookup/lookup-table';
export { hasMethods } from './lookup/has-methods';
export {
  CATEGORY_RULES,
  caseCollision,
  pathNameProblem,
  type PathNameRules,
  SKILL_NAME_RULES,
  WORKING_MEMORY_KEY_RULES,
  isSystemCategory,
  SYSTEM_CATEGORY,
} from './validation/path-name';
export { refuseSystemCategory } from './validation/refuse-system-category';
export { SCOPE_ADVICE, scopeFolderName, scopeFromFolderName, scopeProblem } from './validation/scope';
export { describeIssues, parseDraft, toStorableText, unstorableTextProblem } from './schemas/parse-record';
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
export { oldestPosition } from './changes/change-log';
export { NEIGHBOUR_QUERY } from './changes/index-neighbours';
export { monotonicMs } from './interfaces/clock';
export { formatLogLine } from './logging/loggers';
export { matchesAnySkillPattern, skillNameMatches, skillNamePatternSchema } from './skills/skill-name-pattern';
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
export { hybridRecallOptionsShape, type ResolvedHybridRecall, resolveHybridRecall } from './search/hybrid-recall-options';
export { embedQueryWithin, MAX_EMBEDDING_INPUT_CHARS } from './search/query-embedding';
export { BM25_INDEX_FORMAT } from './search/bm25-index';
export { type IndexTerms, indexTerms, type QueryWord, queryWords, STEM_MARK, type TermAnalysis } from './search/index-terms';
export { namesDateWithin, notedWithin, type Period, periodOfDateKey, queryPeriods } from './search/query-periods';
export { hasCues, queryCues, type QueryCues, queryNames } from './search/query-cues';
export { MEMORY_RERANK, mergeHitLists, type RerankedEntry, rerankMemoryHits, rerankPool } from './search/rerank-memory-hits';
export { expandWithSynonyms } from './search/query-synonyms';
export { bridgeNames, mergeSecondHop, SECOND_HOP } from './search/second-hop';
export { IRREGULAR_FORMS } from './text/stem-word';
export { normaliseTerm, STOP_WORDS, tokenize } from './search/stop-words';
export { parsePartialDate } from './temporal/subject-time';
export { timestampMs } from './temporal/merge-temporal';
export { DAY_MS } from './temporal/importance-decay';
export { ancestorRecord, contentExcerpt, contentFingerprint, lineageTurnRanges, type LineageStep } from './lineage/memory-lineage';
export { type ExtractionStats, extractJsonObject } from './json/extract-json-object';
export { ABBREVIATIONS, type Abbreviation } from './text/abbreviations';
export { analyseText, NEGATION_SCOPE, normaliseTerms, type Term, type TermKind, type TextAnalysis } from './text/analyse-text';
export { INJECTION_PATTERNS } from './text/detect-injection';
export { fenceUntrusted, renderUntrustedList, type UntrustedItem } from './text/fence-untrusted';
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
