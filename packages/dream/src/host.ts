// `@reverie/dream/host`: what a host process needs before its first dream cycle — the options
// schemas (validated when the host is built), the recall recorder (on every turn), the scheduler,
// the trigger and its gates, the status. Nothing here loads a pass, the engine or the model gateway: `reverie` imports this entry statically and the package's main
// entry (`@reverie/dream`) when a cycle first runs (docs/architecture.md, "What loads lazily").
export {
  type DreamGateOptions,
  type DreamGateOptionsInput,
  dreamGateOptionsSchema,
  type SignalGateOptions,
  signalGateOptionsSchema,
} from './gates/gate-options';
export type { SignalSource } from './gates/signal-source';
export { DreamTrigger, type DreamTriggerOptions, type TriggerableEngine } from './gates/dream-trigger';
export { readDreamStatus } from './ledger/read-dream-status';
export { renderDreamStatus } from './ledger/render-dream-status';
export { DreamScheduler } from './scheduler/dream-scheduler';
export { RecallEventLog, type RecallRecorder } from './recall/recall-events';
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
export { describeServiceNeeds } from './engine/service-needs';
export type { ServiceName } from './engine/dream-types';
export { fenceUntrusted } from './gateway/fence';
