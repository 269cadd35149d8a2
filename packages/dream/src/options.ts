// `@reverie/dream/options`: the passes' option schemas and what each pass needs, which a host
// validates when it is built (synchronously, so they cannot wait for an import). Nothing here
// loads a pass, the engine or the model gateway: `reverie` imports this entry statically and the
// package's main entry (`@reverie/dream`) when a cycle first runs (docs/architecture.md, "What
// loads lazily"). A pass's option schema lives in the pass's `*-options.ts`, never in the pass.
export { promotionOptionsSchema, recallSignalsOptionsSchema } from './recall/recall-options';
export { importanceDecayOptionsSchema } from './passes/importance-decay/importance-decay-options';
export { archiveRetentionOptionsSchema } from './passes/archive-retention/archive-retention-options';
export { memoryConsolidationOptionsSchema } from './passes/memory-consolidation/memory-consolidation-options';
export { episodeExtractionOptionsSchema } from './passes/episode-extraction/episode-extraction-options';
export { skillGapOptionsSchema } from './passes/skill-gap/skill-gap-options';
export { skillOptimizationOptionsSchema } from './passes/skill-optimization/skill-optimization-options';
export { preferenceInferenceOptionsSchema } from './passes/preference-inference/preference-inference-options';
export { workflowFailureAnalysisOptionsSchema } from './passes/workflow-failure-analysis/workflow-failure-analysis-options';
export { skillConsolidationOptionsSchema } from './passes/skill-consolidation/skill-consolidation-options';
export { TIER_THRESHOLDS_ISSUE, tierMigrationOptionsSchema, tierThresholdsHold } from './tiers/tier-options';
export { describeServiceNeeds } from './engine/service-needs';
export type { ServiceName } from './engine/pass-declaration';
export { BUILT_IN_PASSES } from './passes/built-in-pass-declarations';
export { DREAM_PHASES, type DreamPhase, type PassDeclaration, SERVICE_NAMES } from './engine/pass-declaration';
