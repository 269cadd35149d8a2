import { describe, expect, it } from 'vitest';
import { describeServiceNeeds } from './service-needs';

describe('describeServiceNeeds', () => {
  it('names each missing service by the builder call that adds it', () => {
    expect(describeServiceNeeds(['skills', 'skillUsage'])).toBe(
      'needs a skill store (.withSkills()) and a skill usage store (.withSkills())',
    );
    expect(describeServiceNeeds(['conversationLog'])).toBe('needs a conversation log (.withConversationLog())');
    expect(describeServiceNeeds(['memory', 'feedback', 'workflowLog'])).toBe(
      'needs long-term memory (.withMemory()) and a feedback store (.withFeedback()) and a workflow log (.withWorkflowLog())',
    );
  });
});
