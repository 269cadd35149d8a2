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
export { fsyncDirectory, syncFiles, writeFileAtomic, writeFileAtomicUnsynced } from './fs/atomic-write';
export { DirectoryLock, type DirectoryLockOptions } from './fs/directory-lock';
export type { VectorSearchOptions } from './embeddings/vector-search-options';
