import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockPath } from '@reverie/file-store/internal';

// Real processes: each contender is one `node` process running the TypeScript sources through
// tsx's loader, with the workspace paths of the root tsconfig.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '..');
const fixture = join(here, '__fixtures__', 'lock-contender.ts');
const env = { ...process.env, TSX_TSCONFIG_PATH: resolve(packageDir, '..', '..', 'tsconfig.json') };

let dataPath: string;
beforeEach(() => {
  dataPath = mkdtempSync(join(tmpdir(), 'reverie-lock-processes-'));
});
afterEach(() => rmSync(dataPath, { recursive: true, force: true }));

interface Contender {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  waitFor(predicate: (line: string) => boolean): Promise<string>;
  exited: Promise<number | null>;
}

function contender(label: string): Contender {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dataPath, label], { cwd: packageDir, env });
  const lines: string[] = [];
  const waiters: Array<{ predicate: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.predicate(line))) waiter.resolve(line);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolveExit(code) : reject(new Error(`contender ${label} exited with ${code}: ${stderr}`))));
  });
  return {
    child,
    lines,
    exited,
    waitFor: (predicate) => {
      const seen = lines.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolveLine, reject) => {
        waiters.push({ predicate, resolve: resolveLine });
        exited.catch(reject);
      });
    },
  };
}

async function race(labels: string[]): Promise<string[]> {
  const contenders = labels.map(contender);
  await Promise.all(contenders.map((c) => c.waitFor((line) => line === 'ready')));
  for (const c of contenders) c.child.stdin.write('go\n');
  const outcomes = await Promise.all(contenders.map((c) => c.waitFor((line) => line === 'acquired' || line.startsWith('held'))));
  for (const c of contenders) c.child.stdin.end();
  await Promise.all(contenders.map((c) => c.exited));
  return outcomes;
}

describe('the dream lock across processes (SPEC O3)', () => {
  it('lets exactly one of two processes racing for a free lock acquire it', async () => {
    const outcomes = await race(['a', 'b']);
    expect(outcomes.filter((o) => o === 'acquired')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'held LOCK_HELD')).toHaveLength(1);
    expect(existsSync(lockPath(dataPath))).toBe(false);
  }, 60_000);

  it('lets exactly one of three processes take over a stale lock', async () => {
    mkdirSync(dirname(lockPath(dataPath)), { recursive: true });
    // Its holder ran on this host and has exited: provably gone (another host's lock needs a watched heartbeat).
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      lockPath(dataPath),
      JSON.stringify({ pid: gone, host: hostname(), acquiredAt: '2020-01-01T00:00:00.000Z', token: 'ancient' }),
    );
    const outcomes = await race(['a', 'b', 'c']);
    expect(outcomes.filter((o) => o === 'acquired')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'held LOCK_HELD')).toHaveLength(2);
    expect(existsSync(lockPath(dataPath))).toBe(false);
  }, 60_000);
});
