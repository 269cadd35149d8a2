import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryEntrySchema } from '@reverie/core';
import { decodeSnapshot } from '../src/fs/snapshot-file';
import { FileMemoryStore } from '../src/memory/file-memory-store';

// Real processes, not simulations: each child is one `node` process that loads the TypeScript
// sources through tsx's loader (so SIGKILL hits the writer itself), with the workspace paths of
// the root tsconfig.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
const fixture = join(here, '__fixtures__', 'save-burst.ts');
const snapshotCloser = join(here, '__fixtures__', 'snapshot-close.ts');
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
  return startChild([fixture, dataPath, String(count), label, String(concurrency)]);
}

function startChild(args: string[]): Child & { onLine(line: string, listener: () => void): void } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: packageDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const saved: string[] = [];
  const listeners: Array<(count: number) => void> = [];
  const lineListeners: Array<[string, () => void]> = [];
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
      for (const [wanted, listener] of lineListeners) if (line === wanted) listener();
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
  return {
    saved,
    done,
    kill: () => child.kill('SIGKILL'),
    onSaved: (listener) => listeners.push(listener),
    onLine: (line, listener) => lineListeners.push([line, listener]),
  };
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

  it('keeps the old snapshot or a whole new one when a process is killed while writing it, and never serves stale entries', async () => {
    // A directory as an existing agent's would hold it, opened once so a snapshot exists.
    for (let i = 0; i < 3000; i++) {
      const id = i.toString(16).padStart(12, '0');
      const at = '2026-03-01T12:00:00.000Z';
      mkdirSync(join(dataPath, 'memory', `c${i % 5}`), { recursive: true });
      const entry = {
        id,
        content: `Observation ${i} about the build server, batch b${i % 13}`,
        category: `c${i % 5}`,
        tags: [],
        createdAt: at,
        updatedAt: at,
        lastSeenAt: at,
        reinforcementCount: 1,
        importance: 0.5,
        metadata: {},
      };
      writeFileSync(join(dataPath, 'memory', `c${i % 5}`, `${id}.json`), JSON.stringify(entry));
    }
    const first = new FileMemoryStore({ dataPath });
    await first.search({ text: 'b7' });
    await first.close();
    const snapshot = join(dataPath, 'memory', '.snapshot.bin');
    const queries = ['zeppelin hangar', 'b7', 'b12 b3'];
    // Every hit, ties by id: equal scores have no defined order between two opens.
    const ranked = async (memory: FileMemoryStore) =>
      Promise.all(
        queries.map(async (text) =>
          (await memory.search({ text, maxResults: 1000 }))
            .map((hit): [string, number] => [hit.entry.id, hit.score])
            .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
        ),
      );
    for (const delayMs of [0, 5, 20, 60]) {
      const before = readFileSync(snapshot);
      const child = startChild([snapshotCloser, dataPath]);
      child.onLine('closing', () => setTimeout(() => child.kill(), delayMs));
      await child.done;
      expect(child.saved).toHaveLength(1);
      if (existsSync(snapshot)) {
        const after = readFileSync(snapshot);
        expect(
          after.equals(before) || decodeSnapshot(after) !== undefined,
          `a whole snapshot after a kill ${delayMs} ms into the close`,
        ).toBe(true);
      }
      const reopened = new FileMemoryStore({ dataPath });
      expect(await reopened.get(child.saved[0]!)).toBeDefined();
      const answered = await ranked(reopened);
      await reopened.close();
      const kept = readFileSync(snapshot);
      rmSync(snapshot);
      const scan = new FileMemoryStore({ dataPath });
      expect(answered).toEqual(await ranked(scan));
      await scan.close();
      writeFileSync(snapshot, kept);
    }
  }, 120_000);
});
