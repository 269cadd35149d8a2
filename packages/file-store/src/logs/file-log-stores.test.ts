import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import {
  describeConversationLogConformance,
  describeFeedbackStoreConformance,
  describeSkillUsageStoreConformance,
  describeWorkflowLogConformance,
} from '@reverie/core/testing';
import { FileConversationLog } from './file-conversation-log';
import { FileFeedbackStore } from './file-feedback-store';
import { FileSkillUsageStore } from './file-skill-usage-store';
import { FileWorkflowLog } from './file-workflow-log';

const root = mkdtempSync(join(tmpdir(), 'reverie-logs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const options = {
  persistent: true,
  cleanup: (scope: string) => rmSync(join(root, scope), { recursive: true, force: true }),
};

describeConversationLogConformance(
  'FileConversationLog',
  ({ clock, scope }) => new FileConversationLog({ dataPath: join(root, scope), clock }),
  options,
);
describeFeedbackStoreConformance(
  'FileFeedbackStore',
  ({ clock, scope }) => new FileFeedbackStore({ dataPath: join(root, scope), clock }),
  options,
);
describeSkillUsageStoreConformance(
  'FileSkillUsageStore',
  ({ clock, scope }) => new FileSkillUsageStore({ dataPath: join(root, scope), clock }),
  options,
);
describeWorkflowLogConformance(
  'FileWorkflowLog',
  ({ clock, scope }) => new FileWorkflowLog({ dataPath: join(root, scope), clock }),
  options,
);
