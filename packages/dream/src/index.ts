export { DreamEngine, type DreamEngineOptions } from './engine/dream-engine';
export type { DreamTracing } from './engine/dream-tracing';
export { type ApplyRequest, DREAM_PHASES, type RunRequest } from './engine/run-request';
export { DeclaredPass } from './engine/declared-pass';
export { BUILT_IN_PASSES } from './passes/built-in-pass-declarations';
export { type PassDeclaration, SERVICE_NAMES } from './engine/pass-declaration';
export { DEFAULT_PLAN_MAX_AGE_MS, type PlanSummary } from './engine/apply-plan';
export type { HostOperations } from './engine/apply-host-operations';
export type {
  CycleReport,
  DreamPass,
  DreamPhase,
  DreamServices,
  ForgottenFactCheck,
  GatewayRequest,
  ModelGatewayLike,
  PassContext,
  PassOutcome,
  RanPassOutcome,
  PassPlan,
  PassSkip,
  ServiceName,
  UserActivity,
} from './engine/dream-types';
export { describeServiceNeeds } from './engine/service-needs';
export type { UndoReport } from './engine/undo-run';
export type { RunDetails, RunSummary } from './runs/run-details';
export type { RecordChange, RecordHistoryItem, RecordKey } from './runs/run-changes';
export { ImportanceDecayPass } from './passes/importance-decay/importance-decay-pass';
export {
  type ImportanceDecayOptions,
  type ImportanceDecayOptionsInput,
  importanceDecayOptionsSchema,
} from './passes/importance-decay/importance-decay-options';
export { ArchiveRetentionPass } from './passes/archive-retention/archive-retention-pass';
export { archiveRetentionOptionsSchema } from './passes/archive-retention/archive-retention-options';
export { MemoryConsolidationPass } from './passes/memory-consolidation/memory-consolidation-pass';
export {
  type MemoryConsolidationOptions,
  type MemoryConsolidationOptionsInput,
  memoryConsolidationOptionsSchema,
} from './passes/memory-consolidation/memory-consolidation-options';
export { EpisodeExtractionPass } from './passes/episode-extraction/episode-extraction-pass';
export {
  type EpisodeExtractionOptions,
  type EpisodeExtractionOptionsInput,
  episodeExtractionOptionsSchema,
} from './passes/episode-extraction/episode-extraction-options';
export { SkillGapPass } from './passes/skill-gap/skill-gap-pass';
export { type SkillGapOptions, type SkillGapOptionsInput, skillGapOptionsSchema } from './passes/skill-gap/skill-gap-options';
export { SkillOptimizationPass } from './passes/skill-optimization/skill-optimization-pass';
export {
  type SkillOptimizationOptions,
  type SkillOptimizationOptionsInput,
  skillOptimizationOptionsSchema,
} from './passes/skill-optimization/skill-optimization-options';
export { PreferenceInferencePass } from './passes/preference-inference/preference-inference-pass';
export {
  type PreferenceInferenceOptions,
  type PreferenceInferenceOptionsInput,
  preferenceInferenceOptionsSchema,
} from './passes/preference-inference/preference-inference-options';
export { type PromotionCandidate, WorkflowFailureAnalysisPass } from './passes/workflow-failure-analysis/workflow-failure-analysis-pass';
export {
  type WorkflowFailureAnalysisOptions,
  type WorkflowFailureAnalysisOptionsInput,
  workflowFailureAnalysisOptionsSchema,
} from './passes/workflow-failure-analysis/workflow-failure-analysis-options';
export { SkillConsolidationPass } from './passes/skill-consolidation/skill-consolidation-pass';
export {
  type SkillConsolidationOptions,
  type SkillConsolidationOptionsInput,
  skillConsolidationOptionsSchema,
} from './passes/skill-consolidation/skill-consolidation-options';
export {
  type PromotionOptions,
  type PromotionOptionsInput,
  promotionOptionsSchema,
  type RecallSignalsOptions,
  type RecallSignalsOptionsInput,
  recallSignalsOptionsSchema,
} from './recall/recall-options';
export { RecallSignalsPass } from './recall/recall-signals-pass';
export { PromotionPass } from './recall/promotion-pass';
export { type TierMove, TierMigrationPass } from './tiers/tier-migration-pass';
export { type TierMigrationOptions, type TierMigrationOptionsInput, tierMigrationOptionsSchema } from './tiers/tier-options';
export { type ValueFacts, type ValueRule, type ValueScore, valueScore } from './tiers/value-score';
export { explainValue, type ValueExplanation, valueFactsOf, verdictOf } from './tiers/entry-value';
export type { TierNeighbour, TierReport } from './tiers/tier-report';
export type { PromotionExplanation } from './recall/explain-promotion';
