export { DreamEngine, type RunRequest } from './engine/dream-engine';
export type {
  CycleReport,
  DreamOperation,
  DreamPass,
  DreamPhase,
  DreamServices,
  GatewayRequest,
  ModelGatewayLike,
  PassContext,
  PassOutcome,
  PassPlan,
  PassSkip,
  ServiceName,
  UserActivity,
} from './engine/dream-types';
export type { UndoReport } from './engine/undo-run';
export { renderCycleSummary } from './engine/render-cycle-summary';
export { RunFolder, type RunManifest, type RunStatus } from './runs/run-folder';
export { cursorsDir, dreamsDir, failuresDir, runsDir } from './runs/run-paths';
export { PassCursor } from './cursors/pass-cursor';
export { fenceUntrusted, renderUntrustedList, type UntrustedItem } from './gateway/fence';
export { loadDirective, type LoadedDirective } from './gateway/directives';
export { ModelGateway, type ModelGatewayOptions } from './gateway/model-gateway';
export {
  DEFAULT_ACTIVITY_POLL_MS,
  DreamScheduler,
  type DreamSchedulerOptions,
  type SchedulerTimers,
} from './scheduler/dream-scheduler';
export { ImportanceDecayPass, type ImportanceDecayOptions, importanceDecayOptionsSchema } from './passes/importance-decay/importance-decay-pass';
export { ArchiveRetentionPass, archiveRetentionOptionsSchema } from './passes/archive-retention/archive-retention-pass';
export { MemoryConsolidationPass } from './passes/memory-consolidation/memory-consolidation-pass';
export {
  type MemoryConsolidationOptions,
  type MemoryConsolidationOptionsInput,
  memoryConsolidationOptionsSchema,
} from './passes/memory-consolidation/memory-consolidation-options';
export { type EpisodeCursor, episodeCursorSchema, EpisodeExtractionPass } from './passes/episode-extraction/episode-extraction-pass';
export {
  type EpisodeExtractionOptions,
  type EpisodeExtractionOptionsInput,
  episodeExtractionOptionsSchema,
} from './passes/episode-extraction/episode-extraction-options';
