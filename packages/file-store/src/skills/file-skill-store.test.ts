import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeSkillStoreConformance } from '@reverie/core/testing';
import { FileSkillStore } from './file-skill-store';

const root = mkdtempSync(join(tmpdir(), 'reverie-skills-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeSkillStoreConformance('FileSkillStore', ({ clock, scope }) => new FileSkillStore({ dataPath: join(root, scope), clock }), {
  persistent: true,
  cleanup: (scope) => rmSync(join(root, scope), { recursive: true, force: true }),
});
