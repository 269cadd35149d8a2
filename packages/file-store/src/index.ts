export { FileMemoryStore, type FileMemoryStoreOptions } from './memory/file-memory-store';
export { FileSkillStore, type FileSkillStoreOptions } from './skills/file-skill-store';
export { FileSkillUsageStore, type FileSkillUsageStoreOptions } from './logs/file-skill-usage-store';
export { FileFeedbackStore, type FileFeedbackStoreOptions } from './logs/file-feedback-store';
export { FileConversationLog, type FileConversationLogOptions } from './logs/file-conversation-log';
export { FileWorkflowLog, type FileWorkflowLogOptions } from './logs/file-workflow-log';
export {
  DEFAULT_WORKING_MEMORY_SWEEP_INTERVAL_MS,
  FileWorkingMemory,
  type FileWorkingMemoryOptions,
} from './working-memory/file-working-memory';
export { aiSdkEmbedder, type AiSdkEmbedderOptions } from './embeddings/ai-sdk-embedder';
export { DEFAULT_STALE_LOCK_MINUTES } from './dream-state/lock/dream-lock';
export { FileDreamStateStore, type FileDreamStateStoreOptions } from './dream-state/file-dream-state-store';
export type { VectorSearchOptions } from './embeddings/vector-search-options';
