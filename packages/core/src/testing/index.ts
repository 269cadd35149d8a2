// The store conformance kit (SPEC B5) and test doubles. Needs vitest as a peer dependency.
export {
  CONFORMANCE_START,
  type ConformanceContext,
  type ConformanceOptions,
  DAY,
  HOSTILE_PATHS,
  HOUR,
  MINUTE,
  type StoreFactory,
} from './conformance-context';
export { describeLongTermMemoryConformance } from './long-term-memory-conformance';
export { describeWorkingMemoryConformance } from './working-memory-conformance';
export { describeSkillStoreConformance } from './skill-store-conformance';
export { describeSkillUsageStoreConformance } from './skill-usage-store-conformance';
export { describeFeedbackStoreConformance } from './feedback-store-conformance';
export { describeConversationLogConformance } from './conversation-log-conformance';
export { describeWorkflowLogConformance } from './workflow-log-conformance';
export { createFakeEmbedder, type FakeEmbedder, type FakeEmbedderOptions } from './fake-embedder';
export { type FileSystemFaultRule, type FileSystemFaults, injectFileSystemFaults } from './file-system-faults';
export { INHERITED_NAMES, NAME_WORDS, STORABLE_FRAGMENTS, storedOrRefused, UNSTORABLE_FRAGMENTS, userTexts } from './user-text-corpus';
