import { changeFeedsMigration } from './001-change-feeds';
import { longTermMemoryMigration } from './002-long-term-memory';
import { skillsMigration } from './003-skills';
import { skillUsageMigration } from './004-skill-usage';
import { conversationLogMigration } from './005-conversation-log';
import { feedbackMigration } from './006-feedback';
import { workflowLogMigration } from './007-workflow-log';
import { workingMemoryMigration } from './008-working-memory';
import { dreamStateMigration } from './009-dream-state';
import { memoryValidityMigration } from './010-memory-validity';
import { stemmedSearchTermsMigration } from './011-stemmed-search-terms';
import { memoryLineageMigration } from './012-memory-lineage';
import { skillAndWorkingMemoryEmbeddingsMigration } from './013-skill-and-working-memory-embeddings';
import { memoryPassagesMigration } from './014-memory-passages';
import { memoryTiersMigration } from './015-memory-tiers';
import { memoryLabelLengthMigration } from './016-memory-label-length';
import type { PostgresMigration } from './postgres-migration';

/** Every migration this version of the library knows, in order: versions 1, 2, 3… */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = Object.freeze([
  changeFeedsMigration,
  longTermMemoryMigration,
  skillsMigration,
  skillUsageMigration,
  conversationLogMigration,
  feedbackMigration,
  workflowLogMigration,
  workingMemoryMigration,
  dreamStateMigration,
  memoryValidityMigration,
  stemmedSearchTermsMigration,
  memoryLineageMigration,
  skillAndWorkingMemoryEmbeddingsMigration,
  memoryPassagesMigration,
  memoryTiersMigration,
  memoryLabelLengthMigration,
]);
