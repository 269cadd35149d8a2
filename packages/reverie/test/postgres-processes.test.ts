import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReverie, type Reverie } from 'reverie';
import { createPglite, realServer, useRealDatabase } from '../../postgres/test/test-databases';
import { bundleDreamChild } from './__fixtures__/child-bundle';
import { buildIfStale } from './built-packages';

// SPEC B6, B8, process level, on PostgreSQL: a real `node` child
// (__fixtures__/postgres-child.ts bundled with the workspace sources; @reverie/postgres loaded
// from its build, as an application loads it) runs dream cycles over a shared database. A child
// SIGKILLed mid-apply leaves a run that another instance recovers and undoes; two children on
// different scopes never wait for each other, and on one scope never run two cycles at once.
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let child: string;
let bundleDir: string;
let work: string;

beforeAll(async () => {
  buildIfStale(['core', 'dream-state', 'file-store', 'dream', 'postgres']);
  // Inside the package, so what the bundle leaves out (PGlite, @reverie/postgres) resolves from its node_modules.
  mkdirSync(join(packageDir, 'node_modules', '.cache'), { recursive: true });
  bundleDir = mkdtempSync(join(packageDir, 'node_modules', '.cache', 'postgres-child-'));
  child = await bundleDreamChild(bundleDir, 'postgres-child.ts', ['@electric-sql/pglite']);
  work = mkdtempSync(join(tmpdir(), 'reverie-pg-processes-'));
}, 600_000);
afterAll(() => {
  rmSync(bundleDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

interface ChildResult {
  signal: NodeJS.Signals | null;
  code: number | null;
  lines: Array<Record<string, unknown>>;
  stderr: string;
}

function runChild(args: string[], env: Record<string, string> = {}): Promise<ChildResult> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, [child, ...args], { cwd: packageDir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', fail);
    proc.on('exit', (code, signal) =>
      done({
        code,
        signal,
        stderr,
        lines: stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      }),
    );
  });
}

/** Three pairs of near-duplicates (merged by the child's scripted model) and two entries of their own. */
async function seed(reverie: Reverie): Promise<string[]> {
  for (let topic = 1; topic <= 3; topic++) {
    await reverie.memory!.save({ content: `topic-${topic}: the user keeps a cat named Miso${topic} at home in Porto.`, category: 'pets' });
    await reverie.memory!.save({ content: `topic-${topic}: at home in Porto the user has a cat called Miso${topic}.`, category: 'pets' });
  }
  await reverie.memory!.save({ content: 'Deploys happen on Tuesdays', category: 'work' });
  await reverie.memory!.save({ content: 'The user prefers green tea', category: 'preferences' });
  return contents(reverie);
}

const contents = async (reverie: Reverie) => (await reverie.memory!.list()).map((entry) => entry.content).sort();

/**
 * The kill-and-recover scenario on a backend: `open` builds an instance over it (the test's
 * own), `release` lets another process open it (PGlite: one process at a time), `backend` is
 * what the child is given.
 */
async function killAndRecover(backend: string, open: () => Promise<Reverie>, release: (reverie: Reverie) => Promise<void>): Promise<void> {
  const dataPath = mkdtempSync(join(work, 'data-'));
  const seeding = await open();
  const before = await seed(seeding);
  await release(seeding);

  const killed = await runChild(['dream', backend, 'user:42', dataPath], { REVERIE_FAULT_KILL_AT: 'journal-written#2' });
  expect(killed.signal, killed.stderr).toBe('SIGKILL');

  const reverie = await open();
  try {
    // The child's lock went with its process (its connection; PGlite's session). A server ends
    // the killed client's backend when it notices the socket closed, which under load can take
    // a moment after the kill: the lock must come free, not necessarily at once.
    await vi.waitFor(async () => expect(await reverie.dreams.lockState()).toEqual({ status: 'free' }), { timeout: 10_000, interval: 50 });
    const [runId, ...others] = await reverie.dreams.recover();
    expect(others).toEqual([]);
    expect((await reverie.dreams.show(runId!)).manifest.status).toBe('interrupted');
    const merged = await contents(reverie);
    // Every pair was merged into one entry, whichever side of the kill its operations fell on.
    for (let topic = 1; topic <= 3; topic++) expect(merged.filter((content) => content.includes(`topic-${topic}:`))).toHaveLength(1);
    expect(merged).toEqual(expect.arrayContaining(['Deploys happen on Tuesdays', 'The user prefers green tea']));
    const undone = await reverie.dreams.undo(runId!);
    expect(undone.restored.length).toBeGreaterThan(0);
    expect(await contents(reverie)).toEqual(before);
  } finally {
    await release(reverie);
  }
}

describe('on PGlite (a database directory, one process at a time)', () => {
  it('recovers and undoes, from another process, a cycle killed mid-apply', async () => {
    const dir = mkdtempSync(join(work, 'pglite-'));
    const dbs = new Map<Reverie, PGlite>();
    await killAndRecover(
      `pglite:${dir}`,
      async () => {
        const db = await createPglite({ dataDir: dir });
        const reverie = createReverie({ dataPath: work, scope: 'user:42' })
          .withPostgres({ pglite: db })
          .withMemory()
          .withDreaming({ enabled: false })
          .build();
        dbs.set(reverie, db);
        return reverie;
      },
      async (reverie) => {
        await reverie.close();
        await dbs.get(reverie)!.close();
      },
    );
  }, 300_000);
});

describe.skipIf(!realServer.url)('on a real PostgreSQL server', () => {
  const database = useRealDatabase();

  it('recovers and undoes, from another instance, a cycle killed mid-apply', async () => {
    await killAndRecover(
      database(),
      async () =>
        createReverie({ dataPath: work, scope: 'user:42' })
          .withPostgres({ connectionString: database() })
          .withMemory()
          .withDreaming({ enabled: false })
          .build(),
      (reverie) => reverie.close(),
    );
  }, 300_000);

  /** Each child's outcome: its cycles run and refused (LOCK_HELD), and the notes it saved. */
  const outcome = (result: ChildResult) => ({
    ran: result.lines.filter((line) => line.cycle === 'ran').map((line) => line.runId as string),
    held: result.lines.filter((line) => line.cycle === 'held').length,
    saved: result.lines.filter((line) => 'saved' in line).map((line) => line.saved as string),
  });

  const runsOf = async (scope: string) => {
    const client = new pg.Client({ connectionString: database() });
    await client.connect();
    try {
      const { rows } = await client.query<{ run_id: string; started: string; completed: string | null }>(
        "SELECT run_id, manifest->>'startedAt' AS started, manifest->>'completedAt' AS completed FROM reverie_dream_runs WHERE scope = $1 ORDER BY manifest->>'startedAt'",
        [scope],
      );
      return rows;
    } finally {
      await client.end();
    }
  };

  const memoryIds = async (scope: string) => {
    const reverie = createReverie({ dataPath: work, scope }).withPostgres({ connectionString: database() }).withMemory().build();
    try {
      return (await reverie.memory!.list()).map((entry) => entry.id);
    } finally {
      await reverie.close();
    }
  };

  it('runs two processes on two scopes side by side: every cycle runs, nothing is lost', async () => {
    const dataPath = mkdtempSync(join(work, 'data-'));
    const results = await Promise.all(['team:a', 'team:b'].map((scope) => runChild(['cycles', database(), scope, dataPath, '5'])));
    for (const [index, scope] of ['team:a', 'team:b'].entries()) {
      const { ran, held, saved } = outcome(results[index]!);
      expect(results[index]!.code, results[index]!.stderr).toBe(0);
      expect({ ran: ran.length, held }).toEqual({ ran: 5, held: 0 });
      expect(await memoryIds(scope)).toEqual(expect.arrayContaining(saved));
      expect((await runsOf(scope)).map((run) => run.run_id).sort()).toEqual([...ran].sort());
    }
  }, 300_000);

  it('never runs two cycles of one scope at once across processes, and loses nothing', async () => {
    const dataPath = mkdtempSync(join(work, 'data-'));
    const results = await Promise.all([
      runChild(['cycles', database(), 'team:shared', dataPath, '8']),
      runChild(['cycles', database(), 'team:shared', dataPath, '8']),
    ]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const [first, second] = results.map(outcome);
    expect(first!.ran.length + first!.held + second!.ran.length + second!.held).toBe(16);
    // Every note either process saved is there, whoever was dreaming meanwhile.
    expect(await memoryIds('team:shared')).toEqual(expect.arrayContaining([...first!.saved, ...second!.saved]));
    const runs = await runsOf('team:shared');
    expect(runs.map((run) => run.run_id).sort()).toEqual([...first!.ran, ...second!.ran].sort());
    // One cycle at a time: each run ended before the next one started.
    for (let index = 1; index < runs.length; index++)
      expect(Date.parse(runs[index - 1]!.completed!)).toBeLessThanOrEqual(Date.parse(runs[index]!.started));
  }, 300_000);
});
