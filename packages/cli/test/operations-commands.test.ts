import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DreamStatus, PromotionExplanation } from 'reverie';
import { failuresDir, lockPath } from '@reverie/file-store/internal';
import { FileConversationLog, FileMemoryStore } from '@reverie/file-store';
import { startFakeChatServer, startOverloadedThenExtractingServer } from './__fixtures__/fake-chat-server';
import { expectOneLineError, runJson, runReverie, tempDir } from './__fixtures__/run-reverie';

let dir: ReturnType<typeof tempDir>;
let data: string[];
beforeEach(() => {
  dir = tempDir();
  data = ['--data', dir.dataPath];
});
afterEach(() => dir.remove());

const today = new Date().toISOString().slice(0, 10);

async function seed(): Promise<string> {
  const memory = new FileMemoryStore({ dataPath: dir.dataPath });
  await memory.save({ content: 'The user prefers dark mode in every editor', category: 'preferences' });
  await memory.save({ content: 'The user prefers dark mode in every editor', category: 'preferences' });
  const { id } = await memory.save({ content: 'The team deploys on Tuesdays', category: 'work' });
  await memory.close();
  const log = new FileConversationLog({ dataPath: dir.dataPath });
  await log.append({ sessionId: 's1', role: 'user', content: 'I adopted a cat today, her name is Miso.' });
  await log.close();
  return id;
}

describe('reverie dream status', () => {
  it('aggregates the ledger per phase after a run, as text, JSON and markdown', async () => {
    await seed();
    expect((await runReverie([...data, 'dream', 'run'])).code).toBe(0);
    const status = await runJson<DreamStatus>([...data, 'dream', 'status', '--window-hours', '48']);
    expect(status.windowHours).toBe(48);
    expect(status.phases.map((phase) => phase.phase)).toEqual(['light-sleep', 'rem', 'deep-sleep']);
    expect(status.phases.find((phase) => phase.phase === 'rem')).toMatchObject({ runs: 1, applied: 3 });
    expect(status.lock).toEqual({ status: 'free' });
    expect((await runReverie([...data, 'dream', 'status'])).stdout).toMatch(/^Dream status, last 24 h/);
    expect((await runReverie([...data, 'dream', 'status', '--format', 'markdown'])).stdout).toMatch(/\| phase \|/);
    expectOneLineError(await runReverie([...data, 'dream', 'status', '--window-hours', 'soon']), 2, /window-hours/);
  });
});

describe('reverie dream retry', () => {
  it('re-runs the failed passes of a run; the dead letter goes once they succeed', async () => {
    await seed();
    const server = await startOverloadedThenExtractingServer(today);
    try {
      const env = { REVERIE_MODEL: `${server.url}#test-model` };
      const first = await runReverie([...data, 'dream', 'run', '--pass', 'episode-extraction', '--format', 'json'], { env });
      expect(first.code).toBe(1);
      const runId = (JSON.parse(first.stdout) as { runId: string }).runId;
      expect(readdirSync(failuresDir(dir.dataPath))).toEqual([`${runId}.json`]);

      server.recover();
      const retried = await runReverie([...data, 'dream', 'retry', runId, '--format', 'json'], { env });
      expect(retried.code, retried.stderr).toBe(0);
      expect((JSON.parse(retried.stdout) as { passes: Array<{ name: string; status: string }> }).passes).toEqual([
        expect.objectContaining({ name: 'episode-extraction', status: 'ok' }),
      ]);
      expect(readdirSync(failuresDir(dir.dataPath))).toEqual([]);
      expectOneLineError(await runReverie([...data, 'dream', 'retry', runId], { env }), 4, /dead letter|nothing to retry|not/i);
    } finally {
      await server.close();
    }
    expectOneLineError(await runReverie([...data, 'dream', 'retry', 'abcdef012345']), 4, /abcdef012345/);
    expectOneLineError(await runReverie([...data, 'dream', 'retry']), 2, /runId/);
  });
});

describe('reverie memory explain', () => {
  it('says why an entry was or was not promoted, and 4 for an unknown id', async () => {
    const id = await seed();
    const explained = await runJson<PromotionExplanation>([...data, 'memory', 'explain', id]);
    expect(explained).toMatchObject({ entryId: id, status: 'no-recalls', hits: 0 });
    expect((await runReverie([...data, 'memory', 'explain', id])).stdout).toContain(`${id}: no-recalls`);
    expectOneLineError(await runReverie([...data, 'memory', 'explain', 'abcdef012345']), 4, /no memory entry has the id abcdef012345/);
  });
});

describe('the dream lock across processes', () => {
  it('lets one of two simultaneous `reverie dream run` work; the other exits 5 naming the holder', async () => {
    await seed();
    const server = await startFakeChatServer(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return { content: JSON.stringify({ episodes: [] }) };
    });
    try {
      const env = { REVERIE_MODEL: `${server.url}#test-model` };
      const args = [...data, 'dream', 'run', '--pass', 'episode-extraction'];
      const results = await Promise.all([runReverie(args, { env }), runReverie(args, { env })]);
      const codes = results.map((result) => result.code).sort();
      expect(codes, results.map((result) => result.stderr).join('\n')).toEqual([0, 5]);
      const loser = results.find((result) => result.code === 5)!;
      expectOneLineError(loser, 5, /lock|another/i);
      expect(loser.stderr).toMatch(/process \d+ on /);
    } finally {
      await server.close();
    }
  });

  it('takes over a stale lock left by a process that died; doctor warns about it first', async () => {
    await seed();
    mkdirSync(join(dir.dataPath, '_system', 'dreams'), { recursive: true });
    // A process of this host that has exited: provably gone.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(lockPath(dir.dataPath), JSON.stringify({ pid: gone, host: hostname(), acquiredAt: '2020-01-01T00:00:00.000Z' }));
    const doctor = await runReverie([...data, 'doctor']);
    expect(doctor.stdout).toMatch(new RegExp(`warn\\s+dream lock\\s+held by pid ${gone} on .*stale`));
    const run = await runReverie([...data, 'dream', 'run']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(lockPath(dir.dataPath))).toBe(false);
    expect((await runReverie([...data, 'doctor'])).stdout).toMatch(/ok\s+dream lock\s+free/);
  });
});
