import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '@reverie/core';
import { quarantineFile } from './quarantine';

/** SPEC M2, B2: quarantined copies never overwrite each other. */
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'reverie-quarantine-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const NOW = new Date('2026-03-01T09:00:00.000Z');
const put = (relative: string, text: string) => {
  const file = join(root, ...relative.split('/'));
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
};
const quarantined = (): string[] =>
  (
    readdirSync(join(root, '.quarantine'), { recursive: true, withFileTypes: true }) as Array<{
      isFile(): boolean;
      parentPath: string;
      name: string;
    }>
  )
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .sort();

describe('quarantineFile', () => {
  it('keeps every copy of one path quarantined within the same millisecond', async () => {
    for (let i = 0; i < 20; i++) {
      const file = put('session.json', `corrupt ${i}`);
      await quarantineFile(file, root, join(root, '.quarantine'), 'test', silentLogger, NOW);
    }
    expect(quarantined()).toHaveLength(20);
  });

  it('never maps two different paths to one name (a__b/x.json and a/b/x.json)', async () => {
    for (let trial = 0; trial < 20; trial++) {
      const first = put(`a__b/${trial}.json`, `flat ${trial}`);
      const second = put(`a/b/${trial}.json`, `nested ${trial}`);
      await quarantineFile(first, root, join(root, '.quarantine'), 'test', silentLogger, NOW);
      await quarantineFile(second, root, join(root, '.quarantine'), 'test', silentLogger, NOW);
    }
    const copies = quarantined();
    expect(copies).toHaveLength(40);
    expect(new Set(copies).size).toBe(40);
  });
});
