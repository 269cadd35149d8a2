import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeLongTermMemoryConformance } from '@reverie/core/testing';
import { FileMemoryStore } from './file-memory-store';

const root = mkdtempSync(join(tmpdir(), 'reverie-memory-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeLongTermMemoryConformance('FileMemoryStore', ({ clock, scope }) => new FileMemoryStore({ dataPath: join(root, scope), clock }), {
  persistent: true,
  changeFeed: true,
  tiers: true,
  cleanup: (scope) => rmSync(join(root, scope), { recursive: true, force: true }),
});
