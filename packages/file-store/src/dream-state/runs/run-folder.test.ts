import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunFolder } from './run-folder';

describe('RunFolder', () => {
  let dataPath: string;
  beforeEach(async () => {
    dataPath = await mkdtemp(join(tmpdir(), 'reverie-run-folder-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dataPath, { recursive: true, force: true });
  });
  const create = () => RunFolder.create(dataPath, 'a00000000001', 'manual', new Date('2026-06-01T00:00:00Z'));

  it("archives a pass's records in one file, keeps the first pre-image when archived again, and reads one-file-per-record archives of older runs", async () => {
    const folder = await create();
    await folder.archive('merge', [
      { kind: 'memory', key: '000000000001', record: { content: 'first' } },
      { kind: 'skill', key: 'deploy', record: { summary: 'old' } },
    ]);
    // Recovery archives again what has not changed since the plan.
    await folder.archive('merge', [
      { kind: 'memory', key: '000000000001', record: { content: 'after' } },
      { kind: 'memory', key: '000000000002', record: { content: 'second' } },
    ]);
    expect(await readdir(join(folder.dir, 'archive'))).toEqual(['merge.json']);
    const reopened = (await RunFolder.open(dataPath, 'a00000000001'))!;
    expect(await reopened.readArchive('merge', 'memory', '000000000001')).toEqual({ content: 'first' });
    expect(await reopened.readArchive('merge', 'memory', '000000000002')).toEqual({ content: 'second' });
    expect(await reopened.readArchive('merge', 'skill', 'deploy')).toEqual({ summary: 'old' });
    expect(await reopened.readArchive('merge', 'memory', '000000000003')).toBeUndefined();

    await mkdir(join(folder.dir, 'archive', 'older', 'memory'), { recursive: true });
    await writeFile(join(folder.dir, 'archive', 'older', 'memory', '000000000009.json'), JSON.stringify({ content: 'older layout' }));
    expect(await reopened.readArchive('older', 'memory', '000000000009')).toEqual({ content: 'older layout' });
  });

  it('writes each artifact whole at once and flushes them together before the plan, not one by one', async () => {
    const folder = await create();
    const probe = await open(join(dataPath, 'probe'), 'w');
    const sync = vi.spyOn(Object.getPrototypeOf(probe) as { sync(): Promise<void> }, 'sync');
    await probe.close();
    for (let call = 1; call <= 20; call++) await folder.writeArtifact(`merge.${call}.prompt.md`, `prompt ${call}`);
    expect(sync).not.toHaveBeenCalled();
    expect(await readFile(join(folder.dir, 'merge.20.prompt.md'), 'utf8')).toBe('prompt 20');

    await folder.writePlan({ pass: 'merge', operations: [], notes: [], refusals: [] });
    // The 20 artifacts and their folder once; then the plan (file, folder) and the manifest (file, folder, folder).
    expect(sync).toHaveBeenCalledTimes(21 + 5);
    expect((await readdir(folder.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('puts each journal line on record as it is appended, through one open file flushed at close', async () => {
    const folder = await create();
    const journal = await folder.openJournal();
    await journal.append({ pass: 'merge', index: 0, outcome: 'applied' });
    await journal.append({ pass: 'merge', index: 1, outcome: 'conflict' });
    const reader = (await RunFolder.open(dataPath, 'a00000000001'))!;
    expect((await reader.readJournal()).map((line) => line.index)).toEqual([0, 1]);
    await journal.close();
    expect((await reader.readJournal()).map((line) => line.outcome)).toEqual(['applied', 'conflict']);
  });
});
