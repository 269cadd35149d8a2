import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReverieError } from '@reverie/core';
import { loadDirective } from './directives';

const BUILT_IN = 'Built-in: consolidate the memory entries and reply with JSON.';

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-directives-'));
});
afterEach(() => {
  rmSync(dataPath, { recursive: true, force: true });
});

describe('loadDirective', () => {
  it('uses the built-in text when the file is absent', async () => {
    await expect(loadDirective(dataPath, 'dream.md', BUILT_IN)).resolves.toEqual({ text: BUILT_IN, source: 'built-in' });
  });

  it('uses the whole file, replacing the built-in text', async () => {
    const text = '# My dream\n\nMerge only exact duplicates.\nReply with {"toDelete": [], "toSave": []}.\n';
    writeFileSync(join(dataPath, 'dream.md'), text);
    await expect(loadDirective(dataPath, 'dream.md', BUILT_IN)).resolves.toEqual({ text, source: 'file' });
  });

  it('reads the file named for the pass only', async () => {
    writeFileSync(join(dataPath, 'skill-gap.md'), 'skill gap directive');
    await expect(loadDirective(dataPath, 'dream.md', BUILT_IN)).resolves.toMatchObject({ source: 'built-in' });
    await expect(loadDirective(dataPath, 'skill-gap.md', BUILT_IN)).resolves.toEqual({ text: 'skill gap directive', source: 'file' });
  });

  it('treats an empty or whitespace-only file as absent', async () => {
    writeFileSync(join(dataPath, 'dream.md'), '');
    await expect(loadDirective(dataPath, 'dream.md', BUILT_IN)).resolves.toEqual({ text: BUILT_IN, source: 'built-in' });
    writeFileSync(join(dataPath, 'dream.md'), ' \n\t\n');
    await expect(loadDirective(dataPath, 'dream.md', BUILT_IN)).resolves.toEqual({ text: BUILT_IN, source: 'built-in' });
  });

  it('uses the built-in text when the data directory does not exist yet', async () => {
    await expect(loadDirective(join(dataPath, 'missing'), 'dream.md', BUILT_IN)).resolves.toMatchObject({ source: 'built-in' });
  });

  it('throws IO_ERROR naming the file when it exists but cannot be read', async () => {
    mkdirSync(join(dataPath, 'dream.md'));
    const error = await loadDirective(dataPath, 'dream.md', BUILT_IN).catch((e: unknown) => e);
    expect(isReverieError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain(join(dataPath, 'dream.md'));
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('throws IO_ERROR for a file without read permission', async () => {
    const path = join(dataPath, 'dream.md');
    writeFileSync(path, 'secret directive');
    chmodSync(path, 0o000);
    const error = await loadDirective(dataPath, 'dream.md', BUILT_IN).catch((e: unknown) => e);
    expect(isReverieError(error, 'IO_ERROR')).toBe(true);
    expect((error as Error).message).toContain(path);
  });

  it.each(['../dream.md', 'sub/dream.md', 'sub\\dream.md', '/etc/dream.md', 'dream.txt', 'dream', '.md', 'a..b.md', '', 'dream.md\n'])(
    'rejects %j as a directive file name with INVALID_OPTIONS, reading nothing',
    async (name) => {
      const error = await loadDirective(dataPath, name, BUILT_IN).catch((e: unknown) => e);
      expect(isReverieError(error, 'INVALID_OPTIONS')).toBe(true);
    },
  );
});
