import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryLock } from './directory-lock';

const root = mkdtempSync(join(tmpdir(), 'reverie-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('DirectoryLock', () => {
  it('creates its folder when a lock finds it missing, the first time and after it was removed', async () => {
    const dir = join(root, 'a', 'b');
    const lock = new DirectoryLock(dir);
    await expect(lock.run(async () => existsSync(join(dir, '.lock')))).resolves.toBe(true);
    rmSync(join(root, 'a'), { recursive: true });
    await expect(lock.run(async () => existsSync(join(dir, '.lock')))).resolves.toBe(true);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });

  it('runs the critical sections of two holders one at a time', async () => {
    const dir = join(root, 'shared');
    const [first, second] = [new DirectoryLock(dir), new DirectoryLock(dir)];
    let inside = 0;
    let most = 0;
    const critical = async () => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside--;
    };
    await Promise.all([first.run(critical), second.run(critical), first.run(critical)]);
    expect(most).toBe(1);
  });
});
