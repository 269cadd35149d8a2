import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '@reverie/core';
import { expectOneLineError, runJson, runReverie, tempDir } from './__fixtures__/run-reverie';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.remove());

describe('reverie export and reverie import', () => {
  it('exports a scope to stdout and imports it into another, dry run first; undo takes the import back', async () => {
    const alice = ['--data', dir.dataPath, '--scope', 'alice'];
    const bob = ['--data', dir.dataPath, '--scope', 'bob'];
    await runReverie([...alice, 'memory', 'add', 'The user prefers tea', '--category', 'prefs']);
    await runReverie([...alice, 'memory', 'add', 'Deploys go out on Tuesdays']);
    const exported = await runReverie([...alice, 'export']);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'reverie-export', version: 1 });
    const file = join(dir.root, 'alice.jsonl');
    writeFileSync(file, exported.stdout);

    const dry = await runReverie([...bob, 'import', file, '--dry-run']);
    expect(dry.stdout).toMatch(/^Would import \(reverie\): memories 2 new/);
    expect(await runJson<MemoryEntry[]>([...bob, 'memory', 'list'])).toEqual([]);
    const report = await runJson<{ runId: string; memories: { created: number } }>([...bob, 'import', file, '--format', 'json']);
    expect(report.memories.created).toBe(2);
    const imported = await runJson<MemoryEntry[]>([...bob, 'memory', 'list']);
    expect(imported.map((entry) => entry.content)).toEqual(['The user prefers tea', 'Deploys go out on Tuesdays']);
    expect((await runJson<{ memories: { skipped: number } }>([...bob, 'import', file, '--format', 'json'])).memories.skipped).toBe(2);

    expect((await runReverie([...bob, 'dream', 'undo', report.runId])).code).toBe(0);
    expect(await runJson<MemoryEntry[]>([...bob, 'memory', 'list'])).toEqual([]);
  });

  it('imports a MEMORY.md, and refuses a bad file by line with nothing written', async () => {
    const data = ['--data', dir.dataPath];
    const markdown = join(dir.root, 'MEMORY.md');
    writeFileSync(markdown, '## Preferences\n- Prefers metric units\n');
    expect((await runReverie([...data, 'import', markdown])).stdout).toMatch(/^Imported \(markdown\): memories 1 new/);
    expect((await runJson<MemoryEntry[]>([...data, 'memory', 'list']))[0]).toMatchObject({ category: 'preferences' });

    const bad = join(dir.root, 'bad.jsonl');
    writeFileSync(bad, '{"type":"reverie-export","version":1,"exportedAt":"2026-01-01T00:00:00Z"}\n{oops\n');
    expectOneLineError(await runReverie([...data, 'import', bad]), 2, /Nothing was imported from bad\.jsonl: line 2: not JSON/);
    expect(await runJson<MemoryEntry[]>([...data, 'memory', 'list'])).toHaveLength(1);
    expectOneLineError(
      await runReverie([...data, 'import', join(dir.root, 'missing.jsonl')]),
      2,
      /cannot read the file to import .*missing\.jsonl \(ENOENT\)/,
    );
  });
});
