import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryEntrySchema } from '@reverie/core';
import { FileMemoryStore } from '../src/memory/file-memory-store';

// Real processes, not simulations: each child is one `node` process that loads the TypeScript
// sources through tsx's loader (so SIGKILL hits the writer itself), with the workspace paths of
// the root tsconfig.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
const fixture = join(here, '__fixtures__', 'save-burst.ts');
const env = { ...process.env, TSX_TSCONFIG_PATH: resolve(packageDir, '..', '..', 'tsconfig.json') };

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-processes-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

interface Child {
  saved: string[];
  done: Promise<number | null>;
  kill(): void;
  onSaved(listener: (count: number) => void): void;
}

function startBurst(dataPath: string, count: number, label: string, concurrency = 1): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dataPath, String(count), label, String(concurrency)], {
    cwd: packageDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const saved: string[] = [];
  const listeners: Array<(count: number) => void> = [];
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.startsWith('saved ')) {
        saved.push(line.slice(6));
        for (const listener of listeners) listener(saved.length);
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<number | null>((resolveDone, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL') reject(new Error(`child exited with ${code ?? signal}: ${stderr}`));
      else resolveDone(code);
    });
  });
  return { saved, done, kill: () => child.kill('SIGKILL'), onSaved: (listener) => listeners.push(listener) };
}

function everyJsonFile(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('FileMemoryStore across processes', () => {
  it('keeps every save that returned before a SIGKILL, and every file on disk is valid', async () => {
    for (const killAfter of [5, 40, 120]) {
      const dir = join(dataPath, `kill-${killAfter}`);
      const child = startBurst(dir, 10_000, `kill${killAfter}`, 4);
      await new Promise<void>((resolveKilled) => {
        child.onSaved((count) => {
          if (count === killAfter) {
            child.kill();
            resolveKilled();
          }
        });
      });
      await child.done;
      const confirmed = [...child.saved];
      expect(confirmed.length).toBeGreaterThanOrEqual(killAfter);

      for (const file of everyJsonFile(join(dir, 'memory')).filter((f) => !f.includes('.quarantine'))) {
        expect(() => memoryEntrySchema.parse(JSON.parse(readFileSync(file, 'utf8'))), file).not.toThrow();
      }
      const reopened = new FileMemoryStore({ dataPath: dir });
      const ids = new Set((await reopened.list()).map((entry) => entry.id));
      for (const id of confirmed) expect(ids.has(id), `saved ${id} before the kill`).toBe(true);
      // The lock left by the killed writer must not block a new writer for long.
      await reopened.save({ content: 'written after the crash' });
      await reopened.close();
    }
  }, 120_000);

  it('loses nothing when two processes save 500 entries each into one data directory', async () => {
    const a = startBurst(dataPath, 500, 'alpha', 4);
    const b = startBurst(dataPath, 500, 'beta', 4);
    await Promise.all([a.done, b.done]);
    expect(a.saved).toHaveLength(500);
    expect(b.saved).toHaveLength(500);
    const store = new FileMemoryStore({ dataPath });
    const entries = await store.list();
    expect(entries).toHaveLength(1000);
    expect(new Set(entries.map((e) => e.id))).toEqual(new Set([...a.saved, ...b.saved]));
    expect(await store.search({ text: 'alpha-499' })).not.toHaveLength(0);
    await store.close();
  }, 120_000);
});
