import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic, writeFileAtomicUnsynced } from './atomic-write';

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, mkdir: vi.fn(actual.mkdir) };
});

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reverie-atomic-write-'));
    vi.mocked(fs.mkdir).mockClear();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a missing directory (and its parents) for the file', async () => {
    const path = join(dir, 'a', 'b', 'note.json');
    await writeFileAtomic(path, '{"v":1}');
    expect(await readFile(path, 'utf8')).toBe('{"v":1}');
    await writeFileAtomicUnsynced(join(dir, 'c', 'prompt.md'), 'hello');
    expect(await readFile(join(dir, 'c', 'prompt.md'), 'utf8')).toBe('hello');
  });

  it('asks for the directory only when it is missing: writes into an existing one make no mkdir call', async () => {
    for (let n = 0; n < 10; n++) await writeFileAtomicUnsynced(join(dir, `artifact.${n}.md`), `artifact ${n}`);
    await writeFileAtomic(join(dir, 'plan.json'), '{}');
    expect(fs.mkdir).not.toHaveBeenCalled();
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await writeFileAtomic(join(dir, 'missing', 'plan.json'), '{}');
    expect(fs.mkdir).toHaveBeenCalledTimes(1);
  });
});
