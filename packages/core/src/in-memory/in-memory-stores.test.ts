import {
  describeConversationLogConformance,
  describeFeedbackStoreConformance,
  describeLongTermMemoryConformance,
  describeSkillStoreConformance,
  describeSkillUsageStoreConformance,
  describeWorkflowLogConformance,
  describeWorkingMemoryConformance,
} from '../testing/index';
import { InMemoryConversationLog } from './in-memory-conversation-log';
import { InMemoryFeedbackStore } from './in-memory-feedback-store';
import { InMemoryLongTermMemory } from './in-memory-long-term-memory';
import { InMemorySkillStore } from './in-memory-skill-store';
import { InMemorySkillUsageStore } from './in-memory-skill-usage-store';
import { InMemoryWorkflowLog } from './in-memory-workflow-log';
import { InMemoryWorkingMemory } from './in-memory-working-memory';

describeLongTermMemoryConformance('InMemoryLongTermMemory', ({ clock }) => new InMemoryLongTermMemory({ clock }), { changeFeed: true });
describeWorkingMemoryConformance('InMemoryWorkingMemory', ({ clock }) => new InMemoryWorkingMemory({ clock }));
describeSkillStoreConformance('InMemorySkillStore', ({ clock }) => new InMemorySkillStore({ clock }));
describeSkillUsageStoreConformance('InMemorySkillUsageStore', ({ clock }) => new InMemorySkillUsageStore({ clock }));
describeFeedbackStoreConformance('InMemoryFeedbackStore', ({ clock }) => new InMemoryFeedbackStore({ clock }));
describeConversationLogConformance('InMemoryConversationLog', ({ clock }) => new InMemoryConversationLog({ clock }));
describeWorkflowLogConformance('InMemoryWorkflowLog', ({ clock }) => new InMemoryWorkflowLog({ clock }));
